import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import worker from "../../workers/app";
import { desc, eq } from "drizzle-orm";
import { expect, vi } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { startRun } from "~/jobs/start.server";
import { addDaysToDate, todayInBerlin } from "~/lib/format";
import { peopleToBill, type InvoiceRunParams } from "~/models/invoice-runs.server";
import { DEMO_USERS } from "./sessions";

export type Sent = { body: unknown }[];

/** The run started last. */
export const newestJob = async () => (await createDb(env.DB).select().from(schema.jobs).orderBy(desc(schema.jobs.id)).limit(1))[0];

/** Waits until the queue consumer in the background has settled the run (done or failed, with its message). */
export async function settled(jobId: number) {
  const db = createDb(env.DB);
  return vi.waitFor(
    async () => {
      const [job] = await db.select().from(schema.jobs).where(eq(schema.jobs.id, jobId));
      expect(["DONE", "FAILED"], `Lauf ${jobId}: ${job.status} ${job.done}/${job.total}`).toContain(job.status);
      expect(job.message).toBeTruthy();
      return job;
    },
    { timeout: 30_000, interval: 100 },
  );
}

/**
 * An invoicing run whose messages the test delivers itself: the queue binding given to the start
 * only collects them, so the test decides when, how often and in which order they arrive.
 */
export async function startControlledInvoiceRun(today = todayInBerlin(), draftsOnly = false): Promise<{ jobId: number; messages: Sent }> {
  const db = createDb(env.DB);
  const messages: Sent = [];
  const collecting = { JOBS: { sendBatch: async (batch: Sent) => void messages.push(...batch) } } as unknown as Pick<Env, "JOBS">;
  const params: InvoiceRunParams = { date: today, dueDate: addDaysToDate(today, 30), draftsOnly };
  const outcome = await startRun(
    collecting,
    db,
    { type: "INVOICES", items: await peopleToBill(db), params, emptyMessage: "Keine Offenen Posten zu berechnen" },
    DEMO_USERS.admin,
  );
  if (outcome.status !== "started") throw new Error(`Lauf nicht gestartet: ${outcome.status}`);
  return { jobId: outcome.job.id, messages };
}

let deliveries = 0;

/** Hands messages to the Worker's queue handler as one batch; says which it retried (by index).
 *  `withEnv`: the worker's bindings as the handler sees them (e.g. a mail server that is down). */
export async function deliver(messages: Sent, queue = "wuff-jobs", withEnv: Env = env) {
  const ids = messages.map(() => `m${++deliveries}`);
  const batch = createMessageBatch(
    queue,
    messages.map((message, index) => ({ id: ids[index], timestamp: new Date(), attempts: 1, body: message.body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, withEnv);
  const result = await getQueueResult(batch, ctx);
  return {
    retried: result.retryMessages.map((retry: { msgId: string }) => ids.indexOf(retry.msgId)),
    acked: result.explicitAcks.map((id: string) => ids.indexOf(id)),
  };
}
