/**
 * A mailshot as a bulk run (job type MAILSHOT): one item per recipient (a person). Each item is
 * claimed in the mail log before it is sent (unique per run and person), so a retried queue
 * message never sends a mail twice: a mail already sent is skipped, one claimed but never
 * confirmed is not sent again and named in the run's message. One SMTP connection serves every
 * mail of a queue batch.
 */
import type { Db } from "~/db/client.server";
import { formatCount, joinGerman } from "~/lib/format";
import { NO_CONSENT, NO_EMAIL, NOTHING_TO_MAIL } from "~/lib/mail";
import { paramsOfJob, type JobRecord, type RunSummary } from "~/models/jobs.server";
import { mailshotRunCounts, personForConsentMail } from "~/models/mails.server";
import { invoiceToAttach } from "~/models/mailshots.server";
import type { Attachment } from "~/services/mail.server";
import { composeMail, documentAttachment, invoiceAttachment, loadTemplate, mailOncePerRun, mailSettings, MailProblem, messageOf } from "./mails.server";
import { ItemFailure, type ItemContext } from "./item";

/** The mailshot as it was when the run started (a later edit does not change the run's mails). */
export type MailshotRunParams = {
  mailshotId: number;
  name: string;
  templateName: string;
  subject: string;
  cc: string | null;
  attachInvoice: boolean;
  attachDocPaths: string[];
};

export const MAILSHOT_SLICE_SIZE = 20;

export async function performMailshotItem(context: ItemContext, personId: number): Promise<void> {
  const { env, db, job, batch } = context;
  const params = paramsOfJob<MailshotRunParams>(job);
  const found = await personForConsentMail(db, personId);
  if (!found) throw new ItemFailure("Person gibt es nicht mehr");
  const { person } = found;
  if (!person.email?.trim()) throw new ItemFailure(NO_EMAIL);
  // Consent withdrawn since the run started: no mail.
  if (!found.consent) throw new ItemFailure(NO_CONSENT);
  try {
    const settings = await batch.get(`settings`, async () => ({ value: await mailSettings(env, db), dispose: async () => {} }));
    const template = await batch.get(`template:${params.templateName}`, async () => ({
      value: await loadTemplate(db, params.templateName),
      dispose: async () => {},
    }));
    const invoice = params.attachInvoice ? await invoiceToAttach(db, personId) : undefined;
    if (params.attachInvoice && !invoice) throw new ItemFailure("keine Rechnung mit PDF");
    const { rendered, route, girocode } = composeMail(env, settings, { ...template, subject: params.subject }, { person, invoice, cc: params.cc });
    if (route.status === "blocked") throw new ItemFailure(route.message);
    const attachments: Attachment[] = [
      ...(invoice ? [await invoiceAttachment(env, invoice)] : []),
      ...(await Promise.all(
        params.attachDocPaths.map((key) => batch.get(`doc:${key}`, async () => ({ value: await documentAttachment(env, key), dispose: async () => {} }))),
      )),
      ...(girocode ? [girocode] : []),
    ];
    // The log names the files sent along, not the inline GiroCode. Sent before (a retried message),
    // or claimed and never confirmed: not sent again.
    const log = {
      kind: "MAILSHOT",
      personId,
      intendedCc: params.cc,
      attachments: attachments.filter((file) => !file.contentId).map((file) => file.filename),
      invoiceHeaderId: invoice?.id ?? null,
      mailshotId: params.mailshotId,
    } as const;
    await mailOncePerRun(context, log, { to: route.to, cc: route.cc, intendedTo: person.email, ...rendered, attachments });
  } catch (error) {
    if (error instanceof ItemFailure) throw error;
    throw new ItemFailure(error instanceof MailProblem ? error.message : `Mailserver: ${messageOf(error)}`.slice(0, 200));
  }
}

/** 'Fertig! Es wurden 12 Mails versandt', and who got no confirmed mail. */
export async function summarizeMailshotRun(db: Db, job: JobRecord): Promise<RunSummary> {
  const { sent, unconfirmed } = await mailshotRunCounts(db, job.id);
  const name = paramsOfJob<MailshotRunParams>(job).name;
  let message = sent === 0 && job.total === 0 ? NOTHING_TO_MAIL : `Fertig! Es wurden ${formatCount(sent, "Mail", "Mails")} für „${name}“ versandt`;
  if (unconfirmed.length > 0) message += `; ohne Bestätigung des Mailservers, daher nicht erneut versandt: ${joinGerman(unconfirmed)}`;
  return { message };
}
