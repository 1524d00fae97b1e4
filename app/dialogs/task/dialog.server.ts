/**
 * The Tasks screen's dialogs: the confirmation of a bulk run with its preview (what it will do),
 * and the undo of the last invoicing run. Confirming starts the run on the queue; the screen then
 * shows its progress.
 */
import { resumeRun, startRun } from "~/jobs/start.server";
import { currentYearInBerlin, formatCount, todayInBerlin } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { membersOwingAnnualFees, previewAnnualFees, type AnnualFeeParams, type AnnualFeePreview } from "~/models/annual-fees.server";
import {
  invoiceRunUndoRefusal,
  NOTHING_TO_BILL,
  paramsOf,
  peopleToBill,
  previewInvoiceRun,
  undoInvoiceRun,
  type InvoiceRunParams,
  type InvoiceRunPreview,
  type InvoiceRunResult,
} from "~/models/invoice-runs.server";
import { JOB_TYPE_LABELS } from "~/lib/jobs";
import { ALREADY_RUNNING, getJob } from "~/models/jobs.server";
import { defineDialog, postedId, type DialogOutcome } from "../define.server";

/** The years a run of annual fees may be for: around today, nothing far off by a typo. */
export const ANNUAL_FEE_YEARS = { before: 1, after: 1 };

export function annualFeeYearsOffered(): number[] {
  const year = currentYearInBerlin();
  const years: number[] = [];
  for (let offset = -ANNUAL_FEE_YEARS.before; offset <= ANNUAL_FEE_YEARS.after; offset++) years.push(year + offset);
  return years;
}

const offeredYear = (value: number | null) => (value !== null && annualFeeYearsOffered().includes(value) ? value : null);

export type TaskDialogData =
  | { kind: "annualFees"; preview: AnnualFeePreview }
  | { kind: "invoices"; preview: InvoiceRunPreview }
  | { kind: "undo"; jobId: number; startedOn: string | null; result: InvoiceRunResult; refusal: string | null };

const started = (outcome: Awaited<ReturnType<typeof startRun>>, label: string): DialogOutcome => {
  if (outcome.status === "running") return { status: "refused", message: ALREADY_RUNNING };
  if (outcome.status === "failed") return { status: "refused", message: outcome.message };
  const { job } = outcome;
  return { status: "done", message: job.status === "DONE" ? (job.message ?? label) : `${label} gestartet: working ...` };
};

export const dialog = defineDialog({
  area: "tasks",
  views: {
    // dialogId is the year the fees are for.
    annualFees: async ({ db, id }): Promise<TaskDialogData | null> => {
      const year = offeredYear(id);
      return year === null ? null : { kind: "annualFees", preview: await previewAnnualFees(db, year) };
    },
    invoices: async ({ db }): Promise<TaskDialogData> => ({ kind: "invoices", preview: await previewInvoiceRun(db, todayInBerlin()) }),
    undo: async ({ db, id }): Promise<TaskDialogData | null> => {
      const job = id ? await getJob(db, id) : undefined;
      const result = job?.type === "INVOICES" ? paramsOf(job).result : undefined;
      if (!job || !result) return null;
      return { kind: "undo", jobId: job.id, startedOn: job.startedOn, result, refusal: await invoiceRunUndoRefusal(db, job) };
    },
  },
  actions: {
    annualFees: async ({ db, user, form, env }) => {
      const year = offeredYear(parseId(form.get("year")));
      if (year === null) return { status: "refused", message: `Bitte ein Beitragsjahr wählen: ${annualFeeYearsOffered().join(", ")}.` };
      const preview = await previewAnnualFees(db, year);
      if (preview.problem || !preview.configured) return { status: "refused", message: preview.problem ?? "Die Einstellungen fehlen." };
      const params: AnnualFeeParams = { year, date: todayInBerlin(), ...preview.configured };
      const items = await membersOwingAnnualFees(db, year);
      const outcome = await startRun(env, db, { type: "ANNUAL_FEES", items, params, emptyMessage: "0 offene Posten für Jahresbeiträge eingestellt" }, user);
      return started(outcome, `${JOB_TYPE_LABELS.ANNUAL_FEES} ${year}`);
    },
    invoices: async ({ db, user, env }) => {
      const preview = await previewInvoiceRun(db, todayInBerlin());
      if (preview.problem) return { status: "refused", message: preview.problem };
      const params: InvoiceRunParams = { date: preview.date, dueDate: preview.dueDate };
      const items = await peopleToBill(db);
      const outcome = await startRun(env, db, { type: "INVOICES", items, params, emptyMessage: NOTHING_TO_BILL }, user);
      return started(outcome, JOB_TYPE_LABELS.INVOICES);
    },
    // A stalled run (its messages lost): its open slices go to the queue again.
    resume: async ({ db, form, env }) => {
      const id = postedId(form);
      if (!id) return { status: "missing" };
      const outcome = await resumeRun(env, db, id);
      if (outcome.status !== "resumed") return outcome;
      return { status: "done", message: `Lauf fortgesetzt: ${formatCount(outcome.slices, "Teil", "Teile")} wieder in die Warteschlange gestellt` };
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
