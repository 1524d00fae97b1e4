/**
 * The e-invoice of an issued invoice (issue 35 item 6): its XRechnung (CII) read from D1 and built
 * by app/lib/xrechnung.ts, as the download of `GET /invoices/xrechnung/{id}` and as the XML the PDF
 * of a business recipient embeds (ZUGFeRD, app/services/invoice-pdfs.server.ts).
 */
import type { Db } from "~/db/client.server";
import type { Download } from "~/lib/download";
import { buildXRechnung, xrechnungMissingMessage, xrechnungSourceOf, type XRechnungResult } from "~/lib/xrechnung";
import { getInvoiceDocument, type InvoiceDocument } from "~/models/invoice-pdfs.server";

const XRECHNUNG_UNKNOWN = "Diese Rechnung gibt es nicht (mehr).";
const XRECHNUNG_OF_DRAFT =
  "Ein Rechnungsentwurf hat noch keine E-Rechnung: Erst beim Ausstellen erhält die Rechnung ihre Nummer, dann gibt es sie als XRechnung.";

/** The e-invoice of an invoice document (issued: its data are frozen). */
export const xrechnungOfDocument = (document: InvoiceDocument): XRechnungResult => buildXRechnung(xrechnungSourceOf(document));

/** The XRechnung of an issued invoice as a download, or why there is none (German). */
export async function invoiceXRechnungDownload(db: Db, id: number): Promise<Download> {
  const document = await getInvoiceDocument(db, id);
  if (!document) return { status: "missing", message: XRECHNUNG_UNKNOWN };
  if (!document.issued) return { status: "conflict", message: XRECHNUNG_OF_DRAFT };
  const result = xrechnungOfDocument(document);
  if (!result.ok) return { status: "unusable", message: xrechnungMissingMessage(result.missing) };
  return { status: "found", body: result.xml, fileName: result.fileName, contentType: "application/xml; charset=utf-8" };
}
