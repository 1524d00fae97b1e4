/**
 * The single mail with preview (spec 001 §2 mail preview dialog, §4, §5): opened by 'Mail senden'
 * on a person, an invoice or a fee. It shows the mail as it will go out (the template filled in
 * for the record), the subject to edit, to, cc and the invoice attachment only shown; Previous and
 * Next step through the rows of the list it was opened from. Sending records the mail in the log.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import type { Db } from "~/db/client.server";
import { composeMail, invoiceAttachment, loadTemplate, mailSettings, MailProblem, messageOf, previewHtml, sendClaimed } from "~/jobs/mails.server";
import { browseList } from "~/lib/grid";
import { MAIL_FAILED, MAIL_SENT, MAIL_TEMPLATES, NO_EMAIL, PERSON_ERASED, type MailFee, type MailInvoice, type MailPerson, type MailSource } from "~/lib/mail";
import { todayInBerlin } from "~/lib/format";
import { INVOICE_KIND_LABELS } from "~/lib/invoice-state";
import { markInvoiceSent } from "~/models/invoices.server";
import { isPdfOnTheWay } from "~/models/invoice-pdfs.server";
import { claimMail, feeForMail, invoiceForMail, personForMail } from "~/models/mails.server";
import { openTransport, TemplateError, type Attachment } from "~/services/mail.server";
import { paymentLinkForFee, paymentLinksRefusal } from "~/services/payments.server";
import { defineDialog, type DialogOutcome, type DialogViewContext } from "../define.server";
import { mailSendSchema } from "./schema";

/** What the mail is about, loaded for the preview and for sending. */
type MailRecord = {
  person: MailPerson;
  invoice?: MailInvoice;
  fee?: MailFee;
  paymentLink?: string | null;
  template: string;
  attachInvoice: boolean;
  label: string;
};

async function loadRecord(db: Db, source: MailSource, id: number): Promise<MailRecord | undefined> {
  switch (source) {
    case "person": {
      const person = await personForMail(db, id);
      return person && { person, template: MAIL_TEMPLATES.person, attachInvoice: false, label: `${person.firstName} ${person.lastName}`.trim() };
    }
    case "invoice": {
      const found = await invoiceForMail(db, id);
      if (!found) return undefined;
      // A Stornorechnung or Gutschrift goes with its own mail: it asks for no payment.
      const { kind, invoiceNumber } = found.invoice;
      const template = kind === "INVOICE" ? MAIL_TEMPLATES.invoice : MAIL_TEMPLATES.correction;
      return { ...found, template, attachInvoice: true, label: `${INVOICE_KIND_LABELS[kind]} ${invoiceNumber}` };
    }
    case "fee": {
      const found = await feeForMail(db, id);
      return found && { ...found, template: MAIL_TEMPLATES.fee, attachInvoice: false, label: `Offener Posten „${found.fee.text}“` };
    }
  }
}

/** Senden waits for the PDF a run is making (the dialog adds how it will know: by itself, or on reload). */
export const PDF_PENDING = "Senden wartet auf das PDF dieser Rechnung: es wird gerade im Hintergrund erzeugt (Aufgabe „PDFs erzeugen“).";

export type MailPreviewData = {
  source: MailSource;
  id: number;
  label: string;
  personName: string;
  /** The person's address (the intended recipient). */
  to: string;
  /** Where it really goes (the test account outside production), or null when it cannot go. */
  sentTo: string | null;
  cc: string;
  attachInvoice: boolean;
  attachment: string | null;
  template: string;
  subject: string;
  html: string;
  text: string;
  /** Why it cannot be sent (German), or null. */
  problem: string | null;
  /** The invoice's PDF is being made by a 'PDFs erzeugen' run: the dialog checks again until it is there. */
  pdfPending: boolean;
  /** A note on what sending adds (an open fee's payment link made then), or null. */
  notice: string | null;
  browse: ReturnType<typeof browseList>;
};

async function preview(context: DialogViewContext, source: MailSource): Promise<MailPreviewData | null> {
  const { db, id, search } = context;
  const record = id ? await loadRecord(db, source, id) : undefined;
  if (!record || !id) return null;
  const env = context.env;
  const base = {
    source,
    id,
    label: record.label,
    personName: `${record.person.firstName} ${record.person.lastName}`.trim(),
    to: record.person.email ?? "",
    cc: "",
    attachInvoice: record.attachInvoice,
    attachment: record.attachInvoice ? (record.invoice?.pdfFilePath?.split("/").pop() ?? null) : null,
    template: record.template,
    browse: browseList(search, id),
  };
  const pdfPending = record.attachInvoice && record.invoice !== undefined && !record.invoice.pdfFilePath && (await isPdfOnTheWay(db, record.invoice.id));
  try {
    const template = await loadTemplate(db, record.template);
    const { rendered, route, girocode } = composeMail(env, await mailSettings(env, db), template, record);
    // The preview shows the GiroCode the mail carries as an attachment.
    rendered.html = previewHtml(rendered.html, girocode);
    const problem = record.person.erasedOn
      ? PERSON_ERASED
      : !record.person.email?.trim()
        ? `${base.personName} hat ${NO_EMAIL}.`
        : route.status === "blocked"
          ? route.message
          : record.attachInvoice && !record.invoice?.pdfFilePath
            ? pdfPending
              ? PDF_PENDING
              : "Zu dieser Rechnung gibt es noch kein PDF. Bitte zuerst das PDF erzeugen."
            : null;
    return {
      ...base,
      ...rendered,
      sentTo: route.status === "ok" ? route.to : null,
      problem,
      pdfPending: problem === PDF_PENDING,
      notice: await paymentLinkNotice(db, env, record),
    };
  } catch (error) {
    if (!(error instanceof MailProblem || error instanceof TemplateError)) throw error;
    return { ...base, subject: "", html: "", text: "", sentTo: null, problem: error.message, pdfPending: false, notice: null };
  }
}

/** An open fee without a fitting link gets one when its mail is sent (not by the preview: a GET makes nothing at Mollie). */
const needsPaymentLink = (record: MailRecord) => record.fee !== undefined && record.fee.openAmount > 0 && !record.paymentLink;

async function paymentLinkNotice(db: Db, env: Env, record: MailRecord): Promise<string | null> {
  if (!needsPaymentLink(record) || (await paymentLinksRefusal(db, env))) return null;
  return "Beim Senden wird ein Zahlungslink für den offenen Betrag erzeugt und in die Mail gesetzt.";
}

/** The fee's payment link for the mail being sent: made at Mollie if needed; none while Mollie is off. */
async function withPaymentLink(db: Db, env: Env, record: MailRecord): Promise<MailRecord | { refusal: string }> {
  if (!needsPaymentLink(record) || (await paymentLinksRefusal(db, env))) return record;
  const outcome = await paymentLinkForFee({ db, env }, record.fee!.id);
  if (outcome.status === "ok") return { ...record, paymentLink: outcome.link.url };
  if (outcome.status === "missing") return record;
  return { refusal: `Der Zahlungslink konnte nicht erzeugt werden: ${outcome.message}` };
}

export const dialog = defineDialog({
  area: "mailer",
  views: {
    person: (context) => preview(context, "person"),
    invoice: (context) => preview(context, "invoice"),
    fee: (context) => preview(context, "fee"),
  },
  actions: {
    send: async ({ db, user, form, env }): Promise<DialogOutcome> => {
      const submission = parseWithZod(form, { schema: mailSendSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      const { source, id, subject } = submission.value;
      const loaded = await loadRecord(db, source, id);
      if (!loaded) return { status: "missing" };
      if (loaded.person.erasedOn) return { status: "refused", message: PERSON_ERASED };
      const email = loaded.person.email?.trim();
      if (!email) return { status: "refused", message: `${loaded.person.firstName} ${loaded.person.lastName} hat ${NO_EMAIL}.` };
      const record = await withPaymentLink(db, env, loaded);
      if ("refusal" in record) return { status: "refused", message: record.refusal };
      let attachments: Attachment[] = [];
      let composed;
      try {
        const template = await loadTemplate(db, record.template);
        composed = composeMail(env, await mailSettings(env, db), template, { ...record, subject });
        if (composed.route.status === "blocked") return { status: "refused", message: composed.route.message };
        if (record.attachInvoice && record.invoice) attachments = [await invoiceAttachment(env, record.invoice)];
        if (composed.girocode) attachments = [...attachments, composed.girocode];
      } catch (error) {
        if (error instanceof MailProblem || error instanceof TemplateError) return { status: "refused", message: error.message };
        throw error;
      }
      const { rendered, route } = composed;
      const logId = await claimMail(db, {
        kind: "SINGLE",
        recipient: route.to,
        intendedRecipient: email,
        cc: route.cc,
        intendedCc: null,
        subject: rendered.subject,
        // The log names the files sent along, not the inline GiroCode.
        attachments: attachments.filter((file) => !file.contentId).map((file) => file.filename),
        sentBy: user.name,
        personId: record.person.id,
        invoiceHeaderId: record.invoice?.id ?? null,
        feeId: record.fee?.id ?? null,
      });
      // Not sent: sendClaimed marks the log's entry failed, with why.
      const connection: { transport?: Awaited<ReturnType<typeof openTransport>> } = {};
      try {
        await sendClaimed(db, async () => (connection.transport = await openTransport(env)), logId, {
          to: route.to,
          cc: route.cc,
          intendedTo: email,
          ...rendered,
          attachments,
        });
      } catch (error) {
        return { status: "refused", message: `${MAIL_FAILED} ${messageOf(error)}` };
      } finally {
        await connection.transport?.close();
      }
      if (record.invoice) await markInvoiceSent(db, record.invoice.id, user, todayInBerlin());
      return { status: "done", message: MAIL_SENT };
    },
  },
});
