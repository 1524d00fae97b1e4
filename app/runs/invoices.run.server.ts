/** 'Rechnungen schreiben' (Tasks): one invoice per person for their open items, issued (or left as
 *  drafts when asked); the last run of drafts can be undone. */
import { todayInBerlin } from "~/lib/format";
import { isActive, JOB_TYPE_LABELS } from "~/lib/jobs";
import {
  INVOICE_SLICE_SIZE,
  invoiceRunMessage,
  invoiceRunResult,
  invoiceRunUndoRefusal,
  invoiceSliceStatements,
  latestInvoiceRun,
  NOTHING_TO_BILL,
  paramsOf,
  peopleToBill,
  previewInvoiceRun,
  type InvoiceRunParams,
} from "~/models/invoice-runs.server";
import { defineRunKind } from "./declare.server";

export const invoicesRun = defineRunKind({
  type: "INVOICES",
  sliceSize: INVOICE_SLICE_SIZE,
  plan: async ({ db, form }) => {
    const preview = await previewInvoiceRun(db, todayInBerlin());
    if (preview.problem) return { refused: preview.problem };
    // 'Nur Entwürfe anlegen' (issue 30): the invoices are issued later, one by one.
    const params: InvoiceRunParams = { date: preview.date, dueDate: preview.dueDate, draftsOnly: form.get("draftsOnly") === "on" };
    return { items: await peopleToBill(db), params, emptyMessage: NOTHING_TO_BILL, label: JOB_TYPE_LABELS.INVOICES };
  },
  statements: (job, items, actor, now) => invoiceSliceStatements(job.id, items, paramsOf(job) satisfies InvoiceRunParams, actor, now),
  summarize: async (db, job) => {
    const result = await invoiceRunResult(db, job.id);
    return { message: invoiceRunMessage(result), result };
  },
  // The last finished run with a result (the undo dialog is task-undo).
  undo: {
    state: async (db) => {
      const last = await latestInvoiceRun(db);
      if (!last || !paramsOf(last).result || isActive(last)) return null;
      return { jobId: last.id, refusal: await invoiceRunUndoRefusal(db, last) };
    },
  },
});
