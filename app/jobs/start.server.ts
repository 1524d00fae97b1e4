/**
 * Starting a bulk run: the jobs row first (one run of a kind at a time), then its slices as queue
 * messages. If the queue refuses them, the run is marked failed at once instead of waiting
 * forever. A run that stalled (its messages lost, e.g. the app stopped while it ran) can send its
 * unsettled slices again: slices are idempotent, so nothing is done twice.
 */
import type { Db } from "~/db/client.server";
import { isActive, isStalled } from "~/lib/jobs";
import type { Actor } from "~/models/audit.server";
import { createJob, failJob, getJob, lastProgressOf, unsettledSlices, type JobRecord, type JobType } from "~/models/jobs.server";
import type { JobMessage } from "./messages";
import { RUN_KINDS, runKindOf } from "./runs.server";

/** Queues take at most 100 messages per sendBatch. */
const SEND_BATCH_LIMIT = 100;

const QUEUE_UNREACHABLE = "Die Warteschlange ist nicht erreichbar. Bitte später noch einmal versuchen.";

async function send(env: Pick<Env, "JOBS">, jobId: number, slices: { slice: number; items: number[] }[]) {
  const messages: { body: JobMessage }[] = slices.map(({ slice, items }) => ({ body: { type: "slice", jobId, slice, items } }));
  for (let start = 0; start < messages.length; start += SEND_BATCH_LIMIT) {
    await env.JOBS.sendBatch(messages.slice(start, start + SEND_BATCH_LIMIT));
  }
}

export type StartOutcome = { status: "started"; job: JobRecord } | { status: "running" } | { status: "failed"; message: string };

export async function startRun(
  env: Pick<Env, "JOBS">,
  db: Db,
  run: { type: JobType; items: readonly number[]; params: unknown; emptyMessage: string; startMessage?: string },
  actor: Actor,
): Promise<StartOutcome> {
  const created = await createJob(db, run, actor);
  if (created.status === "running") return created;
  const { job } = created;
  try {
    await send(env, job.id, await unsettledSlices(db, job, RUN_KINDS[run.type].sliceSize));
  } catch (error) {
    console.error("Job konnte nicht in die Warteschlange gestellt werden", job.id, error);
    const message = `Die Aufgabe konnte nicht gestartet werden: ${QUEUE_UNREACHABLE}`;
    await failJob(db, job.id, message);
    return { status: "failed", message };
  }
  return { status: "started", job };
}

export type ResumeOutcome = { status: "resumed"; slices: number } | { status: "refused"; message: string } | { status: "missing" };

/** Sends the unsettled slices of a stalled run again. */
export async function resumeRun(env: Pick<Env, "JOBS">, db: Db, jobId: number, now = new Date()): Promise<ResumeOutcome> {
  const job = await getJob(db, jobId);
  const kind = job && runKindOf(job);
  if (!job || !kind) return { status: "missing" };
  if (!isActive(job)) return { status: "refused", message: "Dieser Lauf ist schon beendet." };
  if (!isStalled({ ...job, lastProgressOn: await lastProgressOf(db, jobId) }, now))
    return { status: "refused", message: "Dieser Lauf kommt noch voran. Bitte warten." };
  const open = await unsettledSlices(db, job, kind.sliceSize);
  try {
    await send(env, job.id, open);
  } catch (error) {
    console.error("Job konnte nicht fortgesetzt werden", job.id, error);
    return { status: "refused", message: `Der Lauf konnte nicht fortgesetzt werden: ${QUEUE_UNREACHABLE}` };
  }
  return { status: "resumed", slices: open.length };
}
