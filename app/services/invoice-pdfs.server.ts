/**
 * Invoice PDFs (spec 001 §4 PDF creation): the invoice from D1, rendered with the template
 * 'invoice' through Chromium (pdf.server.ts), stored in R2 (binding INVOICES) as
 * 'Rechnung_{number}_{lastName}_{year}.pdf', and only then named on the invoice's header.
 *
 * The header is the one truth about which stored PDF belongs to an invoice, and a PDF is never
 * stored twice or over a newer one, however a single click and a retried run message interleave:
 * - Only an issued invoice gets a PDF, once (issue 30, GoBD): its data no longer change, so the
 *   stored file is the document the recipient got. The header keeps its SHA-256 beside its path,
 *   both set once; 'PDF erneut erzeugen' is refused.
 * - 'PDF erzeugen' (and the PDF run) upload with R2's create-only condition (If-None-Match: *).
 *   A file that is already stored under the name is this invoice's PDF, stored by an interrupted
 *   earlier attempt (upload done, header not yet set) or by another path a moment ago: it is
 *   taken as it is (named on the header if still empty, hashed as it is stored), not rendered and
 *   stored again. So a retried slice makes no second object and overwrites nothing. Unless the
 *   invoice changed after that file was stored (an invoice issued before issue 30 whose PDF an
 *   edit had detached): then the file, which no header named, shows the old invoice and is
 *   replaced from the now frozen data, but only that very file (R2's etagMatches condition).
 * - If the header cannot be set (the invoice names another file now), the file this call uploaded
 *   is removed again: '131 error updating invoice header with pdf name'. A file the header names
 *   is never removed.
 * - The PDF of a recipient marked as Unternehmer carries its e-invoice (ZUGFeRD / Factur-X, issue
 *   35 item 6): the XRechnung XML is embedded before the PDF is hashed and stored. When the
 *   e-invoice cannot be made (settings missing, named in the log) or embedded, the PDF is stored
 *   without it.
 */
import type { Db, Statement } from "~/db/client.server";
import { sha256Hex } from "~/lib/bytes";
import { invoicePdfName, invoiceTemplateData, NO_INVOICE_TEMPLATE } from "~/lib/invoice-document";
import { contentDisposition } from "~/lib/file-names";
import { INVOICE_KIND_LABELS } from "~/lib/invoice-state";
import { xrechnungMissingMessage } from "~/lib/xrechnung";
import { embedFacturX } from "~/lib/zugferd";
import { renderHtmlTemplate } from "~/lib/templates";
import type { Actor } from "~/models/audit.server";
import { getInvoiceDocument, pdfPathOf, pdfsWithoutHash, setPdfHash, setPdfPath, type InvoiceDocument } from "~/models/invoice-pdfs.server";
import { PdfRenderer, RENDERING_FAILED } from "./pdf.server";
import { xrechnungOfDocument } from "./xrechnung.server";

export const PDF_HEADER_UPDATE_FAILED = "131 error updating invoice header with pdf name";
export const PDF_ALREADY_THERE = "Für diese Rechnung gibt es schon ein PDF („PDF anzeigen“).";
export const PDF_TEMPLATE_MISSING = `${NO_INVOICE_TEMPLATE}: Es gibt keine Rechnungsvorlage „invoice“. Bitte unter Einstellungen → Vorlagen anlegen.`;
export const PDF_OF_DRAFT = "Ein Rechnungsentwurf hat noch kein PDF: Erst beim Ausstellen erhält die Rechnung ihre Nummer, dann kann ihr PDF erzeugt werden.";
export const PDF_NEVER_REPLACED =
  "Das PDF einer ausgestellten Rechnung wird nicht neu erzeugt: Es ist das Dokument, das die Empfängerin oder der Empfänger erhalten hat (§ 147 AO).";

export type PdfOutcome =
  /** Rendered and stored by this call, or an already stored file taken (adopted); the header names it. */
  | { status: "created" | "adopted"; path: string; invoiceNumber: number }
  /** The header already named a PDF: nothing done. */
  | { status: "exists"; path: string; invoiceNumber: number }
  | { status: "missing" }
  | { status: "refused"; message: string };

export type PdfOptions = {
  /** 'PDF erneut erzeugen': refused since issue 30 (an issued invoice's PDF is never replaced). */
  replace?: boolean;
  /** The renderer, opened on first need (a stored file taken as it is needs none). */
  renderer: () => Promise<PdfRenderer>;
  /** Statements for the batch that sets the header (a run's progress message). */
  alsoInBatch?: (invoiceNumber: number) => Statement[];
  now?: () => Date;
};

export async function createInvoicePdf(env: Pick<Env, "INVOICES">, db: Db, id: number, actor: Actor, options: PdfOptions): Promise<PdfOutcome> {
  const now = options.now ?? (() => new Date());
  const document = await getInvoiceDocument(db, id);
  if (!document) return { status: "missing" };
  const { invoiceNumber } = document.header;
  if (!document.issued) return { status: "refused", message: PDF_OF_DRAFT };
  if (options.replace) return { status: "refused", message: PDF_NEVER_REPLACED };
  if (document.pdfFilePath) return { status: "exists", path: document.pdfFilePath, invoiceNumber };
  if (document.template === null) return { status: "refused", message: PDF_TEMPLATE_MISSING };
  const name = invoicePdfName(document.header, document.person.lastName);

  let uploaded = false;
  let sha256: string | null = null;
  const stored = await env.INVOICES.head(name.key);
  const outdated = stored !== null && document.changedOn !== null && stored.uploaded < new Date(document.changedOn);
  if (!stored || outdated) {
    let pdf: Uint8Array;
    try {
      const html = renderHtmlTemplate(document.template, invoiceTemplateData(document));
      pdf = await withEInvoice(document, await (await options.renderer()).render(html), now());
    } catch (error) {
      console.error("PDF-Erzeugung fehlgeschlagen", invoiceNumber, error);
      return { status: "refused", message: RENDERING_FAILED };
    }
    // Hashed before the upload: R2's put takes the bytes over.
    const hash = await sha256Hex(pdf);
    const put = await env.INVOICES.put(name.key, pdf, {
      httpMetadata: { contentType: "application/pdf", contentDisposition: contentDisposition("inline", name.display) },
      customMetadata: { fileName: name.display, invoiceId: String(id), invoiceNumber: String(invoiceNumber) },
      onlyIf: stored ? { etagMatches: stored.etag } : new Headers({ "If-None-Match": "*" }),
    });
    // null: the condition failed, a file was stored meanwhile by another path; it stays.
    uploaded = put !== null;
    if (uploaded) sha256 = hash;
  }
  // A file stored by another path (or an interrupted attempt) is hashed as it is stored.
  if (sha256 === null) {
    const object = await env.INVOICES.get(name.key);
    if (object) sha256 = await sha256Hex(await object.arrayBuffer());
  }

  let set = false;
  try {
    if (sha256 !== null) set = await setPdfPath(db, id, name.key, sha256, actor, options.alsoInBatch?.(invoiceNumber) ?? [], now());
  } catch (error) {
    console.error("pdfFilePath konnte nicht gesetzt werden", invoiceNumber, error);
  }
  if (set) return { status: uploaded ? "created" : "adopted", path: name.key, invoiceNumber };
  const current = await pdfPathOf(db, id).catch(() => undefined);
  // Another path named the same file meanwhile: it belongs to the invoice now, whoever stored it.
  if (current === name.key) return { status: "exists", path: current, invoiceNumber };
  if (uploaded) await env.INVOICES.delete(name.key);
  return { status: "refused", message: PDF_HEADER_UPDATE_FAILED };
}

/** A business recipient's PDF with its e-invoice embedded (ZUGFeRD); any other PDF as it is. */
async function withEInvoice(document: InvoiceDocument, pdf: Uint8Array, date: Date): Promise<Uint8Array> {
  if (!document.recipient.isBusiness) return pdf;
  const einvoice = xrechnungOfDocument(document);
  if (!einvoice.ok) {
    console.warn("PDF ohne E-Rechnung", document.header.invoiceNumber, xrechnungMissingMessage(einvoice.missing));
    return pdf;
  }
  const title = `${INVOICE_KIND_LABELS[document.header.kind ?? "INVOICE"]} Nr. ${document.header.invoiceNumber}`;
  try {
    return await embedFacturX(pdf, einvoice.xml, { title, date });
  } catch (error) {
    // The invoice itself is the printed PDF: it is stored without the attachment rather than not at all.
    console.error("E-Rechnung konnte nicht in das PDF eingebettet werden", document.header.invoiceNumber, error);
    return pdf;
  }
}

/** A renderer opened on first use and closed by `close` (one request's PDF). */
export function lazyRenderer(env: Pick<Env, "BROWSER">) {
  let opened: Promise<PdfRenderer> | null = null;
  return {
    get: () => (opened ??= PdfRenderer.open(env)),
    close: async () => {
      if (opened) await (await opened.catch(() => null))?.close();
    },
  };
}

export type StoredPdf = { status: "found"; body: ReadableStream; size: number; asciiName: string; fileName: string } | { status: "missing"; message: string };

export const GET_PDF_ERROR = "getPDF error:";

/** The PDF an invoice's header names, from R2 (never a key from a request: only the stored path). */
export async function storedInvoicePdf(env: Pick<Env, "INVOICES">, db: Db, id: number): Promise<StoredPdf> {
  const path = await pdfPathOf(db, id);
  if (path === undefined) return { status: "missing", message: `${GET_PDF_ERROR} Diese Rechnung gibt es nicht (mehr).` };
  if (path === null) return { status: "missing", message: `${GET_PDF_ERROR} Für diese Rechnung wurde noch kein PDF erzeugt.` };
  const object = await env.INVOICES.get(path);
  if (!object) return { status: "missing", message: `${GET_PDF_ERROR} Die PDF-Datei ${path} fehlt im Speicher. Bitte das PDF neu erzeugen.` };
  return { status: "found", body: object.body, size: object.size, asciiName: path, fileName: object.customMetadata?.fileName ?? path };
}

/**
 * PDFs stored before issue 30 have no SHA-256 beside them (the migration cannot read R2): the daily
 * cron hashes up to `limit` of them as they are stored now, so from then on any change to the
 * file shows. A file that is missing stays without a hash (the PDF view names it as missing).
 */
export async function hashStoredPdfs(env: Pick<Env, "INVOICES">, db: Db, limit = 200): Promise<number> {
  let hashed = 0;
  for (const { id, path } of await pdfsWithoutHash(db, limit)) {
    const object = await env.INVOICES.get(path);
    if (!object) continue;
    await setPdfHash(db, id, path, await sha256Hex(await object.arrayBuffer()));
    hashed += 1;
  }
  return hashed;
}
