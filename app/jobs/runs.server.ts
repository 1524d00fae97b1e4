/**
 * The registry of bulk runs: every kind's server declaration (app/runs/<kind>.run.server.ts). The
 * consumer (index.server.ts) and the start (start.server.ts) read only this.
 */
import type { JobRecord, JobType } from "~/models/jobs.server";
import { annualFeesRun } from "~/runs/annual-fees.run.server";
import type { RunKind } from "~/runs/declare.server";
import { directDebitRun } from "~/runs/direct-debit.run.server";
import { invoicesRun } from "~/runs/invoices.run.server";
import { mailshotRun } from "~/runs/mailshot.run.server";
import { pdfsRun } from "~/runs/pdfs.run.server";
import { remindersRun } from "~/runs/reminders.run.server";
import { subscriptionFeesRun } from "~/runs/subscription-fees.run.server";

export type { RunKind };

export const RUN_KINDS: Record<JobType, RunKind> = {
  ANNUAL_FEES: annualFeesRun,
  SUBSCRIPTION_FEES: subscriptionFeesRun,
  INVOICES: invoicesRun,
  PDFS: pdfsRun,
  MAILSHOT: mailshotRun,
  DIRECT_DEBIT: directDebitRun,
  REMINDERS: remindersRun,
};

/** The kind of a stored run, or undefined for a type this code does not know (never becomes known). */
export const runKindOf = (job: Pick<JobRecord, "type">): RunKind | undefined =>
  Object.hasOwn(RUN_KINDS, job.type) ? RUN_KINDS[job.type as JobType] : undefined;
