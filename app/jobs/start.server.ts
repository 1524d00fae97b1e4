/**
 * Starting a bulk run: the jobs row first (one run of a kind at a time), then its slices as queue
 * messages. If the queue refuses them, the run is marked failed at once instead of waiting
 * forever. A run that stalled (its messages lost, e.g. the app stopped while it ran) can send its
 * unsettled slices again: slices are idempotent, so nothing is done twice.
 */
import type { Db } from "~/db/client.server";
import { isActive, isStalled, WORKING_MESSAGE } from "~/lib/jobs";
import type { Actor } from "~/models/audit.server";
import { ALREADY_RUNNING, createJob, failJob, getJob, lastProgressOf, unsettledSlices, type JobRecord, type JobType } from "~/models/jobs.server";
import type { PlanContext, RunKind } from "~/runs/declare.server";
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

/**
 * A run's confirmation posted: the declared plan, then the start; what the toast says (the same
 * for every kind: '{label} gestartet: …', or the message of a run that had nothing to do).
 */
export async function startDeclaredRun(
  kind: RunKind,
  context: PlanContext,
): Promise<{ status: "done"; message: string } | { status: "refused"; message: string }> {
  const plan = await kind.plan(context);
  if ("refused" in plan) return { status: "refused", message: plan.refused };
  const { items, params, emptyMessage, startMessage, label } = plan;
  const outcome = await startRun(context.env, context.db, { type: kind.type, items, params, emptyMessage, startMessage }, context.user);
  if (outcome.status === "running") return { status: "refused", message: ALREADY_RUNNING };
  if (outcome.status === "failed") return { status: "refused", message: outcome.message };
  const { job } = outcome;
  if (job.status === "DONE") return { status: "done", message: job.message ?? label };
  return { status: "done", message: plan.startedMessage ?? `${label} gestartet: ${startMessage ?? WORKING_MESSAGE}` };
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
