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
 * Cron triggers (wrangler.toml [triggers]). The daily cron is where birthday mails will start;
 * until that capability exists the trigger is acknowledged and logged.
 */
export async function handleScheduled(controller: ScheduledController, _env: Env): Promise<void> {
  console.info("Cron-Trigger ohne zugeordneten Job", controller.cron, new Date(controller.scheduledTime).toISOString());
}
