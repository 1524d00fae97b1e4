import { useContext } from "react";
import { DialogAlert, DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, DialogFormContext, type DialogProps } from "~/components/dialog-form";
import type { InvoicePdfDialogData } from "./dialog.server";

/** 'PDF erzeugen' / 'PDF erneut erzeugen': a confirmation that shows while the PDF is being made. */
export default function InvoicePdfDialog({ data, actionData, closeHref }: DialogProps<InvoicePdfDialogData>) {
  const busy = useContext(DialogFormContext)?.fetcher.state !== "idle";
  const title = data.mode === "create" ? "PDF erzeugen" : "PDF erneut erzeugen";
  return (
    <RouteDialog title={title} closeHref={closeHref}>
      <DialogForm intent={`invoicePdf:${data.mode}`}>
        <input type="hidden" name="id" value={data.id} />
        <p>
          Rechnung {data.invoiceNumber} an {data.personName}: Das PDF wird aus der Vorlage „invoice“ erzeugt und gespeichert.
        </p>
        <p className="mt-2 text-sm text-slate-600">
          {data.mode === "create"
            ? "Ist schon eine PDF-Datei dieser Rechnung gespeichert (etwa von einem unterbrochenen Lauf), wird sie übernommen."
            : "Eine schon gespeicherte PDF-Datei dieser Rechnung wird durch eine neu erzeugte ersetzt, z. B. nachdem Rechnung, Vorlage oder Vereinsdaten geändert wurden."}
        </p>
        {busy && (
          <p role="status" className="mt-3 animate-pulse rounded border border-wuff-200 bg-wuff-50 p-3 text-sm text-wuff-900">
            Rechnung wird zum Druck vorbereitet ...
          </p>
        )}
        <DialogAlert message={data.refusal ?? actionData?.error} />
        <DialogButtons submitLabel={title} closeHref={closeHref} disabled={data.refusal !== null} reason={data.refusal} />
      </DialogForm>
    </RouteDialog>
  );
}
