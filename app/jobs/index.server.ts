import { runWaitlists } from "~/services/waitlist.server";
import { deleteExpiredApplications } from "~/models/membership-applications.server";
import { createDb, runAtomically, setWriteActor, setWriteSource } from "~/db/client.server";
import { finishWhenSettled, getJob, isSliceSettled, markRunning, recordFailure, settleSliceAsFailed, sliceSettledStatements } from "~/models/jobs.server";
import { deleteExpiredSessions } from "~/models/session.server";
import { deleteExpiredPortalRecords } from "~/models/portal-auth.server";
import { deleteExpiredDeclarations } from "~/models/withdrawal-declarations.server";
import { sendCardReminders } from "./card-reminders.server";
import { jobMessageSchema, type JobMessage, type SliceMessage } from "./messages";
import { BatchResources } from "./batch-resources.server";
import { sendBirthdayMails } from "./mails.server";
import { runKindOf } from "./runs.server";
import { resumeStalledRuns } from "./start.server";
import { failureReason } from "./item";
import { jobTitle } from "~/lib/jobs";
import { eraseExpiredRemains } from "~/models/gdpr.server";
import { hashStoredPdfs } from "~/services/invoice-pdfs.server";
import { storeMissingMandatePdfs } from "~/services/mandate-pdfs.server";
import { settleDueDebits } from "~/models/debit-settlements.server";
import { todayInBerlin } from "~/lib/format";

const DEAD_LETTER_QUEUE = "wuff-jobs-dlq";

/** Items of a slice that failed on their own: the message is retried by the queue. */
class SliceFailed extends Error {
  constructor(readonly failed: number[]) {
    super(`${failed.length} Einträge fehlgeschlagen`);
  }
}

/**
 * One slice of a bulk run: its work and its settlement in one batch. If the batch fails, each item
 * is tried on its own, so the others go through and the failing ones are recorded with the reason;
 * then the message is retried (SliceFailed). A settled slice (a redelivered message) does nothing.
 * A kind with effects outside D1 works item by item the same way and settles the slice after.
 */
async function runSlice(env: Env, message: SliceMessage, batch = new BatchResources(), now = new Date()): Promise<void> {
  const db = createDb(env.DB);
  const job = await getJob(db, message.jobId);
  const kind = job && runKindOf(job);
  // A run that is gone has nothing to resume.
  if (!job || !kind) return;
  const finish = () => finishWhenSettled(db, job.id, (settled) => kind.summarize(db, settled, env), kind.nameItems);
  if (await isSliceSettled(db, job.id, message.slice)) return finish();
  // The history names the run's starter, and the run as the way the change was made.
  setWriteActor(db, job.createdBy);
  setWriteSource(db, `Massenlauf: ${jobTitle({ type: job.type, year: null })}`);
  if (job.status === "QUEUED") await markRunning(db, job.id);
  const actor = { name: job.createdBy };
  const { statements, perform } = kind;
  const failed: number[] = [];
  const tryEach = async (work: (item: number) => Promise<unknown>, concurrency = 1) => {
    const queue = [...message.items];
    // `concurrency` workers take the next item until none is left (1: strictly one after the other).
    const worker = async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        try {
          await work(item);
        } catch (error) {
          failed.push(item);
          await recordFailure(db, job.id, item, failureReason(error), now);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, queue.length)) }, worker));
  };
  if (perform) {
    await tryEach((item) => perform({ env, db, job, actor, now, batch }, item), kind.concurrency);
  } else {
    try {
      await runAtomically(db, [...statements(job, message.items, actor, now), ...sliceSettledStatements(job.id, message.slice, message.items, now)]);
      return finish();
    } catch {
      await tryEach((item) => runAtomically(db, statements(job, [item], actor, now)));
    }
  }
  if (failed.length > 0) throw new SliceFailed(failed);
  await runAtomically(db, sliceSettledStatements(job.id, message.slice, message.items, now));
  await finish();
}

/** A slice whose message failed every retry: its failing items count as failed, the run finishes. */
export async function settleDeadSlice(env: Env, message: SliceMessage, now = new Date()): Promise<void> {
  const db = createDb(env.DB);
  const job = await getJob(db, message.jobId);
  const kind = job && runKindOf(job);
  if (!job || !kind) return;
  // A copy of a message whose slice went through after all: nothing failed.
  if (!(await isSliceSettled(db, job.id, message.slice))) {
    await settleSliceAsFailed(db, job.id, message.slice, message.items, "nach mehreren Versuchen fehlgeschlagen", now);
  }
  await finishWhenSettled(db, job.id, (settled) => kind.summarize(db, settled, env), kind.nameItems);
}

async function runJobMessage(message: JobMessage, env: Env, batch: BatchResources): Promise<void> {
  switch (message.type) {
    case "health-probe":
      return;
    case "slice":
      return runSlice(env, message, batch);
  }
}

async function deadJobMessage(message: JobMessage, env: Env): Promise<void> {
  if (message.type === "slice") await settleDeadSlice(env, message);
}

/**
 * Queue consumer for JOBS and its dead-letter queue. Each message is settled on its own: locally a
 * thrown batch retries every message, even those already acked (see TOOLCHAIN.md).
 */
export async function handleQueueBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const resources = new BatchResources();
  try {
    await settleEach(batch, env, resources);
  } finally {
    await resources.disposeAll();
  }
}

async function settleEach(batch: MessageBatch<unknown>, env: Env, resources: BatchResources): Promise<void> {
  for (const message of batch.messages) {
    const parsed = jobMessageSchema.safeParse(message.body);
    if (!parsed.success) {
      // A malformed message never becomes valid: drop it instead of retrying it forever.
      console.error("Unbekannte Job-Nachricht verworfen", message.id, parsed.error.issues);
      message.ack();
      continue;
    }
    try {
      if (batch.queue === DEAD_LETTER_QUEUE) {
        console.error("Job-Nachricht nach allen Wiederholungen fehlgeschlagen", parsed.data);
        await deadJobMessage(parsed.data, env);
      } else {
        await runJobMessage(parsed.data, env, resources);
      }
      message.ack();
    } catch (error) {
      console.error("Job-Nachricht fehlgeschlagen, wird wiederholt", parsed.data.type, error);
      message.retry();
    }
  }
}

/** Who the mail log names as the sender of the cron's mails. */
const CRON_ACTOR = { name: "Cron" };

/** The cron trigger that looks for stalled bulk runs (wrangler.toml [triggers]); every other
 *  trigger (the daily one, `0 6 * * *`) also does the daily work. */
export const STALLED_RUNS_CRON = "*/5 * * * *";

/**
 * Cron triggers (wrangler.toml [triggers]). Every five minutes and daily: bulk runs that stalled
 * (no progress for a few minutes: the worker was killed, the messages lost) are resumed without a
 * person, and the waiting lists pass freed places on (lapsed offers end, new offers are mailed). Daily also: housekeeping of login sessions past their lifetime and of withdrawal declarations past their retention, today's birthday mails
 * (once per person and year, however often it fires), the reminders of 10er-Karten (once per card each), the SHA-256 of invoice PDFs stored before
 * issue 30, the PDFs of mandates given online whose rendering failed, and the retained bookkeeping remains of erased people whose retention period has
 * ended (GDPR).
 */
export async function handleScheduled(controller: ScheduledController, env: Env): Promise<void> {
  const now = new Date(controller.scheduledTime);
  const db = createDb(env.DB, undefined, CRON_ACTOR.name);
  try {
    const resumed = await resumeStalledRuns(env, db, now);
    if (resumed.length > 0) console.info("Stehengebliebene Läufe automatisch fortgesetzt:", resumed.join(", "));
  } catch (error) {
    console.error("Stehengebliebene Läufe prüfen fehlgeschlagen", error);
  }
  try {
    const waitlists = await runWaitlists(env, db, CRON_ACTOR, now);
    if (waitlists.lapsed + waitlists.offered + waitlists.failed > 0) console.info("Wartelisten:", waitlists);
  } catch (error) {
    console.error("Wartelisten fehlgeschlagen", error);
  }
  if (controller.cron === STALLED_RUNS_CRON) return;
  setWriteSource(db, "Täglicher Lauf");
  await deleteExpiredSessions(db, now);
  await deleteExpiredPortalRecords(db, now);
  await deleteExpiredDeclarations(db, now);
  await deleteExpiredApplications(db, now);
  try {
    const birthdays = await sendBirthdayMails(env, db, CRON_ACTOR, now);
    console.info("Geburtstagsmails:", birthdays.message);
  } catch (error) {
    console.error("Geburtstagsmails fehlgeschlagen", error);
  }
  try {
    const reminded = await sendCardReminders(env, db, CRON_ACTOR, now);
    if (reminded.sent + reminded.failed > 0) console.info("Erinnerungen zu Karten:", reminded);
  } catch (error) {
    console.error("Erinnerungen zu Karten fehlgeschlagen", error);
  }
  try {
    const settled = await settleDueDebits(db, todayInBerlin(now), CRON_ACTOR, now);
    if (settled > 0) console.info("Lastschriften als bezahlt gebucht (2 Bankarbeitstage nach dem Einzug):", settled);
  } catch (error) {
    console.error("Lastschriften als bezahlt buchen fehlgeschlagen", error);
  }
  try {
    const hashed = await hashStoredPdfs(env, db);
    if (hashed > 0) console.info("SHA-256 von Rechnungs-PDFs festgehalten:", hashed);
  } catch (error) {
    console.error("PDF-Prüfsummen fehlgeschlagen", error);
  }
  try {
    const mandates = await storeMissingMandatePdfs(env, db);
    if (mandates > 0) console.info("PDFs online erteilter Lastschriftmandate nachgeholt:", mandates);
  } catch (error) {
    console.error("PDFs von Lastschriftmandaten fehlgeschlagen", error);
  }
  try {
    const remains = await eraseExpiredRemains(env, db, now);
    console.info(
      "Aufbewahrung abgelaufen, gelöscht:",
      remains.paymentIds.length,
      "Buchungen im Zahlungsjournal,",
      remains.invoiceIds.length,
      "Rechnungen (und",
      remains.strippedInvoiceIds.length,
      "bis auf Nummer, Datum und Betrag),",
      remains.feeIds.length,
      "Posten,",
      remains.reminderIds.length,
      "Mahnungen,",
      remains.bankEntryIds.length,
      "Kontoauszug-Buchungen,",
      remains.debitItemIds.length,
      "Lastschriften,",
      remains.mandateIds.length,
      "Mandate,",
      remains.personIds.length,
      "Personen",
    );
  } catch (error) {
    console.error("Löschen abgelaufener Aufbewahrung fehlgeschlagen", error);
  }
  console.info("Täglicher Cron erledigt", controller.cron, now.toISOString());
}
