/**
 * Starting a bulk run: the jobs row first (one run of a kind at a time), then its slices as queue
 * messages. If the queue refuses them, the run is marked failed at once instead of waiting
 * forever. A run that stalled (its messages lost, e.g. the app stopped while it ran) can send its
 * unsettled slices again: slices are idempotent, so nothing is done twice.
 */
import type { Db } from "~/db/client.server";
import type { DialogActionContext, DialogOutcome } from "~/dialogs/define.server";
import { formatCount } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { AUTOMATIC_RESUME, isActive, isStalled, WORKING_MESSAGE } from "~/lib/jobs";
import type { Actor } from "~/models/audit.server";
import {
  activeJobOfType,
  activeJobs,
  ALREADY_RUNNING,
  createJob,
  failJob,
  getJob,
  lastProgressOf,
  markResumed,
  unsettledSlices,
  type JobRecord,
  type JobType,
} from "~/models/jobs.server";
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

export type StartOutcome =
  | { status: "started"; job: JobRecord }
  | { status: "running"; /** The run under way had stalled and was resumed on this start. */ resumed?: boolean }
  | { status: "failed"; message: string };

/** A second start while the run under way had stalled: that run is resumed instead. */
export const STALLED_RUN_RESUMED = "Der letzte Lauf dieser Aufgabe kam nicht voran und wurde eben automatisch fortgesetzt. Bitte warten, bis er fertig ist.";

export async function startRun(
  env: Pick<Env, "JOBS">,
  db: Db,
  run: { type: JobType; items: readonly number[]; params: unknown; emptyMessage: string; startMessage?: string },
  actor: Actor,
): Promise<StartOutcome> {
  const created = await createJob(db, run, actor);
  if (created.status === "running") {
    // The run under way may have lost its messages: it is resumed instead of blocking every new run.
    const active = await activeJobOfType(db, run.type);
    if (active && isStalled(active)) {
      const resumed = await resumeRun(env, db, active.id, AUTOMATIC_RESUME);
      return { status: "running", resumed: resumed.status === "resumed" };
    }
    return created;
  }
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
  if (outcome.status === "running") return { status: "refused", message: outcome.resumed ? STALLED_RUN_RESUMED : ALREADY_RUNNING };
  if (outcome.status === "failed") return { status: "refused", message: outcome.message };
  const { job } = outcome;
  if (job.status === "DONE") return { status: "done", message: job.message ?? label };
  return { status: "done", message: plan.startedMessage ?? `${label} gestartet: ${startMessage ?? WORKING_MESSAGE}` };
}

export type ResumeOutcome = { status: "resumed"; slices: number } | { status: "refused"; message: string } | { status: "missing" };

/**
 * Sends the unsettled slices of a stalled run again, and notes it on the run (`by`: the user's
 * name, or AUTOMATIC_RESUME). Slices are idempotent, so a slice that was only slow is done once.
 */
async function resumeRun(env: Pick<Env, "JOBS">, db: Db, jobId: number, by: string | null, now = new Date()): Promise<ResumeOutcome> {
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
  await markResumed(db, job.id, by, now);
  return { status: "resumed", slices: open.length };
}

/**
 * The cron's look at the runs under way (every five minutes, wrangler.toml [triggers]): each
 * stalled one (no progress for a few minutes: its worker was killed, its messages lost) is
 * resumed without a person. Returns the ids of the runs resumed.
 */
export async function resumeStalledRuns(env: Pick<Env, "JOBS">, db: Db, now = new Date()): Promise<number[]> {
  const resumed: number[] = [];
  for (const job of await activeJobs(db)) {
    if (!isStalled(job, now)) continue;
    const outcome = await resumeRun(env, db, job.id, AUTOMATIC_RESUME, now);
    if (outcome.status === "resumed") resumed.push(job.id);
    else if (outcome.status === "refused") console.error("Lauf konnte nicht automatisch fortgesetzt werden", job.id, outcome.message);
  }
  return resumed;
}

/**
 * The dialog action 'Lauf fortsetzen' of the dialog that starts `kinds` (`resume` in its actions):
 * the kit has checked the dialog's area, so whoever may start a run may resume it, and nobody
 * else (a run of another kind posted here is not found).
 */
export function resumeAction(...kinds: RunKind[]) {
  return async ({ db, form, env, user }: DialogActionContext): Promise<DialogOutcome> => {
    const id = parseId(form.get("id"));
    const job = id ? await getJob(db, id) : undefined;
    if (!job || !kinds.some((kind) => kind.type === job.type)) return { status: "missing" };
    const outcome = await resumeRun(env, db, job.id, user.name);
    if (outcome.status !== "resumed") return outcome;
    return { status: "done", message: `Lauf fortgesetzt: ${formatCount(outcome.slices, "Teil", "Teile")} wieder in die Warteschlange gestellt` };
  };
}
