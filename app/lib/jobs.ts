/**
 * Bulk runs as the screens show them (browser and server): kinds, states, progress and message.
 * The runs themselves are in app/models/jobs.server.ts and app/jobs.
 */
import type { JobStatus } from "~/db/schema";
import { formatDateTime, formatNumber } from "./format";

/** The kinds of bulk run the Tasks screen starts. */
export type JobType = "ANNUAL_FEES" | "SUBSCRIPTION_FEES" | "INVOICES" | "PDFS" | "MAILSHOT" | "DIRECT_DEBIT" | "REMINDERS";

export const JOB_TYPE_LABELS: Record<JobType, string> = {
  ANNUAL_FEES: "Jahresbeiträge",
  SUBSCRIPTION_FEES: "Abo-Beiträge",
  INVOICES: "Rechnungen schreiben",
  PDFS: "PDFs erzeugen",
  MAILSHOT: "Mailshot",
  DIRECT_DEBIT: "Lastschriftlauf",
  REMINDERS: "Mahnlauf",
};

export const JOB_STATUS_LABELS: Record<JobStatus, string> = { QUEUED: "wartet", RUNNING: "läuft", DONE: "fertig", FAILED: "fehlgeschlagen" };

/** What the spec shows while a run is under way. */
export const WORKING_MESSAGE = "working ...";

type JobState = { status: JobStatus; total: number; done: number; failed: number; message: string | null };

export const isActive = (job: Pick<JobState, "status"> | undefined) => job?.status === "QUEUED" || job?.status === "RUNNING";

/** How long a screen waits for a finished run's result message. */
const SUMMARY_WAIT_MS = 2 * 60_000;

/**
 * Whether a screen keeps following the run: while it is under way, and once finished until its
 * result message is written (a finished run has none for a moment: see progressStatement).
 */
export function isFollowed(
  job: (Pick<JobState, "status" | "message"> & { finishedOn: string | null; undoneOn?: string | null }) | undefined,
  now: Date,
): boolean {
  if (!job) return false;
  if (isActive(job)) return true;
  const finished = job.finishedOn ? new Date(job.finishedOn).getTime() : NaN;
  return job.message === null && !job.undoneOn && now.getTime() - finished < SUMMARY_WAIT_MS;
}

/** '120 von 3.000', and how many failed. */
export function progressText(job: Pick<JobState, "done" | "failed" | "total">): string {
  const failed = job.failed > 0 ? `, ${formatNumber(job.failed)} fehlgeschlagen` : "";
  return `${formatNumber(job.done)} von ${formatNumber(job.total)}${failed}`;
}

/** The run's message; 'working ...' while it runs (spec 001 §8). */
export const jobMessage = (job: Pick<JobState, "status" | "message">) => job.message ?? (isActive(job) ? WORKING_MESSAGE : "");

/** 'Jahresbeiträge 2027', 'Rechnungen schreiben': the run's kind, with the year it was for. */
export function jobTitle(job: { type: string; year: number | null }): string {
  const label = JOB_TYPE_LABELS[job.type as JobType] ?? job.type;
  return job.type === "ANNUAL_FEES" && job.year !== null ? `${label} ${job.year}` : label;
}

/** A run that made no progress for this long may have lost its messages (e.g. the app was
 *  stopped while it ran): its open slices are sent again, by the cron on its own (every five
 *  minutes) or by 'Lauf fortsetzen'. */
const STALLED_AFTER_MS = 2 * 60_000;

type StallState = { status: JobStatus; startedOn: string | null; lastProgressOn: string | null; resumedOn?: string | null };

/** The run's last sign of life: its start, its last settled slice or its last resumption. */
function lastSignOf(job: StallState): number | null {
  const times = [job.lastProgressOn ?? job.startedOn, job.resumedOn ?? null].filter((time): time is string => time !== null);
  return times.length === 0 ? null : Math.max(...times.map((time) => new Date(time).getTime()));
}

export function isStalled(job: StallState, now = new Date()): boolean {
  const last = lastSignOf(job);
  return isActive(job) && last !== null && now.getTime() - last >= STALLED_AFTER_MS;
}

/** Who resumes a run on their own (the cron, or the refused start of a second run): no person. */
export const AUTOMATIC_RESUME = null;

/**
 * 'Automatisch fortgesetzt am 27.11.2026, 09:05 …': what the run card says of a run whose open
 * slices were sent again, or null for a run never resumed.
 */
export function resumedText(job: { resumedOn: string | null; resumedBy: string | null; resumes: number }): string | null {
  if (!job.resumedOn) return null;
  const times = job.resumes > 1 ? ` (${formatNumber(job.resumes)}-mal)` : "";
  const when = formatDateTime(job.resumedOn);
  return job.resumedBy === null
    ? `Der Lauf kam nicht voran und wurde am ${when} automatisch fortgesetzt${times}: Es wird nur erledigt, was noch fehlte.`
    : `Der Lauf kam nicht voran und wurde am ${when} von ${job.resumedBy} fortgesetzt${times}: Es wird nur erledigt, was noch fehlte.`;
}
