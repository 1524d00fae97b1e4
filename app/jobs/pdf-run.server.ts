/**
 * The bulk run 'PDFs erzeugen' (spec 001 §2 Tasks, §4 PDF creation): every invoice that had no PDF
 * at the start gets one, 20 invoices per queue message, all PDFs of one queue batch rendered in
 * one browser session (BatchResources: opened by the first invoice that needs it, closed when the
 * batch ends). Idempotent per invoice (see app/services/invoice-pdfs.server.ts): an invoice whose
 * header names a PDF is skipped, a file already stored under its name is taken, never stored
 * again, so a retried message renders nothing twice and overwrites nothing.
 */
import type { Db } from "~/db/client.server";
import { INVOICE_TEMPLATE_NAME } from "~/lib/invoice-document";
import { countInvoicesWithoutPdf, countWithPdf, runProgressStatement } from "~/models/invoice-pdfs.server";
import type { JobRecord, RunSummary } from "~/models/jobs.server";
import { getTemplateByName } from "~/models/templates.server";
import { createInvoicePdf, PDF_TEMPLATE_MISSING } from "~/services/invoice-pdfs.server";
import { PdfRenderer } from "~/services/pdf.server";
import { ItemFailure, type ItemContext } from "./item";

export const PDF_SLICE_SIZE = 20;
/** PDFs of a slice rendered at once, each on its own page of the batch's browser: while Chromium
 *  prints one, the worker reads the next invoice and stores the last PDF. */
export const PDF_CONCURRENCY = 3;
export const PDF_RUN_STARTED = "Pdfs werden vorbereitet ...";
const pdfProgressMessage = (invoiceNumber: number) => `Pdf für Rechnung ${invoiceNumber} wurde erzeugt`;
export const pdfRunMessage = (count: number) => `Fertig! Es wurden ${count} Pdfs erzeugt`;

const RENDERER = "pdf-renderer";

export type PdfRunPreview = { withoutPdf: number; total: number; problem: string | null };

/** The confirmation's preview: how many invoices have no PDF yet, and whether the template 'invoice' is there. */
export async function pdfRunPreview(db: Db): Promise<PdfRunPreview> {
  const [counts, template] = await Promise.all([countInvoicesWithoutPdf(db), getTemplateByName(db, INVOICE_TEMPLATE_NAME)]);
  return { ...counts, problem: template ? null : PDF_TEMPLATE_MISSING };
}

/** One invoice of the run: its PDF, unless its header names one already. */
export async function performPdf({ env, db, job, actor, batch }: ItemContext, invoiceId: number): Promise<void> {
  const renderer = () =>
    batch.get(RENDERER, async () => {
      const opened = await PdfRenderer.open(env);
      return { value: opened, dispose: () => opened.close() };
    });
  const outcome = await createInvoicePdf(env, db, invoiceId, actor, {
    renderer,
    alsoInBatch: (invoiceNumber) => [runProgressStatement(job.id, pdfProgressMessage(invoiceNumber))],
  });
  // Deleted since the run started, or given a PDF meanwhile: nothing left to do for it.
  if (outcome.status !== "refused") return;
  // A browser that failed may be broken: the next invoice opens a new one.
  await batch.discard(RENDERER);
  throw new ItemFailure(outcome.message);
}

/** 'Fertig! Es wurden {n} Pdfs erzeugt': the run's invoices that have a PDF now (none had one at its start). */
export async function summarizePdfRun(db: Db, job: JobRecord): Promise<RunSummary> {
  const items = JSON.parse(job.items ?? "[]") as number[];
  return { message: pdfRunMessage(await countWithPdf(db, items)) };
}
