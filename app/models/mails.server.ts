/**
 * The mail log (table mail_log) and what mails are made from: the person, invoice or fee a mail
 * is about, the templates and the birthdays of the day. A mail is recorded as CLAIMED before the
 * SMTP server is asked and SENT (or FAILED) after; birthday mails and a mailshot run's mails are
 * claimed once per person (unique indexes), so a second cron run or a retried queue message never
 * sends them twice.
 */
import { and, asc, count, desc, eq, inArray, isNotNull, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { inValues, qualified } from "~/db/columns";
import { fees, invoiceHeaders, mailLog, people, templates, type MailKind, type MailStatus } from "~/db/schema";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import type { MailFee, MailInvoice, MailPerson } from "~/lib/mail";
import { currentPaymentLink } from "./fees.server";
import { mailConsentAllows } from "./people.server";

type MailLogRecord = typeof mailLog.$inferSelect;

/** What a mail is, as the log keeps it before it is sent. */
export type MailClaim = {
  kind: MailKind;
  recipient: string;
  intendedRecipient: string;
  cc: string | null;
  intendedCc: string | null;
  subject: string;
  attachments: string[];
  sentBy: string;
  personId?: number | null;
  invoiceHeaderId?: number | null;
  feeId?: number | null;
  mailshotId?: number | null;
  jobId?: number | null;
  birthdayYear?: number | null;
};

const claimValues = (claim: MailClaim, now: Date) => ({
  kind: claim.kind,
  status: "CLAIMED" as const,
  recipient: claim.recipient,
  intendedRecipient: claim.intendedRecipient,
  cc: claim.cc,
  intendedCc: claim.intendedCc,
  subject: claim.subject,
  attachments: claim.attachments.length > 0 ? claim.attachments.join(", ") : null,
  sentBy: claim.sentBy,
  personId: claim.personId ?? null,
  invoiceHeaderId: claim.invoiceHeaderId ?? null,
  feeId: claim.feeId ?? null,
  mailshotId: claim.mailshotId ?? null,
  jobId: claim.jobId ?? null,
  birthdayYear: claim.birthdayYear ?? null,
  createdOn: now.toISOString(),
});

/** A single mail about to be sent: its log entry. */
export async function claimMail(db: Db, claim: MailClaim, now = new Date()): Promise<number> {
  const [row] = await db.insert(mailLog).values(claimValues(claim, now)).returning({ id: mailLog.id });
  return row.id;
}

export type OnceClaim = { status: "claimed"; id: number } | { status: "sent" } | { status: "unconfirmed" };

/**
 * A birthday mail (per person and year) or a mailshot run's or Mahnlauf's mail (per run and person), claimed at
 * most once: a mail already sent is not sent again, nor one claimed before whose sending was never
 * confirmed (it may have gone out: reported, not repeated). A mail the server refused (FAILED)
 * is claimed again, as nothing went out.
 */
export async function claimOnce(db: Db, claim: MailClaim & { personId: number }, now = new Date()): Promise<OnceClaim> {
  const [inserted] = await db.insert(mailLog).values(claimValues(claim, now)).onConflictDoNothing().returning({ id: mailLog.id });
  if (inserted) return { status: "claimed", id: inserted.id };
  const same =
    claim.kind === "BIRTHDAY"
      ? and(eq(mailLog.kind, "BIRTHDAY"), eq(mailLog.personId, claim.personId), eq(mailLog.birthdayYear, claim.birthdayYear ?? -1))
      : and(eq(mailLog.kind, claim.kind), eq(mailLog.jobId, claim.jobId ?? -1), eq(mailLog.personId, claim.personId));
  const { kind: _kind, ...values } = claimValues(claim, now);
  const [again] = await db
    .update(mailLog)
    .set({ ...values, smtpResponse: null, sentOn: null })
    .where(and(same, eq(mailLog.status, "FAILED")))
    .returning({ id: mailLog.id });
  if (again) return { status: "claimed", id: again.id };
  const [existing] = await db.select({ status: mailLog.status }).from(mailLog).where(same);
  return existing?.status === "SENT" ? { status: "sent" } : { status: "unconfirmed" };
}

/** The server accepted the mail. */
export async function confirmMail(db: Db, id: number, response: string, now = new Date()) {
  await db.update(mailLog).set({ status: "SENT", smtpResponse: response, sentOn: now.toISOString() }).where(eq(mailLog.id, id));
}

/** The server (or the connection) refused the mail: nothing went out. */
export async function failMail(db: Db, id: number, error: string, now = new Date()) {
  await db
    .update(mailLog)
    .set({ status: "FAILED", smtpResponse: error.slice(0, 1000), sentOn: now.toISOString() })
    .where(eq(mailLog.id, id));
}

// ---------------------------------------------------------------------------------------------
// The log as a grid (under a person, under an invoice, and the whole log)

export type MailLogQuery = { personId?: number; invoiceHeaderId?: number; sort: SortSpec };
export type MailLogRow = Pick<
  MailLogRecord,
  | "id"
  | "kind"
  | "status"
  | "recipient"
  | "intendedRecipient"
  | "cc"
  | "intendedCc"
  | "subject"
  | "attachments"
  | "sentOn"
  | "sentBy"
  | "personId"
  | "invoiceHeaderId"
  | "feeId"
  | "mailshotId"
  | "jobId"
  | "smtpResponse"
  | "createdOn"
> & { personName: string | null; invoiceNumber: number | null };

export const MAIL_LOG_DEFAULT_SORT: SortSpec = { id: "createdOn", descending: true };

const SORTABLE: Record<string, SQL | typeof mailLog.createdOn> = {
  createdOn: sql`${mailLog.createdOn}`,
  sentOn: sql`${mailLog.sentOn}`,
  subject: sql`${mailLog.subject}`,
  recipient: sql`${mailLog.recipient}`,
  intendedRecipient: sql`${mailLog.intendedRecipient}`,
  kind: sql`${mailLog.kind}`,
  status: sql`${mailLog.status}`,
  sentBy: sql`${mailLog.sentBy}`,
};

function logWhere(query: MailLogQuery): SQL | undefined {
  return and(
    query.personId !== undefined ? eq(mailLog.personId, query.personId) : undefined,
    query.invoiceHeaderId !== undefined ? eq(mailLog.invoiceHeaderId, query.invoiceHeaderId) : undefined,
  );
}

export async function listMailLog(db: Db, query: MailLogQuery & { page: number; pageSize?: number }): Promise<{ rows: MailLogRow[]; total: number }> {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const key = SORTABLE[query.sort.id] ?? SORTABLE.createdOn;
  const direction = query.sort.descending ? desc : asc;
  const [rows, [{ total }]] = await db.batch([
    db
      .select({
        id: mailLog.id,
        kind: mailLog.kind,
        status: mailLog.status,
        recipient: mailLog.recipient,
        intendedRecipient: mailLog.intendedRecipient,
        cc: mailLog.cc,
        intendedCc: mailLog.intendedCc,
        subject: mailLog.subject,
        attachments: mailLog.attachments,
        sentOn: mailLog.sentOn,
        sentBy: mailLog.sentBy,
        personId: mailLog.personId,
        invoiceHeaderId: mailLog.invoiceHeaderId,
        feeId: mailLog.feeId,
        mailshotId: mailLog.mailshotId,
        jobId: mailLog.jobId,
        smtpResponse: mailLog.smtpResponse,
        createdOn: mailLog.createdOn,
        personName: people.fullName,
        invoiceNumber: invoiceHeaders.invoiceNumber,
      })
      .from(mailLog)
      .leftJoin(people, eq(people.id, mailLog.personId))
      .leftJoin(invoiceHeaders, eq(invoiceHeaders.id, mailLog.invoiceHeaderId))
      .where(logWhere(query))
      .orderBy(direction(key), direction(mailLog.id))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db.select({ total: count() }).from(mailLog).where(logWhere(query)),
  ]);
  return { rows: rows as MailLogRow[], total };
}

// ---------------------------------------------------------------------------------------------
// What mails are made from

/** What a mail says of an invoice (MailInvoice), for every query that reads one for a mail. */
export const mailInvoiceColumns = {
  id: invoiceHeaders.id,
  // Mails go out only for issued invoices (the queries below ask for them), which have a number.
  invoiceNumber: sql<number>`${invoiceHeaders.invoiceNumber}`.mapWith(Number),
  date: invoiceHeaders.date,
  dueDate: invoiceHeaders.dueDate,
  amount: invoiceHeaders.amount,
  openAmount: invoiceHeaders.openAmount,
  pdfFilePath: invoiceHeaders.pdfFilePath,
  kind: invoiceHeaders.kind,
  correctsNumber: sql<number | null>`(SELECT o.invoice_number FROM invoice_headers o WHERE o.id = ${qualified(invoiceHeaders.correctsInvoiceId)})`,
  correctsDate: sql<string | null>`(SELECT o.date FROM invoice_headers o WHERE o.id = ${qualified(invoiceHeaders.correctsInvoiceId)})`,
};

const personColumns = {
  id: people.id,
  salutation: people.salutation,
  title: people.title,
  firstName: people.firstName,
  lastName: people.lastName,
  email: people.email,
  dateOfBirth: people.dateOfBirth,
  erasedOn: people.erasedOn,
};

export async function personForMail(db: Db, id: number): Promise<MailPerson | undefined> {
  const [row] = await db.select(personColumns).from(people).where(eq(people.id, id));
  return row;
}

/** personForMail for a mail that needs consent (a mailshot): the person and whether it allows it. */
export async function personForConsentMail(db: Db, id: number): Promise<{ person: MailPerson; consent: boolean } | undefined> {
  const [row] = await db
    .select({ ...personColumns, consent: sql<number>`${mailConsentAllows}` })
    .from(people)
    .where(eq(people.id, id));
  if (!row) return undefined;
  const { consent, ...person } = row;
  return { person, consent: Boolean(consent) };
}

export async function invoiceForMail(db: Db, id: number): Promise<{ invoice: MailInvoice; person: MailPerson } | undefined> {
  const [row] = await db
    .select({
      invoice: mailInvoiceColumns,
      person: personColumns,
    })
    .from(invoiceHeaders)
    .innerJoin(people, eq(people.id, invoiceHeaders.personId))
    .where(and(eq(invoiceHeaders.id, id), eq(invoiceHeaders.status, "ISSUED")));
  return row;
}

/** A fee for its mail, with the payment link stored on it while that link fits its open amount. */
export async function feeForMail(db: Db, id: number): Promise<{ fee: MailFee; person: MailPerson; paymentLink: string | null } | undefined> {
  const [row] = await db
    .select({
      fee: { id: fees.id, text: fees.text, amount: fees.amount, openAmount: fees.openAmount, dueDate: fees.dueDate, date: fees.date },
      link: { openAmount: fees.openAmount, paymentLinkUrl: fees.paymentLinkUrl, paymentLinkAmount: fees.paymentLinkAmount },
      person: personColumns,
    })
    .from(fees)
    .innerJoin(people, eq(people.id, fees.personId))
    .where(eq(fees.id, id));
  return row && { fee: row.fee, person: row.person, paymentLink: currentPaymentLink(row.link) };
}

/** A mail template by name (kind MAIL), or undefined. */
export async function getMailTemplate(db: Db, name: string) {
  const [row] = await db
    .select({ name: templates.name, subject: templates.subject, html: templates.html, text: templates.text })
    .from(templates)
    .where(and(eq(templates.name, name), eq(templates.kind, "MAIL")));
  return row;
}

/** The names of all mail templates (a mailshot chooses one). */
export async function mailTemplateNames(db: Db): Promise<string[]> {
  const rows = await db.select({ name: templates.name }).from(templates).where(eq(templates.kind, "MAIL")).orderBy(templates.name);
  return rows.map((row) => row.name);
}

/** People whose birthday ('MM-DD') is one of `days` and who have an e-mail address. */
export async function peopleWithBirthday(db: Db, days: readonly string[]): Promise<MailPerson[]> {
  if (days.length === 0) return [];
  return db
    .select(personColumns)
    .from(people)
    .where(and(inArray(people.annualBirthday, [...days]), isNotNull(people.email), ne(sql`trim(${people.email})`, ""), mailConsentAllows))
    .orderBy(people.lastNameKey, people.firstNameKey, people.id);
}

/** How the birthday mails of a year went: sent, refused, unconfirmed (for the message). */
export async function birthdayMailStatus(db: Db, personIds: readonly number[], year: number): Promise<Map<number, MailStatus>> {
  if (personIds.length === 0) return new Map();
  const rows = await db
    .select({ personId: mailLog.personId, status: mailLog.status })
    .from(mailLog)
    .where(and(eq(mailLog.kind, "BIRTHDAY"), eq(mailLog.birthdayYear, year), inValues(mailLog.personId, personIds)));
  return new Map(rows.map((row) => [row.personId as number, row.status]));
}

/** What a mailshot run sent: mails confirmed, and the people whose mail was never confirmed. */
export async function mailshotRunCounts(db: Db, jobId: number): Promise<{ sent: number; unconfirmed: string[] }> {
  const rows = await db
    .select({ status: mailLog.status, name: people.fullName })
    .from(mailLog)
    .leftJoin(people, eq(people.id, mailLog.personId))
    .where(and(eq(mailLog.kind, "MAILSHOT"), eq(mailLog.jobId, jobId)))
    .orderBy(people.lastNameKey, people.firstNameKey);
  return {
    sent: rows.filter((row) => row.status === "SENT").length,
    unconfirmed: rows.filter((row) => row.status === "CLAIMED").map((row) => row.name ?? "unbekannt"),
  };
}
