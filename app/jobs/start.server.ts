/**
 * Starting a bulk run: the jobs row first (one run of a kind at a time), then its slices as queue
 * messages. If the queue refuses them, the run is marked failed at once instead of waiting forever.
 */
import type { Db } from "~/db/client.server";
import type { Actor } from "~/models/audit.server";
import { createJob, failJob, type JobRecord, type JobType } from "~/models/jobs.server";
import type { JobMessage } from "./messages";
import { RUN_KINDS } from "./runs.server";

/** Queues take at most 100 messages per sendBatch. */
const SEND_BATCH_LIMIT = 100;

export type StartOutcome = { status: "started"; job: JobRecord } | { status: "running" } | { status: "failed"; message: string };

export async function startRun(
  env: Pick<Env, "JOBS">,
  db: Db,
  run: { type: JobType; items: readonly number[]; params: unknown; emptyMessage: string },
  actor: Actor,
): Promise<StartOutcome> {
  const created = await createJob(db, { type: run.type, total: run.items.length, params: run.params, emptyMessage: run.emptyMessage }, actor);
  if (created.status === "running") return created;
  const { job } = created;
  const { sliceSize } = RUN_KINDS[run.type];
  const messages: { body: JobMessage }[] = [];
  for (let start = 0; start < run.items.length; start += sliceSize) {
    messages.push({ body: { type: "slice", jobId: job.id, slice: start / sliceSize, items: run.items.slice(start, start + sliceSize) } });
  }
  try {
    for (let start = 0; start < messages.length; start += SEND_BATCH_LIMIT) {
      await env.JOBS.sendBatch(messages.slice(start, start + SEND_BATCH_LIMIT));
    }
  } catch (error) {
    console.error("Job konnte nicht in die Warteschlange gestellt werden", job.id, error);
    const message = "Die Aufgabe konnte nicht gestartet werden: Die Warteschlange ist nicht erreichbar. Bitte später noch einmal versuchen.";
    await failJob(db, job.id, message);
    return { status: "failed", message };
  }
  return { status: "started", job };
}
