/**
 * The PDF-creation confirm (spec 001 §2 Other dialogs): 'PDF erzeugen' of an issued invoice without
 * a PDF, opened from the Rechnungen grid ('PDF erneut erzeugen' is refused since issue 30: an issued
 * invoice's PDF is the document sent and never replaced). Confirmed, the PDF is rendered and
 * stored before the answer (with JavaScript the dialog says 'Rechnung wird zum Druck vorbereitet
 * ...' meanwhile), then 'PDF erfolgreich erstellt'. What create and recreate each do with a file
 * already stored under the invoice's name: app/services/invoice-pdfs.server.ts.
 */
import { getInvoiceHeader } from "~/models/invoices.server";
import { createInvoicePdf, lazyRenderer, PDF_ALREADY_THERE, PDF_NEVER_REPLACED, PDF_OF_DRAFT } from "~/services/invoice-pdfs.server";
import { defineDialog, postedId, type DialogActionContext, type DialogOutcome, type DialogViewContext } from "../define.server";

export const PDF_CREATED = "PDF erfolgreich erstellt";

export type InvoicePdfDialogData = { mode: "create" | "recreate"; id: number; invoiceNumber: number; personName: string; refusal: string | null };

const view =
  (mode: InvoicePdfDialogData["mode"]) =>
  async ({ db, id }: DialogViewContext): Promise<InvoicePdfDialogData | null> => {
    const header = id ? await getInvoiceHeader(db, id) : undefined;
    if (!header) return null;
    return {
      mode,
      id: header.id,
      invoiceNumber: header.invoiceNumber ?? 0,
      personName: header.personName ?? "",
      refusal: header.status !== "ISSUED" ? PDF_OF_DRAFT : mode === "recreate" ? PDF_NEVER_REPLACED : header.pdfFilePath ? PDF_ALREADY_THERE : null,
    };
  };

const action =
  (replace: boolean) =>
  async ({ db, user, form, env }: DialogActionContext): Promise<DialogOutcome> => {
    const id = postedId(form);
    if (!id) return { status: "missing" };
    const renderer = lazyRenderer(env);
    try {
      const outcome = await createInvoicePdf(env, db, id, user, { replace, renderer: renderer.get });
      switch (outcome.status) {
        case "created":
        case "adopted":
          return { status: "done", message: PDF_CREATED };
        case "exists":
          return { status: "refused", message: PDF_ALREADY_THERE };
        default:
          return outcome;
      }
    } finally {
      await renderer.close();
    }
  };

export const dialog = defineDialog({
  area: "invoices",
  views: { create: view("create"), recreate: view("recreate") },
  actions: { create: action(false), recreate: action(true) },
});
