/**
 * Mail work shared by the single mail with preview, the mailshot runs and the birthday mails:
 * a template filled in for a person (and their invoice or fee), where it really goes (only the
 * SMTP test account outside production), its attachments from R2, and sending it with its entry
 * in the mail log (claimed before, confirmed after).
 */
import type { Db } from "~/db/client.server";
import { currentYearInBerlin, formatCount, joinGerman, todayInBerlin } from "~/lib/format";
import { clubName, MAIL_TEMPLATES, mailVariables, NO_PDF, NOTHING_TO_MAIL, type MailFee, type MailInvoice, type MailPerson } from "~/lib/mail";
import { toBase64 } from "~/lib/bytes";
import { epcPayload, girocodePng } from "~/lib/girocode";
import { invoiceEpcPayload, type ClubInvoiceData } from "~/lib/invoice-document";
import type { Actor } from "~/models/audit.server";
import { getConfiguration, type ConfigurationRecord } from "~/models/configuration.server";
import { birthdayMailStatus, claimOnce, confirmMail, failMail, getMailTemplate, peopleWithBirthday, type MailClaim } from "~/models/mails.server";
import {
  openTransport,
  renderMail,
  routeMail,
  senderName,
  type Attachment,
  type MailTransport,
  type OutgoingMail,
  type RenderedMail,
  type Route,
} from "~/services/mail.server";
import type { ItemContext } from "./item";

/** A refusal a person can act on (German), e.g. a missing template or PDF. */
export class MailProblem extends Error {}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const templateMissing = (name: string) => `Die Mailvorlage „${name}“ gibt es nicht. Bitte unter Vorlagen anlegen.`;

/** What every mail of a request or batch needs once: the test account, the club's name and its
 *  account (for the GiroCode of payment mails). */
export type MailSettings = { testAccount: string | null; club: string; bank?: ClubInvoiceData | null };

export async function mailSettings(env: Env, db: Db): Promise<MailSettings> {
  return mailSettingsOf(env, await getConfiguration(db));
}

/** The mail settings from a configuration row already read. */
export function mailSettingsOf(env: Env, configuration: ConfigurationRecord | undefined): MailSettings {
  return { testAccount: configuration?.smtpTestAccount ?? null, club: clubName(configuration?.hsvrmVereinName, senderName(env)), bank: configuration ?? null };
}

/** The Content-ID of the GiroCode image in a payment mail. */
const GIROCODE_CONTENT_ID = "girocode@wuff";

/**
 * The GiroCode of a payment mail (an open invoice: 'ReNr {n}'; an open fee: 'Posten {id} {text}'),
 * as a PNG to attach with its Content-ID; null without the club's IBAN or an open amount.
 */
function mailGiroCode(
  bank: ClubInvoiceData | null | undefined,
  input: { invoice?: MailInvoice | null; fee?: MailFee | null },
): { payload: string; attachment: Attachment } | null {
  const { invoice, fee } = input;
  const payload = invoice
    ? invoiceEpcPayload(bank ?? null, invoice)
    : fee && bank?.iban
      ? epcPayload({
          name: bank.bankAccountHolder?.trim() || bank.clubName?.trim() || "",
          iban: bank.iban,
          bic: bank.bic,
          amount: fee.openAmount,
          remittance: `Posten ${fee.id} ${fee.text}`,
        })
      : null;
  if (!payload) return null;
  return { payload, attachment: { filename: "GiroCode.png", content: girocodePng(payload), mimeType: "image/png", contentId: GIROCODE_CONTENT_ID } };
}

/** A mail's HTML for the preview: the GiroCode it carries as an attachment shown inline (data URI). */
export const previewHtml = (html: string, girocode: Attachment | null) =>
  girocode ? html.replace(`cid:${GIROCODE_CONTENT_ID}`, `data:image/png;base64,${toBase64(girocode.content)}`) : html;

/** The HTML block that shows the attached GiroCode (before </body> when the template has one). */
function withGiroCodeImage(html: string): string {
  const block = `<p style="margin-top:16px">Bequem bezahlen: GiroCode mit der Banking-App scannen.<br><img src="cid:${GIROCODE_CONTENT_ID}" alt="GiroCode zum Bezahlen" width="180" height="180" style="width:180px;height:180px"></p>`;
  return /<\/body>/i.test(html) ? html.replace(/<\/body>/i, `${block}</body>`) : `${html}${block}`;
}

export async function loadTemplate(db: Db, name: string) {
  const template = await getMailTemplate(db, name);
  if (!template) throw new MailProblem(templateMissing(name));
  return template;
}

/**
 * A person's mail from a template: rendered, and routed. `subject` replaces the template's
 * (the preview's field); `paymentLink` is a fee's Mollie link (the templates show it when set).
 */
export function composeMail(
  env: Env,
  settings: MailSettings,
  template: Awaited<ReturnType<typeof loadTemplate>>,
  input: {
    person: MailPerson;
    invoice?: MailInvoice | null;
    fee?: MailFee | null;
    paymentLink?: string | null;
    subject?: string;
    cc?: string | null;
    now?: Date;
    /** Variables of a kind of mail beyond the common ones (a reminder's {{total}}, {{newDueDate}},
     *  a pre-notification's {{#collections}}). */
    extra?: Record<string, unknown>;
  },
): { rendered: RenderedMail; route: Route; girocode: Attachment | null } {
  const variables = {
    ...mailVariables({
      club: settings.club,
      person: input.person,
      today: todayInBerlin(input.now),
      invoice: input.invoice,
      fee: input.fee,
      paymentLink: input.paymentLink,
    }),
    ...input.extra,
  };
  const rendered = renderMail(template, variables);
  if (input.subject !== undefined) rendered.subject = input.subject.replace(/[\r\n]+/g, " ").trim();
  // A payment mail (an open invoice or fee) carries the GiroCode as an inline image.
  const girocode = mailGiroCode(settings.bank, input);
  if (girocode) rendered.html = withGiroCodeImage(rendered.html);
  return { rendered, route: routeMail(env, settings.testAccount, input.person.email?.trim() ?? "", input.cc ?? null), girocode: girocode?.attachment ?? null };
}

/** The invoice's PDF from R2 (key = its pdfFilePath). */
export async function invoiceAttachment(env: Env, invoice: Pick<MailInvoice, "pdfFilePath">): Promise<Attachment> {
  if (!invoice.pdfFilePath) throw new MailProblem(NO_PDF);
  const object = await env.INVOICES.get(invoice.pdfFilePath);
  if (!object) throw new MailProblem(`Das PDF „${invoice.pdfFilePath}“ der Rechnung ist nicht mehr im Speicher. Bitte das PDF neu erzeugen.`);
  return {
    filename: invoice.pdfFilePath.split("/").pop() ?? invoice.pdfFilePath,
    content: new Uint8Array(await object.arrayBuffer()),
    mimeType: "application/pdf",
  };
}

/** A document stored in R2 (a mailshot's attachment); its file name is the last part of the key. */
export async function documentAttachment(env: Env, key: string): Promise<Attachment> {
  const object = await env.INVOICES.get(key);
  if (!object) throw new MailProblem(`Der Anhang „${key.split("/").pop()}“ ist nicht mehr im Speicher.`);
  return {
    filename: key.split("/").pop() ?? key,
    content: new Uint8Array(await object.arrayBuffer()),
    mimeType: object.httpMetadata?.contentType ?? "application/octet-stream",
  };
}

/**
 * Sends a mail whose log entry is claimed: confirmed when the server accepted it, marked failed
 * (and the error thrown on) when not. The connection is opened here (`open`), so a server that
 * cannot be reached fails the claim too: nothing went out, and a retry sends it instead of taking
 * it for sent but unconfirmed.
 */
export async function sendClaimed(db: Db, open: () => Promise<MailTransport>, logId: number, mail: Parameters<MailTransport["send"]>[0]): Promise<void> {
  try {
    const response = await (await open()).send(mail);
    await confirmMail(db, logId, response);
  } catch (error) {
    await failMail(db, logId, messageOf(error));
    throw error;
  }
}

/** What the mail log says of a run's mail beyond the mail itself. */
type RunMailLog = Pick<MailClaim, "kind" | "invoiceHeaderId" | "mailshotId"> & {
  personId: number;
  intendedCc?: string | null;
  /** The files named in the log (not an inline image). */
  attachments?: readonly string[];
};

const SMTP = "smtp";

/**
 * A run's mail to one person, sent at most once per run and person (claimOnce): over the one SMTP
 * connection of the queue batch, which a failed send drops so the next item opens a fresh one.
 * "sent" when it went out now or before; "unconfirmed" when it was claimed before and never
 * confirmed (it may have gone out: not sent again). A refused mail throws (its claim marked failed).
 */
export async function mailOncePerRun(
  { env, db, job, actor, batch }: Pick<ItemContext, "env" | "db" | "job" | "actor" | "batch">,
  log: RunMailLog,
  mail: OutgoingMail,
): Promise<"sent" | "unconfirmed"> {
  const claim = await claimOnce(db, {
    ...log,
    intendedCc: log.intendedCc ?? null,
    attachments: [...(log.attachments ?? [])],
    recipient: mail.to,
    intendedRecipient: mail.intendedTo ?? mail.to,
    cc: mail.cc,
    subject: mail.subject,
    sentBy: actor.name,
    jobId: job.id,
  });
  if (claim.status !== "claimed") return claim.status;
  const transport = () =>
    batch.get<MailTransport>(SMTP, async () => {
      const opened = await openTransport(env);
      return { value: opened, dispose: () => opened.close() };
    });
  try {
    await sendClaimed(db, transport, claim.id, mail);
  } catch (error) {
    await batch.discard(SMTP);
    throw error;
  }
  return "sent";
}

// ---------------------------------------------------------------------------------------------
// Birthday mails

/** The 'MM-DD' birthdays celebrated on a Berlin date: 29 February on 28 February in other years. */
export function birthdaysOn(today: string): string[] {
  const year = Number(today.slice(0, 4));
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const day = today.slice(5);
  return day === "02-28" && !leap ? [day, "02-29"] : [day];
}

/** How a birthday mail of today stands: not sent yet, or what the mail log says. */
type BirthdayMailState = "offen" | "schon versandt" | "nicht bestätigt" | "fehlgeschlagen";

export type BirthdayMailPreview = {
  today: string;
  people: { id: number; name: string; email: string; status: BirthdayMailState }[];
  /** Why nothing can be sent now (no test account), or null. */
  problem: string | null;
};

const BIRTHDAY_STATE = { SENT: "schon versandt", CLAIMED: "nicht bestätigt", FAILED: "fehlgeschlagen" } as const;

/**
 * What sendBirthdayMails would send now, without sending anything: today's birthdays with an
 * address and consent, each with its state in the mail log (the Tasks dialog and the API's GET).
 */
export async function previewBirthdayMails(env: Env, db: Db, now = new Date()): Promise<BirthdayMailPreview> {
  const today = todayInBerlin(now);
  const people = await peopleWithBirthday(db, birthdaysOn(today));
  const status = await birthdayMailStatus(
    db,
    people.map((person) => person.id),
    currentYearInBerlin(now),
  );
  const route = routeMail(env, (await getConfiguration(db))?.smtpTestAccount, "", null);
  return {
    today,
    people: people.map((person) => {
      const state = status.get(person.id);
      return {
        id: person.id,
        name: `${person.firstName} ${person.lastName}`.trim(),
        email: person.email ?? "",
        status: state ? BIRTHDAY_STATE[state] : "offen",
      };
    }),
    problem: route.status === "blocked" ? route.message : null,
  };
}

export type BirthdayOutcome = { message: string; sent: number; warning: boolean };

/**
 * Sends today's birthday mails (Europe/Berlin): one per person with an e-mail address and GDPR
 * consent (mailConsentAllows) and year,
 * whoever or whatever triggers it and however often (the cron, Tasks, the API).
 */
export async function sendBirthdayMails(env: Env, db: Db, actor: Actor, now = new Date()): Promise<BirthdayOutcome> {
  const today = todayInBerlin(now);
  const year = currentYearInBerlin(now);
  const people = await peopleWithBirthday(db, birthdaysOn(today));
  if (people.length === 0) return { message: `${NOTHING_TO_MAIL}: Heute hat niemand mit E-Mail-Adresse und Einwilligung Geburtstag.`, sent: 0, warning: false };
  const settings = await mailSettings(env, db);
  const blocked = routeMail(env, settings.testAccount, "", null);
  if (blocked.status === "blocked") return { message: blocked.message, sent: 0, warning: true };
  const template = await getMailTemplate(db, MAIL_TEMPLATES.birthday);
  if (!template) return { message: templateMissing(MAIL_TEMPLATES.birthday), sent: 0, warning: true };

  // Opened by the first mail sent, closed at the end.
  const connection: { transport?: MailTransport } = {};
  let sent = 0;
  let before = 0;
  const unconfirmed: string[] = [];
  const failed: string[] = [];
  try {
    for (const person of people) {
      const name = `${person.firstName} ${person.lastName}`.trim();
      const { rendered, route } = composeMail(env, settings, template, { person, now });
      if (route.status !== "ok") continue;
      const claim = await claimOnce(
        db,
        {
          kind: "BIRTHDAY",
          recipient: route.to,
          intendedRecipient: person.email ?? "",
          cc: null,
          intendedCc: null,
          subject: rendered.subject,
          attachments: [],
          sentBy: actor.name,
          personId: person.id,
          birthdayYear: year,
        },
        now,
      );
      if (claim.status === "sent") before++;
      if (claim.status === "unconfirmed") unconfirmed.push(name);
      if (claim.status !== "claimed") continue;
      try {
        await sendClaimed(db, async () => (connection.transport ??= await openTransport(env)), claim.id, {
          to: route.to,
          cc: null,
          intendedTo: person.email ?? "",
          ...rendered,
          attachments: [],
        });
        sent++;
      } catch (error) {
        failed.push(`${name} (${messageOf(error)})`);
      }
    }
  } finally {
    await connection.transport?.close();
  }
  const parts = [`${formatCount(sent, "Geburtstagsmail", "Geburtstagsmails")} versandt`];
  if (before > 0) parts.push(`${before} schon vorher versandt`);
  if (unconfirmed.length > 0) parts.push(`nicht erneut versandt, da ohne Bestätigung des Mailservers: ${joinGerman(unconfirmed)}`);
  if (failed.length > 0) parts.push(`fehlgeschlagen: ${joinGerman(failed)}`);
  return { message: parts.join("; "), sent, warning: failed.length + unconfirmed.length > 0 };
}
