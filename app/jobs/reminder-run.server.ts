/**
 * The Mahnlauf's items (people) with their effects outside D1 (issue 17, step 3): first the
 * person's reminders and fees (one D1 batch, idempotent: reminderSliceStatements), then their ONE
 * letter as a PDF in R2 (the level's letter template through the invoice PDF machinery), then by
 * channel: MAIL sends the level's mail with the letter attached (claimed in the mail log once per
 * run and person, kind REMINDER: a retried message never mails twice), PRINT only keeps
 * the letter for the run's print PDF. Reminded fees get their Mollie payment link in the letter
 * and the mail (withPaymentLinks). Either way the reminders are marked SENT with the letter's key.
 * An item paid before sending is not in the letter and its reminder is cancelled with its fee
 * in the same batch; a person left with nothing gets no letter (their reminders are cancelled).
 */
import type { Download } from "~/lib/download";
import { NO_EMAIL } from "~/lib/mail";
import { reminderLetterData, reminderLetterKey, reminderMailVariables, reminderPrintKey } from "~/lib/reminder-letter";
import { renderHtmlTemplate } from "~/lib/templates";
import type { Db } from "~/db/client.server";
import { clearFailure, getJob, recordFailure } from "~/models/jobs.server";
import { getReminder, reminderLetterKeyOf, type ReminderRow } from "~/models/reminders.server";
import {
  markRemindersSent,
  paidPendingReminders,
  reminderLetters,
  reminderParamsOf,
  writeReminders,
  type ReminderLetter,
  type ReminderRunParams,
} from "~/models/reminder-runs.server";
import { getTemplateByName } from "~/models/templates.server";
import { paymentLinkForFee, paymentLinksRefusal } from "~/services/payments.server";
import { PdfRenderer } from "~/services/pdf.server";
import { BatchResources } from "./batch-resources.server";
import { letterPdf, runPrintPdf } from "./letters.server";
import { failureReason, ItemFailure, type ItemContext } from "./item";
import { composeMail, loadTemplate, mailOncePerRun, mailSettings, MailProblem, messageOf, type MailSettings } from "./mails.server";

const RENDERER = "pdf-renderer";

const letterTemplateMissing = (name: string) => `Die Briefvorlage „${name}“ gibt es nicht. Bitte unter Vorlagen anlegen.`;

/** The letter's HTML: the letter template of its highest level, filled in. */
async function letterHtml(db: Db, params: ReminderRunParams, letter: ReminderLetter, settings: MailSettings): Promise<string> {
  const name = params.levels.find((level) => level.level === letter.level)?.letterTemplate ?? "";
  const template = await getTemplateByName(db, name);
  if (!template) throw new ItemFailure(letterTemplateMissing(name));
  return renderHtmlTemplate(template.html, reminderLetterData({ ...letter, club: settings.bank ?? null }));
}

/** The letter without payment links (Mollie off): the same letter the run makes without them. */
const withoutPaymentLinks = (letter: ReminderLetter): ReminderLetter => ({ ...letter, items: letter.items.map((item) => ({ ...item, paymentLink: null })) });

/**
 * The letter with the payment links of its reminded fees (Mollie, issue 17: 'where Mollie is on, a
 * payment link'): each fee's link for its open amount, by the fee's payment-link machinery
 * (paymentLinkForFee: the stored link while it fits, else one made with an Idempotency-Key and
 * stored on the fee, so a retried message gets the same link). Invoices have no payment links.
 * Without Mollie ('Mollie Integration' off or no key) none; Mollie failing fails the person (retried).
 */
async function withPaymentLinks(env: Env, db: Db, letter: ReminderLetter): Promise<ReminderLetter> {
  if (await paymentLinksRefusal(db, env)) return withoutPaymentLinks(letter);
  const items: ReminderLetter["items"] = [];
  for (const item of letter.items) {
    if (item.targetType !== "FEE") {
      items.push({ ...item, paymentLink: null });
      continue;
    }
    const outcome = await paymentLinkForFee({ db, env }, item.targetId);
    if (outcome.status === "failed") throw new ItemFailure(`Der Zahlungslink konnte nicht erzeugt werden: ${outcome.message}`.slice(0, 200));
    items.push({ ...item, paymentLink: outcome.status === "ok" ? outcome.link.url : null });
  }
  return { ...letter, items };
}

/**
 * One person of a Mahnlauf: their letter written, stored and sent (see above). `print`: the letter
 * goes by post whatever its channel (a mail that failed, printed instead by staff).
 */
export async function performReminderItem(context: ItemContext, personId: number, { print = false } = {}): Promise<void> {
  const { env, db, job, actor, now, batch } = context;
  const params = reminderParamsOf(job);
  await writeReminders(db, job.id, [personId], params, actor, now);
  const [found] = await reminderLetters(db, params, { jobId: job.id, status: "PENDING", personId });
  // Reminded items paid (or deleted) since: cancelled with their fee when the letter is marked sent.
  const paidIds = await paidPendingReminders(db, job.id, personId);
  if (!found) {
    await markRemindersSent(db, { jobId: job.id, personId, reminderIds: [], channel: "PRINT", pdfKey: null, paidIds }, actor, now);
    return;
  }
  const letter = await withPaymentLinks(env, db, found);
  const settings = await batch.get("settings", async () => ({ value: await mailSettings(env, db), dispose: async () => {} }));
  const html = await letterHtml(db, params, letter, settings);
  const key = reminderLetterKey(job.id, personId, letter.person.lastName);
  const renderer = () =>
    batch.get(RENDERER, async () => {
      const opened = await PdfRenderer.open(env);
      return { value: opened, dispose: () => opened.close() };
    });
  let pdf: Uint8Array;
  try {
    pdf = await letterPdf(env, key, html, renderer, key);
  } catch (error) {
    // A browser that failed may be broken: the next person opens a new one.
    await batch.discard(RENDERER);
    throw error;
  }
  const sent = { jobId: job.id, personId, reminderIds: letter.items.map((item) => item.reminderId), pdfKey: key, paidIds };
  const email = letter.email?.trim() ?? "";
  if (print || letter.channel === "PRINT" || !email) {
    if (!print && letter.channel === "MAIL") throw new ItemFailure(NO_EMAIL);
    await markRemindersSent(db, { ...sent, channel: "PRINT" }, actor, now);
    return;
  }
  try {
    const mailTemplateName = params.levels.find((level) => level.level === letter.level)?.mailTemplate ?? "";
    const template = await loadTemplate(db, mailTemplateName);
    const person = {
      id: personId,
      salutation: letter.person.salutation,
      title: letter.person.title,
      firstName: letter.person.firstName,
      lastName: letter.person.lastName,
      email,
    };
    const { rendered, route } = composeMail(env, settings, template, { person, now, extra: reminderMailVariables(letter) });
    if (route.status === "blocked") throw new ItemFailure(route.message);
    const attachments = [{ filename: key, content: pdf, mimeType: "application/pdf" }];
    // Once per run and person (kind REMINDER): a retried message never mails twice. Claimed before
    // and never confirmed: it may have gone out; not sent again, stays PENDING.
    const log = { kind: "REMINDER", personId, attachments: [key] } as const;
    const status = await mailOncePerRun(context, log, { to: route.to, cc: null, intendedTo: email, ...rendered, attachments });
    if (status === "unconfirmed") return;
    await markRemindersSent(db, { ...sent, channel: "MAIL" }, actor, now);
  } catch (error) {
    if (error instanceof ItemFailure) throw error;
    throw new ItemFailure(error instanceof MailProblem ? error.message : `Mailserver: ${messageOf(error)}`.slice(0, 200));
  }
}

const NO_PRINT_LETTERS = "In diesem Mahnlauf gibt es keine Mahnung zum Drucken.";

/** The Mahnlauf's print PDF: every letter of its PRINT reminders (runPrintPdf). */
export function reminderPrintPdf(env: Env, db: Db, jobId: number): Promise<Download> {
  return runPrintPdf(env, db, jobId, { type: "REMINDERS", name: "Mahnlauf", key: reminderPrintKey(jobId), title: "Mahnungen zum Drucken" }, async (job) => {
    const params = reminderParamsOf(job);
    const sentLetters = await reminderLetters(db, params, { jobId, status: "SENT", channel: "PRINT" });
    if (sentLetters.length === 0) return { status: "missing", message: NO_PRINT_LETTERS };
    // The links the run made (stored on the fees, while they fit what is open); none without Mollie.
    const noLinks = (await paymentLinksRefusal(db, env)) !== null;
    const letters = noLinks ? sentLetters.map(withoutPaymentLinks) : sentLetters;
    const settings = await mailSettings(env, db);
    return Promise.all(letters.map((letter) => letterHtml(db, params, letter, settings)));
  });
}

export type FailedReminderOutcome = { status: "sent"; reminder: ReminderRow } | { status: "refused"; message: string } | { status: "missing" };

export const REMINDER_NOT_FAILED = "Diese Mahnung ist nicht mit fehlgeschlagenem Versand offen: Sie bleibt, wie sie ist.";
const MAIL_UNCONFIRMED =
  "Die Mail dieser Mahnung wurde schon einmal an den Mailserver übergeben, aber nie bestätigt: Sie wird nicht noch einmal gesendet. Bitte als Brief drucken oder im Mail-Protokoll prüfen.";

/**
 * 'Erneut senden' or 'Als Brief drucken' for a reminder whose mail failed (issue 31 item 6): the
 * person's item of its run done again, now, by the user, as the run would (the same letter, the
 * mail claimed once per run and person: a mail the server refused is sent again, one never
 * confirmed is not). Done, the run's record of the failure goes.
 */
export async function retryFailedReminder(
  env: Env,
  db: Db,
  reminderId: number,
  how: "mail" | "print",
  actor: { name: string },
  now = new Date(),
): Promise<FailedReminderOutcome> {
  const reminder = await getReminder(db, reminderId);
  if (!reminder) return { status: "missing" };
  if (reminder.status !== "FAILED" || reminder.jobId === null) return { status: "refused", message: REMINDER_NOT_FAILED };
  const job = await getJob(db, reminder.jobId);
  if (!job) return { status: "missing" };
  const batch = new BatchResources();
  try {
    await performReminderItem({ env, db, job, actor, now, batch }, reminder.personId, { print: how === "print" });
  } catch (error) {
    // As the run records an item's failure.
    const message = failureReason(error);
    await recordFailure(db, job.id, reminder.personId, message, now);
    return { status: "refused", message };
  } finally {
    await batch.disposeAll();
  }
  const after = await getReminder(db, reminderId);
  if (after?.status === "FAILED") return { status: "refused", message: MAIL_UNCONFIRMED };
  await clearFailure(db, job.id, reminder.personId);
  return { status: "sent", reminder };
}

/** The stored letter of one reminder (the same PDF for every reminder of the letter). */
export async function reminderLetterPdf(env: Env, db: Db, reminderId: number): Promise<Download> {
  const key = await reminderLetterKeyOf(db, reminderId);
  if (key === undefined) return { status: "missing", message: "Diese Mahnung gibt es nicht." };
  const stored = key ? await env.INVOICES.get(key) : null;
  if (!stored) return { status: "missing", message: "Zu dieser Mahnung ist kein Brief gespeichert." };
  return { status: "found", body: stored.body, fileName: key!, contentType: "application/pdf", size: stored.size, disposition: "inline" };
}
