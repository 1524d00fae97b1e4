/**
 * Mailshots (spec 001 §3 Mailshot): a predefined mail to a group. The group is one of the named
 * recipient queries below, which replace the spec's stored procedures (storedProcedureName is the
 * column recipient_query). Attachments are R2 keys (attachDocPath1/2).
 */
import { and, asc, count, desc, eq, exists, gt, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { courseMemberships, courses, invoiceHeaders, mailshots, membershipStatuses, people } from "~/db/schema";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { isRecipientQuery, NO_CONSENT, NO_EMAIL, type MailInvoice, type MailPerson, type RecipientQuery } from "~/lib/mail";
import { auditInsert, updateVersioned, type Actor, type UpdateOutcome } from "./audit.server";
import { mailInvoiceColumns } from "./mails.server";
import { mailConsentAllows } from "./people.server";
import { moveToBin } from "./recycle-bin.server";

export type MailshotRecord = typeof mailshots.$inferSelect;

/** The SQL of each recipient query (labels in app/lib/mail.ts): who it finds. */
const RECIPIENT_QUERIES: Record<RecipientQuery, (today: string) => SQL | undefined> = {
  members: (today) => and(eq(people.isMember, true), or(isNull(people.memberUntil), sql`${people.memberUntil} >= ${today}`)),
  runningCourses: () =>
    sql`${people.id} IN (SELECT ${courseMemberships.personId} FROM ${courseMemberships}
      JOIN ${courses} ON ${courses.id} = ${courseMemberships.courseId}
      JOIN ${membershipStatuses} ON ${membershipStatuses.id} = ${courseMemberships.statusId}
      WHERE ${courses.statusCode} <> 'FINISHED' AND ${membershipStatuses.code} = 'CONFIRMED')`,
  openInvoices: () => exists(sql`SELECT 1 FROM ${invoiceHeaders} WHERE ${invoiceHeaders.personId} = ${people.id} AND ${invoiceHeaders.openAmount} > 0`),
  everybody: () => undefined,
};

const hasEmail = sql`coalesce(trim(${people.email}), '') <> ''`;

/** Someone a mailshot leaves out, and why ('keine E-Mail-Adresse', 'keine Einwilligung'). */
export type LeftOut = { name: string; reason: string };

/**
 * Who a mailshot reaches (with an e-mail address and consent, in name order) and who it leaves
 * out and why: without an e-mail address, or without GDPR consent (mailConsentAllows).
 */
export async function mailshotRecipients(db: Db, query: string, today: string): Promise<{ recipients: MailPerson[]; leftOut: LeftOut[] }> {
  if (!isRecipientQuery(query)) return { recipients: [], leftOut: [] };
  const where = RECIPIENT_QUERIES[query](today);
  const [recipients, leftOut] = await db.batch([
    db
      .select({
        id: people.id,
        salutation: people.salutation,
        title: people.title,
        firstName: people.firstName,
        lastName: people.lastName,
        email: people.email,
        dateOfBirth: people.dateOfBirth,
      })
      .from(people)
      .where(and(where, hasEmail, mailConsentAllows))
      .orderBy(people.lastNameKey, people.firstNameKey, people.id),
    db
      .select({ name: people.fullName, hasEmail: sql<number>`${hasEmail}` })
      .from(people)
      .where(and(where, sql`NOT (${hasEmail} AND ${mailConsentAllows})`))
      .orderBy(people.lastNameKey, people.firstNameKey, people.id),
  ]);
  return { recipients, leftOut: leftOut.map((row) => ({ name: row.name ?? "", reason: row.hasEmail ? NO_CONSENT : NO_EMAIL })) };
}

/** The invoice a mailshot attaches for a person: their newest invoice with a PDF, an open one first. */
export async function invoiceToAttach(db: Db, personId: number): Promise<MailInvoice | undefined> {
  const [row] = await db
    .select(mailInvoiceColumns)
    .from(invoiceHeaders)
    .where(
      and(
        eq(invoiceHeaders.personId, personId),
        eq(invoiceHeaders.status, "ISSUED"),
        // An invoice, not a Stornorechnung or Gutschrift (they have their own mail).
        eq(invoiceHeaders.kind, "INVOICE"),
        ne(sql`coalesce(${invoiceHeaders.pdfFilePath}, '')`, ""),
      ),
    )
    .orderBy(desc(gt(invoiceHeaders.openAmount, 0)), desc(invoiceHeaders.date), desc(invoiceHeaders.id))
    .limit(1);
  return row;
}

// ---------------------------------------------------------------------------------------------
// CRUD

export type MailshotInput = {
  name: string;
  recipientQuery: RecipientQuery;
  templateName: string;
  subject: string;
  cc: string | null;
  attachInvoice: boolean;
  attachDocPath1: string | null;
  attachDocPath2: string | null;
};

export async function getMailshot(db: Db, id: number): Promise<MailshotRecord | undefined> {
  const [row] = await db.select().from(mailshots).where(eq(mailshots.id, id));
  return row;
}

export async function mailshotNameTaken(db: Db, name: string, exceptId: number | null): Promise<boolean> {
  const [row] = await db
    .select({ id: mailshots.id })
    .from(mailshots)
    .where(and(sql`lower(${mailshots.name}) = lower(${name})`, exceptId ? ne(mailshots.id, exceptId) : undefined))
    .limit(1);
  return row !== undefined;
}

export async function insertMailshot(db: Db, input: MailshotInput, actor: Actor): Promise<number> {
  const [row] = await db
    .insert(mailshots)
    .values({ ...input, ...auditInsert(actor) })
    .returning({ id: mailshots.id });
  return row.id;
}

export function updateMailshot(db: Db, id: number, rowVersion: number, input: MailshotInput, actor: Actor): Promise<UpdateOutcome<MailshotRecord>> {
  return updateVersioned(db, mailshots, { id, rowVersion }, input, actor, () => getMailshot(db, id));
}

/** Into the Papierkorb (its R2 attachments stay, so a restore finds them again). */
export async function deleteMailshot(db: Db, id: number, actor: Actor): Promise<{ status: "deleted"; transactionId: number } | { status: "missing" }> {
  if (!(await getMailshot(db, id))) return { status: "missing" };
  const transactionId = await moveToBin(db, {
    main: { table: mailshots, where: eq(mailshots.id, id), identifiers: [sql`${mailshots.name}`] },
    deletedBy: actor.name,
  });
  return { status: "deleted", transactionId };
}

/** Mailshots by name, for the Tasks selector. */
export async function mailshotChoices(db: Db): Promise<{ id: number; name: string }[]> {
  return db.select({ id: mailshots.id, name: mailshots.name }).from(mailshots).orderBy(asc(mailshots.name));
}

export type MailshotRow = MailshotRecord;
export const MAILSHOT_DEFAULT_SORT: SortSpec = { id: "name", descending: false };

export async function listMailshots(db: Db, query: { sort: SortSpec; page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const column =
    { name: mailshots.name, subject: mailshots.subject, templateName: mailshots.templateName, recipientQuery: mailshots.recipientQuery }[query.sort.id] ??
    mailshots.name;
  const [rows, [{ total }]] = await db.batch([
    db
      .select()
      .from(mailshots)
      .orderBy(query.sort.descending ? desc(column) : asc(column), asc(mailshots.id))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db.select({ total: count() }).from(mailshots),
  ]);
  return { rows, total };
}
