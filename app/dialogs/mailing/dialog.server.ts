/**
 * The mail tasks of the Tasks screen (ADMIN): today's birthday mails now (the cron sends them every
 * morning anyway), the mailshot run with its preview, and the invoice mails that are not sent.
 */
import {
  composeMail,
  loadTemplate,
  mailSettings,
  MailProblem,
  previewBirthdayMails,
  previewHtml,
  sendBirthdayMails,
  type BirthdayMailPreview,
} from "~/jobs/mails.server";
import { startDeclaredRun } from "~/jobs/start.server";
import { mailshotRun } from "~/runs/mailshot.run.server";
import { todayInBerlin } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { INVOICE_MAILS_REFUSED, isRecipientQuery, MAILSHOT_MISSING, NOTHING_TO_MAIL, RECIPIENT_QUERY_LABELS } from "~/lib/mail";
import { getMailshot, invoiceToAttach, mailshotRecipients, type LeftOut } from "~/models/mailshots.server";
import { TemplateError } from "~/services/mail.server";
import { defineDialog, type DialogOutcome, type DialogViewContext } from "../define.server";

export type BirthdayPreview = { kind: "birthdays" } & BirthdayMailPreview;

/** A mailshot's preview: one recipient's mail at a time (dialogAt), and who is left out. */
export type MailshotPreview = {
  kind: "mailshot";
  mailshot: { id: number; name: string; recipients: string; template: string; cc: string; attachInvoice: boolean; documents: string[] } | null;
  count: number;
  /** Who the mailshot leaves out, and why (no e-mail address, no consent). */
  leftOut: LeftOut[];
  at: number;
  current: { name: string; to: string; sentTo: string | null; subject: string; html: string; attachments: string[] } | null;
  problem: string | null;
};

export type MailingDialogData = BirthdayPreview | MailshotPreview | { kind: "invoiceMails"; message: string };

const fileName = (key: string) => key.split("/").pop() ?? key;

async function mailshotPreview({ db, id, search, env }: DialogViewContext): Promise<MailshotPreview> {
  const mailshot = id ? await getMailshot(db, id) : undefined;
  const empty: MailshotPreview = { kind: "mailshot", mailshot: null, count: 0, leftOut: [], at: 1, current: null, problem: MAILSHOT_MISSING };
  if (!mailshot) return empty;
  const { recipients, leftOut } = await mailshotRecipients(db, mailshot.recipientQuery, todayInBerlin());
  const documents = [mailshot.attachDocPath1, mailshot.attachDocPath2].filter((key): key is string => Boolean(key));
  const base: MailshotPreview = {
    ...empty,
    mailshot: {
      id: mailshot.id,
      name: mailshot.name,
      recipients: isRecipientQuery(mailshot.recipientQuery) ? RECIPIENT_QUERY_LABELS[mailshot.recipientQuery] : mailshot.recipientQuery,
      template: mailshot.templateName,
      cc: mailshot.cc ?? "",
      attachInvoice: mailshot.attachInvoice,
      documents: documents.map(fileName),
    },
    count: recipients.length,
    leftOut,
    problem: null,
  };
  if (recipients.length === 0) return { ...base, problem: NOTHING_TO_MAIL };
  const at = Math.min(Math.max(parseId(search.get("dialogAt")) ?? 1, 1), recipients.length);
  const person = recipients[at - 1];
  try {
    const template = await loadTemplate(db, mailshot.templateName);
    const invoice = mailshot.attachInvoice ? await invoiceToAttach(db, person.id) : undefined;
    const { rendered, route, girocode } = composeMail(
      env,
      await mailSettings(env, db),
      { ...template, subject: mailshot.subject },
      { person, invoice, cc: mailshot.cc },
    );
    return {
      ...base,
      at,
      current: {
        name: `${person.firstName} ${person.lastName}`.trim(),
        to: person.email ?? "",
        sentTo: route.status === "ok" ? route.to : null,
        subject: rendered.subject,
        html: previewHtml(rendered.html, girocode),
        attachments: [
          ...(invoice?.pdfFilePath ? [fileName(invoice.pdfFilePath)] : mailshot.attachInvoice ? ["(keine Rechnung mit PDF: diese Mail schlägt fehl)"] : []),
          ...documents.map(fileName),
        ],
      },
      problem: route.status === "blocked" ? route.message : null,
    };
  } catch (error) {
    if (error instanceof MailProblem || error instanceof TemplateError) return { ...base, at, problem: error.message };
    throw error;
  }
}

export const dialog = defineDialog({
  area: "tasks",
  views: {
    birthdays: async ({ db, env }): Promise<MailingDialogData> => ({ kind: "birthdays", ...(await previewBirthdayMails(env, db)) }),
    invoiceMails: async (): Promise<MailingDialogData> => ({ kind: "invoiceMails", message: INVOICE_MAILS_REFUSED }),
    mailshot: (context): Promise<MailingDialogData> => mailshotPreview(context),
  },
  actions: {
    birthdays: async ({ db, user, env }): Promise<DialogOutcome> => {
      const outcome = await sendBirthdayMails(env, db, user);
      return outcome.warning && outcome.sent === 0 ? { status: "refused", message: outcome.message } : { status: "done", message: outcome.message };
    },
    // The mailshot as a bulk run: one item per recipient with an e-mail address.
    mailshot: (context): Promise<DialogOutcome> => startDeclaredRun(mailshotRun, context),
    // Spec 001 §2: the task is shown disabled and answers this.
    invoiceMails: async (): Promise<DialogOutcome> => ({ status: "refused", message: INVOICE_MAILS_REFUSED }),
  },
});
