/**
 * The Tasks screen's dialogs: the confirmation of a bulk run with its preview (what it will do),
 * and the undo of the last invoicing run. Confirming starts the declared run (app/runs) on the
 * queue; the screen then shows its progress.
 */
import { resumeAction, startDeclaredRun } from "~/jobs/start.server";
import { formatCount, todayInBerlin } from "~/lib/format";
import { previewAnnualFees, type AnnualFeePreview } from "~/models/annual-fees.server";
import { annualFeesRun, offeredYear } from "~/runs/annual-fees.run.server";
import { invoicesRun } from "~/runs/invoices.run.server";
import { mailshotRun } from "~/runs/mailshot.run.server";
import { pdfsRun } from "~/runs/pdfs.run.server";
import { subscriptionFeesRun } from "~/runs/subscription-fees.run.server";
import {
  previewSubscriptionFees,
  subscriptionRunFeeCount,
  subscriptionRunUndoRefusal,
  undoSubscriptionRun,
  type SubscriptionFeePreview,
} from "~/models/subscription-fees.server";
import {
  invoiceRunUndoRefusal,
  paramsOf,
  previewInvoiceRun,
  undoInvoiceRun,
  type InvoiceRunPreview,
  type InvoiceRunResult,
} from "~/models/invoice-runs.server";
import { getJob } from "~/models/jobs.server";
import { defineDialog, postedId } from "../define.server";

export type TaskDialogData =
  | { kind: "annualFees"; preview: AnnualFeePreview }
  | { kind: "invoices"; preview: InvoiceRunPreview }
  | { kind: "subscriptionFees"; preview: SubscriptionFeePreview }
  | { kind: "undoSubscriptions"; jobId: number; fees: number; refusal: string | null }
  | { kind: "undo"; jobId: number; startedOn: string | null; result: InvoiceRunResult; refusal: string | null };

export const dialog = defineDialog({
  area: "tasks",
  views: {
    // dialogId is the year the fees are for.
    annualFees: async ({ db, id }): Promise<TaskDialogData | null> => {
      const year = offeredYear(id);
      return year === null ? null : { kind: "annualFees", preview: await previewAnnualFees(db, year) };
    },
    invoices: async ({ db }): Promise<TaskDialogData> => ({ kind: "invoices", preview: await previewInvoiceRun(db, todayInBerlin()) }),
    subscriptionFees: async ({ db }): Promise<TaskDialogData> => ({ kind: "subscriptionFees", preview: await previewSubscriptionFees(db, todayInBerlin()) }),
    undoSubscriptions: async ({ db, id }): Promise<TaskDialogData | null> => {
      const job = id ? await getJob(db, id) : undefined;
      if (job?.type !== "SUBSCRIPTION_FEES") return null;
      return { kind: "undoSubscriptions", jobId: job.id, fees: await subscriptionRunFeeCount(db, job.id), refusal: await subscriptionRunUndoRefusal(db, job) };
    },
    undo: async ({ db, id }): Promise<TaskDialogData | null> => {
      const job = id ? await getJob(db, id) : undefined;
      const result = job?.type === "INVOICES" ? paramsOf(job).result : undefined;
      if (!job || !result) return null;
      return { kind: "undo", jobId: job.id, startedOn: job.startedOn, result, refusal: await invoiceRunUndoRefusal(db, job) };
    },
  },
  actions: {
    annualFees: (context) => startDeclaredRun(annualFeesRun, context),
    invoices: (context) => startDeclaredRun(invoicesRun, context),
    subscriptionFees: (context) => startDeclaredRun(subscriptionFeesRun, context),
    // A stalled run (its messages lost): its open slices go to the queue again. The runs started
    // on Tasks (area tasks); the Mahnlauf and the Lastschriftlauf resume from their own dialogs.
    resume: resumeAction(annualFeesRun, subscriptionFeesRun, invoicesRun, pdfsRun, mailshotRun),
    undoSubscriptions: async ({ db, user, form }) => {
      const id = postedId(form);
      if (!id) return { status: "missing" };
      const outcome = await undoSubscriptionRun(db, id, user);
      if (outcome.status === "refused") return outcome;
      return { status: "done", message: `Abo-Beiträge rückgängig gemacht: ${formatCount(outcome.removed, "offener Posten", "offene Posten")} gelöscht` };
    },
    undo: async ({ db, user, form }) => {
      const id = postedId(form);
      if (!id) return { status: "missing" };
      const outcome = await undoInvoiceRun(db, id, user);
      if (outcome.status === "refused") return outcome;
      const { result } = outcome;
      return {
        status: "done",
        message: `Rechnungslauf rückgängig gemacht: ${formatCount(result.created, "Rechnung", "Rechnungen")} gelöscht, ${formatCount(result.rows, "offener Posten", "offene Posten")} wieder abzurechnen`,
      };
    },
  },
});
