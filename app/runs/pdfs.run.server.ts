/** 'PDFs erzeugen' (Tasks): the PDF of every invoice that has none yet (item: app/jobs/pdf-run.server.ts). */
import { performPdf, PDF_CONCURRENCY, PDF_RUN_STARTED, PDF_SLICE_SIZE, pdfRunMessage, pdfRunPreview, summarizePdfRun } from "~/jobs/pdf-run.server";
import { JOB_TYPE_LABELS } from "~/lib/jobs";
import { invoicesWithoutPdf, nameInvoices } from "~/models/invoice-pdfs.server";
import { defineRunKind } from "./declare.server";

export const pdfsRun = defineRunKind({
  type: "PDFS",
  sliceSize: PDF_SLICE_SIZE,
  plan: async ({ db }) => {
    const { problem } = await pdfRunPreview(db);
    if (problem) return { refused: problem };
    const items = await invoicesWithoutPdf(db);
    return { items, params: {}, emptyMessage: pdfRunMessage(0), startMessage: PDF_RUN_STARTED, label: JOB_TYPE_LABELS.PDFS };
  },
  perform: performPdf,
  concurrency: PDF_CONCURRENCY,
  summarize: summarizePdfRun,
  nameItems: nameInvoices,
});
