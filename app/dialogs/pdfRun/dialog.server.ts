/**
 * The confirmation of the run 'PDFs erzeugen' (Tasks, ADMIN): how many invoices have no PDF yet,
 * and whether the template 'invoice' is there. Confirmed, the run goes to the queue.
 */
import { startRun } from "~/jobs/start.server";
import { PDF_RUN_STARTED, pdfRunMessage } from "~/jobs/pdf-run.server";
import { JOB_TYPE_LABELS } from "~/lib/jobs";
import { countInvoicesWithoutPdf, invoicesWithoutPdf } from "~/models/invoice-pdfs.server";
import { ALREADY_RUNNING } from "~/models/jobs.server";
import { getTemplateByName } from "~/models/templates.server";
import { INVOICE_TEMPLATE_NAME } from "~/lib/invoice-document";
import { PDF_TEMPLATE_MISSING } from "~/services/invoice-pdfs.server";
import type { Db } from "~/db/client.server";
import { defineDialog } from "../define.server";

export type PdfRunPreview = { withoutPdf: number; total: number; problem: string | null };

async function preview(db: Db): Promise<PdfRunPreview> {
  const [counts, template] = await Promise.all([countInvoicesWithoutPdf(db), getTemplateByName(db, INVOICE_TEMPLATE_NAME)]);
  return { ...counts, problem: template ? null : PDF_TEMPLATE_MISSING };
}

export const dialog = defineDialog({
  area: "tasks",
  views: { start: async ({ db }) => preview(db) },
  actions: {
    start: async ({ db, user, env }) => {
      const { problem } = await preview(db);
      if (problem) return { status: "refused", message: problem };
      const items = await invoicesWithoutPdf(db);
      const outcome = await startRun(env, db, { type: "PDFS", items, params: {}, emptyMessage: pdfRunMessage(0), startMessage: PDF_RUN_STARTED }, user);
      if (outcome.status === "running") return { status: "refused", message: ALREADY_RUNNING };
      if (outcome.status === "failed") return { status: "refused", message: outcome.message };
      return {
        status: "done",
        message: outcome.job.status === "DONE" ? (outcome.job.message ?? JOB_TYPE_LABELS.PDFS) : `${JOB_TYPE_LABELS.PDFS} gestartet: ${PDF_RUN_STARTED}`,
      };
    },
  },
});
