/**
 * The Lastschriftlauf's items (people) with their effects outside D1 (issue 31 item 1): first the
 * person's collections (one D1 batch, idempotent: directDebitSliceStatements), then their
 * pre-notification, before the run's file is written (the file comes when every item is settled).
 * By mail (the template 'Vorabankündigung Lastschrift', claimed in the mail log once per run and
 * person, kind DEBIT_NOTICE: a retried message never mails twice), or, for a person without an
 * e-mail address, as a letter in the run's print PDF. A mail that cannot go out (no template, the
 * server refusing, an earlier attempt never confirmed) falls back to the letter, with the reason:
 * a collection is never made without its notice. The notice is recorded once per run and person.
 */
import type { Db } from "~/db/client.server";
import { debitNoticeData, debitNoticeMailVariables, debitNoticePrintKey, type DebitNoticeSource } from "~/lib/debit-notice";
import type { Download } from "~/lib/download";
import { MAIL_TEMPLATES } from "~/lib/mail";
import { renderHtmlTemplate } from "~/lib/templates";
import { getConfiguration, type ConfigurationRecord } from "~/models/configuration.server";
import {
  collectFromPerson,
  debitNoticesOfRun,
  hasDebitNotice,
  paramsOfDirectDebitJob,
  recordDebitNotice,
  type DebitNoticeRecord,
} from "~/models/direct-debits.server";
import { getTemplateByName } from "~/models/templates.server";
import { composeMail, loadTemplate, mailOncePerRun, mailSettingsOf, messageOf, type MailSettings } from "./mails.server";
import { ItemFailure, type ItemContext } from "./item";
import { runPrintPdf } from "./letters.server";

/** What the notice says, with the club's address and creditor id. */
const noticeSource = (notice: DebitNoticeRecord, club: ConfigurationRecord | undefined, date: string): DebitNoticeSource & { personId: number } => ({
  ...notice,
  date,
  club: club ?? null,
  creditorId: club?.creditorId ?? "",
});

/** One person of a Lastschriftlauf: their collections written, then their notice sent (see above). */
export async function performDirectDebitItem(context: ItemContext, personId: number): Promise<void> {
  const { env, db, job, now, batch } = context;
  const params = paramsOfDirectDebitJob(job);
  await collectFromPerson(db, job, personId, now);
  if (await hasDebitNotice(db, job.id, personId)) return;
  const [notice] = await debitNoticesOfRun(db, job.id, { personId });
  // Nothing collected from them (paid or stopped meanwhile): nothing to announce.
  if (!notice) return;
  const email = notice.email?.trim() ?? "";
  if (!email) return recordDebitNotice(db, { runId: job.id, personId, channel: "PRINT" }, now);
  // Read once per queue batch: the club's creditor id and the mail settings come from the same row.
  const club = await batch.get("configuration", async () => ({ value: await getConfiguration(db), dispose: async () => {} }));
  const problem = await mailNotice(context, noticeSource(notice, club, params.date), mailSettingsOf(env, club), email);
  await recordDebitNotice(db, { runId: job.id, personId, channel: problem ? "PRINT" : "MAIL", mailProblem: problem }, now);
}

/** Sends the person's notice by mail; null when it went out, else why not (then it is printed). */
async function mailNotice(
  context: ItemContext,
  notice: DebitNoticeSource & { personId: number },
  settings: MailSettings,
  email: string,
): Promise<string | null> {
  const { env, db, now } = context;
  try {
    const template = await loadTemplate(db, MAIL_TEMPLATES.debitNotice);
    const person = { id: notice.personId, ...notice.person, email };
    const extra = debitNoticeMailVariables(notice);
    const { rendered, route } = composeMail(env, settings, template, { person, now, extra });
    if (route.status === "blocked") return route.message;
    const log = { kind: "DEBIT_NOTICE", personId: notice.personId } as const;
    const status = await mailOncePerRun(context, log, { to: route.to, cc: null, intendedTo: email, ...rendered, attachments: [] });
    // Claimed before and never confirmed: it may have gone out, but that is not known.
    return status === "unconfirmed" ? "Mail nicht bestätigt" : null;
  } catch (error) {
    return `Mail fehlgeschlagen: ${messageOf(error)}`.slice(0, 200);
  }
}

const NO_LETTERS = "In diesem Lastschriftlauf gibt es keine Vorabankündigung zum Drucken.";

/** The run's print PDF: every notice that goes by post (no e-mail address, or its mail failed), one letter per person (runPrintPdf). */
export function debitNoticePrintPdf(env: Env, db: Db, runId: number): Promise<Download> {
  const run = { type: "DIRECT_DEBIT", name: "Lastschriftlauf", key: debitNoticePrintKey(runId), title: "Vorabankündigungen zum Drucken" } as const;
  return runPrintPdf(env, db, runId, run, async (job) => {
    const notices = await debitNoticesOfRun(db, runId, { channel: "PRINT" });
    if (notices.length === 0) return { status: "missing", message: NO_LETTERS };
    const template = await getTemplateByName(db, MAIL_TEMPLATES.debitNoticeLetter);
    if (!template) throw new ItemFailure(`Die Briefvorlage „${MAIL_TEMPLATES.debitNoticeLetter}“ gibt es nicht. Bitte unter Vorlagen anlegen.`);
    const club = await getConfiguration(db);
    const date = paramsOfDirectDebitJob(job).date;
    return notices.map((notice) => renderHtmlTemplate(template.html, debitNoticeData(noticeSource(notice, club, date))));
  });
}
