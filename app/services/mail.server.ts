/**
 * Mail over SMTP through worker-mailer (cloudflare:sockets): the one outside system for mail.
 * Settings are vars (SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_SECURE, MAIL_FROM) and the secret
 * SMTP_PASSWORD; locally maildev catches everything (scripts/start.sh). Outside production
 * (APP_ENV) every mail goes only to the configuration's SMTP test account, and without one nothing
 * is sent. Templates are mustache (no eval, runs in workerd): HTML escaped, plain text as is.
 */
import Mustache from "mustache";
import { LogLevel, WorkerMailer } from "worker-mailer";
import { NO_TEST_ACCOUNT } from "~/lib/mail";
import { errorText } from "~/models/constraints.server";
import { toBase64 } from "~/lib/bytes";
import { appEnv } from "./env.server";

const isProduction = (env: Pick<Env, "APP_ENV">) => env.APP_ENV === "production";

/** 'Wuff Hundeschule <verein@wuff.example>' -> name and address. */
function parseSender(from: string): { name?: string; email: string } {
  const match = /^\s*(.*?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(from);
  if (match) return { ...(match[1] ? { name: match[1].replace(/^"|"$/g, "") } : {}), email: match[2] };
  return { email: from.trim() };
}

class MailConfigurationError extends Error {}

function settings(env: Env) {
  // Checked at the start (app/services/env.server.ts): port, security and sender are well-formed.
  const { SMTP_HOST: host, SMTP_PORT: port, SMTP_SECURE: secure, SMTP_USER: username, SMTP_PASSWORD: password, MAIL_FROM } = appEnv(env);
  if (!host) throw new MailConfigurationError("Der Mailserver ist nicht konfiguriert (SMTP_HOST).");
  return {
    host,
    port,
    // "tls": TLS from the start (465); "starttls": upgrade after EHLO (587); "false": plain (maildev).
    secure: secure === "tls",
    startTls: secure === "starttls",
    ...(username ? { credentials: { username, password }, authType: ["plain", "login"] as ("plain" | "login")[] } : {}),
    sender: parseSender(MAIL_FROM),
  };
}

/** The sender's display name: how mails name the club when the configuration has no Verein. */
export const senderName = (env: Pick<Env, "MAIL_FROM">) => parseSender(env.MAIL_FROM).name ?? "Wuff";

/** Where a mail really goes. */
export type Route = { status: "ok"; to: string; cc: string | null; redirected: boolean } | { status: "blocked"; message: string };

/**
 * Production: to the recipient, with the cc. Elsewhere only to the test account, and the cc is
 * dropped (never a copy to a real address from a test system; the log keeps the intended cc).
 */
export function routeMail(env: Pick<Env, "APP_ENV">, testAccount: string | null | undefined, to: string, cc: string | null): Route {
  if (isProduction(env)) return { status: "ok", to, cc: cc || null, redirected: false };
  const account = testAccount?.trim();
  if (!account) return { status: "blocked", message: NO_TEST_ACCOUNT };
  return { status: "ok", to: account, cc: null, redirected: true };
}

export type MailTemplate = { name: string; subject: string | null; html: string; text: string | null };
export type RenderedMail = { subject: string; html: string; text: string };

export class TemplateError extends Error {}

/** Header values never carry a line break (no header injection through a subject or name). */
const oneLine = (value: string) => value.replace(/[\r\n]+/g, " ").trim();

/** The template filled in: HTML with every value escaped, subject and text as plain text. */
export function renderMail(template: MailTemplate, variables: Record<string, unknown>): RenderedMail {
  const plain = { escape: (value: unknown) => String(value) };
  try {
    return {
      subject: oneLine(Mustache.render(template.subject ?? "", variables, undefined, plain)),
      html: Mustache.render(template.html, variables),
      text: Mustache.render(template.text ?? "", variables, undefined, plain),
    };
  } catch (error) {
    throw new TemplateError(`Die Vorlage „${template.name}“ ist fehlerhaft: ${errorText(error)}`);
  }
}

/** contentId: an inline image the HTML shows as <img src="cid:{contentId}">. */
export type Attachment = { filename: string; content: Uint8Array; mimeType: string; contentId?: string };

/**
 * worker-mailer 1.2.1 writes every attachment as 'Content-Type: {mimeType}; name="{file}"' with
 * no Content-ID. An inline image gets its Content-ID as a header line after the type (the name
 * parameter the library appends then lands on a harmless X-header); mail clients show the image
 * where the HTML names cid:{contentId}.
 */
const mimeTypeOf = (file: Attachment) =>
  file.contentId
    ? `${file.mimeType}; name="${safeFileName(file.filename)}"\r\nContent-ID: <${oneLine(file.contentId).replace(/[<>"]/g, "")}>\r\nX-Wuff-Inline: 1`
    : file.mimeType;
export type OutgoingMail = { to: string; cc: string | null; subject: string; html: string; text: string; attachments: Attachment[]; intendedTo?: string };

/** A file name as a mail header may carry it (worker-mailer puts it between quotes as is). */
const safeFileName = (name: string) => oneLine(name).replace(/["\\]/g, "_") || "Anhang";

/** An open SMTP connection: send one mail after the other, then close. */
export type MailTransport = { send(mail: OutgoingMail): Promise<string>; close(): Promise<void> };

/**
 * Connects to the SMTP server. worker-mailer reports no server answer on success: a resolved send
 * means the server answered 250 to the message, which is what the log records.
 */
export async function openTransport(env: Env): Promise<MailTransport> {
  const { sender, ...options } = settings(env);
  let mailer: WorkerMailer;
  try {
    mailer = await WorkerMailer.connect({ ...options, logLevel: LogLevel.NONE, socketTimeoutMs: 15_000, responseTimeoutMs: 15_000 });
  } catch (error) {
    throw new Error(`Der Mailserver ${options.host}:${options.port} ist nicht erreichbar: ${errorText(error)}`);
  }
  return {
    async send(mail) {
      await mailer.send({
        from: sender,
        to: oneLine(mail.to),
        ...(mail.cc ? { cc: oneLine(mail.cc) } : {}),
        subject: oneLine(mail.subject),
        html: mail.html,
        text: mail.text,
        ...(mail.intendedTo && mail.intendedTo !== mail.to ? { headers: { "X-Wuff-Intended-To": oneLine(mail.intendedTo) } } : {}),
        attachments: mail.attachments.map((file) => ({ filename: safeFileName(file.filename), content: toBase64(file.content), mimeType: mimeTypeOf(file) })),
      });
      return "250 angenommen";
    },
    close: () => mailer.close().catch(() => undefined),
  };
}
