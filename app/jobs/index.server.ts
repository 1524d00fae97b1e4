import { createDb } from "~/db/client.server";
import { deleteExpiredSessions } from "~/models/session.server";
import { jobMessageSchema, type JobMessage } from "./messages";

export const DEAD_LETTER_QUEUE = "wuff-jobs-dlq";

type Handler<T extends JobMessage["type"]> = (
  message: Extract<JobMessage, { type: T }>,
  env: Env,
) => Promise<void>;

const handlers: { [T in JobMessage["type"]]: Handler<T> } = {
  "health-probe": async () => {},
};

async function runJobMessage(message: JobMessage, env: Env): Promise<void> {
  const handler = handlers[message.type] as Handler<typeof message.type>;
  await handler(message, env);
}

/**
 * Queue consumer for JOBS and its dead-letter queue. Each message is settled on its own: locally a
 * thrown batch retries every message, even those already acked (see TOOLCHAIN.md).
 */
export async function handleQueueBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = jobMessageSchema.safeParse(message.body);
    if (!parsed.success) {
      // A malformed message never becomes valid: drop it instead of retrying it forever.
      console.error("Unbekannte Job-Nachricht verworfen", message.id, parsed.error.issues);
      message.ack();
      continue;
    }
    if (batch.queue === DEAD_LETTER_QUEUE) {
      console.error("Job-Nachricht nach allen Wiederholungen fehlgeschlagen", parsed.data);
      message.ack();
      continue;
    }
    try {
      await runJobMessage(parsed.data, env);
      message.ack();
    } catch (error) {
      console.error("Job-Nachricht fehlgeschlagen, wird wiederholt", parsed.data.type, error);
      message.retry();
    }
  }
}

/**
 * Cron triggers (wrangler.toml [triggers]), daily: housekeeping of login sessions past their
 * lifetime. Birthday mails join this cron with their capability.
 */
export async function handleScheduled(controller: ScheduledController, env: Env): Promise<void> {
  const now = new Date(controller.scheduledTime);
  await deleteExpiredSessions(createDb(env.DB), now);
  console.info("Täglicher Cron erledigt: abgelaufene Sitzungen entfernt", controller.cron, now.toISOString());
}
