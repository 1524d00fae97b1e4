import { DialogAlert, DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { formatCount, formatNumber } from "~/lib/format";
import type { PdfRunPreview } from "./dialog.server";

/** 'PDFs erzeugen': what the run will do, confirmed before it starts. */
export default function PdfRunDialog({ data, actionData, closeHref }: DialogProps<PdfRunPreview>) {
  const nothing = data.withoutPdf === 0;
  return (
    <RouteDialog title="PDFs erzeugen" closeHref={closeHref}>
      <DialogForm intent="pdfRun:start">
        <p>
          {nothing
            ? `Alle ${formatCount(data.total, "Rechnung hat", "Rechnungen haben")} schon ein PDF: Es ist nichts zu erzeugen.`
            : `${formatCount(data.withoutPdf, "Rechnung hat", "Rechnungen haben")} noch kein PDF (von ${formatNumber(data.total)}). Für jede wird das PDF aus der Vorlage „invoice“ erzeugt und gespeichert.`}
        </p>
        <p className="mt-2 text-sm text-slate-600">Bist du sicher? Rechnungen mit PDF bleiben, wie sie sind; ein zweiter Lauf erzeugt nichts doppelt.</p>
        <DialogAlert message={data.problem ?? actionData?.error} />
        <DialogButtons submitLabel="PDFs erzeugen" closeHref={closeHref} disabled={data.problem !== null} reason={data.problem} />
      </DialogForm>
    </RouteDialog>
  );
}
