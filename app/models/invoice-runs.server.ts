/**
 * Rechnungen schreiben (spec 001 §4 Mass invoice creation, §9): every fee with sendInvoice set
 * and not yet invoiced is billed, grouped by person. A person gets a new draft, or their draft
 * gets the rows appended; rows are numbered on; the fees are marked invoiced. Then (unless the
 * user asked for drafts only) the slice's drafts are issued in the same batch (issue 30): invoice
 * numbers come from the configuration's lastInvoiceNumber, in name order (invoices.server.ts
 * issueStatements).
 *
 * A run bills its people in slices (one queue message each). A slice is one D1 batch written in
 * set-based SQL that only picks up what is still unbilled and issues only drafts, so a redelivered
 * slice finds nothing to do: no fee is billed twice (also a unique index on invoice_rows.fee_id)
 * and no invoice takes a second number. Within a run the numbers follow on without gaps (one run
 * at a time; a batch is one transaction).
 *
 * Beyond the spec: the run can be previewed before it starts, and the last run can be undone while
 * its invoices are still drafts (an issued invoice is never deleted, only cancelled).
 */
import { and, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { valuesOf } from "~/db/columns";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { configuration, fees, invoiceHeaders, invoiceRows, jobs, people } from "~/db/schema";
import { issueStatements } from "./invoices.server";
import { addDaysToDate, formatCount } from "~/lib/format";
import type { Actor } from "./audit.server";
import { defaultTaxCaseOfFee } from "./tax.server";
import { isAbortedAsUnchanged } from "./constraints.server";
import { getJob, paramsOfJob, type JobRecord } from "./jobs.server";

/** People per queue message: a slice stays far below D1's limits per batch. */
export const INVOICE_SLICE_SIZE = 50;
/** Bulk invoice due date: invoice date plus 30 days (spec 001 §9). */
const INVOICE_DUE_DAYS = 30;

export const NOTHING_TO_BILL = "Keine Offenen Posten zu berechnen";

/** What a run wrote, kept with the job once it is finished (the undo reads it). */
export type InvoiceRunResult = { created: number; extended: number; rows: number; firstNumber: number | null; lastNumber: number | null };
/** `draftsOnly`: leave the invoices as drafts (issued later one by one); else they are issued. */
export type InvoiceRunParams = { date: string; dueDate: string; draftsOnly?: boolean; result?: InvoiceRunResult };

/** A fee the run bills: flagged for an invoice, not yet invoiced, on no invoice row. */
const billable = (fee: SQL) =>
  sql`${fee}.send_invoice = 1 AND ${fee}.is_invoiced = 0 AND NOT EXISTS (SELECT 1 FROM ${invoiceRows} br WHERE br.fee_id = ${fee}.id AND br.fee_released = 0)`;

/**
 * The same for the fees of given people (`fee`.person_id is constrained by the statement). The
 * unary + keeps SQLite off fees_billing_idx for these fees: without table statistics it prefers
 * that index's two equalities to fees_person_idx and walks every unbilled fee of the club for
 * each person of a slice (measured: the slices' SQL took ~4× as long on 26,000 unbilled fees).
 */
const billableOfPeople = (fee: SQL) =>
  sql`+${fee}.send_invoice = 1 AND +${fee}.is_invoiced = 0 AND NOT EXISTS (SELECT 1 FROM ${invoiceRows} br WHERE br.fee_id = ${fee}.id AND br.fee_released = 0)`;

/** An invoice the run may extend: a draft. */
const extendable = (header: SQL) => sql`${header}.status = 'DRAFT'`;

/** The person's newest invoice the run may extend, or NULL. */
const extendableInvoiceOf = (personId: SQL) => sql`(SELECT max(xh.id) FROM ${invoiceHeaders} xh WHERE xh.person_id = ${personId} AND ${extendable(sql`xh`)})`;

export type InvoiceRunPreview = {
  fees: number;
  people: number;
  total: number;
  newInvoices: number;
  extendedInvoices: number;
  /** The numbers the issued invoices take (one per person billed). */
  firstNumber: number;
  lastNumber: number;
  date: string;
  dueDate: string;
  /** Why the run cannot start (German), or null. */
  problem: string | null;
};

/** What a run started now would do: the Tasks screen shows it before asking to confirm. */
export async function previewInvoiceRun(db: Db, today: string): Promise<InvoiceRunPreview> {
  const [counts] = await db
    .select({
      fees: sql<number>`count(*)`,
      people: sql<number>`count(DISTINCT ${fees.personId})`,
      total: sql<number>`coalesce(sum(${fees.amount}), 0)`,
      extended: sql<number>`count(DISTINCT CASE WHEN ${extendableInvoiceOf(sql`${fees.personId}`)} IS NOT NULL THEN ${fees.personId} END)`,
    })
    .from(fees)
    .where(billable(sql`"fees"`));
  const [numbers] = await db
    .select({ last: configuration.lastInvoiceNumber, highest: sql<number | null>`(SELECT max(invoice_number) FROM ${invoiceHeaders})` })
    .from(configuration)
    .where(eq(configuration.id, 1));
  const newInvoices = counts.people - counts.extended;
  const last = Math.max(numbers?.last ?? 0, numbers?.highest ?? 0);
  let problem: string | null = null;
  if (counts.fees === 0) problem = NOTHING_TO_BILL;
  else if (!numbers) problem = "Die Einstellungen sind noch nicht gespeichert: Ohne „Letzte Rechnungs Nr“ können keine Rechnungsnummern vergeben werden.";

  return {
    fees: counts.fees,
    people: counts.people,
    total: counts.total,
    newInvoices,
    extendedInvoices: counts.extended,
    firstNumber: last + 1,
    lastNumber: last + counts.people,
    date: today,
    dueDate: addDaysToDate(today, INVOICE_DUE_DAYS),
    problem,
  };
}

/** The people to bill, in name order (their new invoices are numbered in this order). */
export async function peopleToBill(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: people.id })
    .from(people)
    // IN, not a correlated EXISTS: the unbilled fees are read once (EXISTS per person took 4 s on 5,000 people).
    .where(sql`${people.id} IN (SELECT f.person_id FROM ${fees} f WHERE ${billable(sql`f`)})`)
    .orderBy(people.lastNameKey, people.firstNameKey, people.id);
  return rows.map((row) => row.id);
}

/**
 * The batch that bills one slice of people. Each statement only acts on what is still unbilled,
 * so running it again changes nothing.
 */
export function invoiceSliceStatements(
  jobId: number,
  personIds: readonly number[],
  params: InvoiceRunParams,
  actor: Actor,
  now: Date,
  today = params.date,
): Statement[] {
  const iso = now.toISOString();
  const slice = valuesOf(personIds);
  const billed = [
    // New drafts for the people without one to extend (no number yet: issuing gives it).
    render(sql`INSERT INTO ${invoiceHeaders} (person_id, status, date, due_date, amount, open_amount, job_id, created_by, created_on)
      SELECT p.id, 'DRAFT', ${params.date}, ${params.dueDate}, 0, 0, ${jobId}, ${actor.name}, ${iso}
      FROM ${people} p
      WHERE p.id IN ${slice}
        AND EXISTS (SELECT 1 FROM ${fees} f WHERE f.person_id = p.id AND ${billableOfPeople(sql`f`)})
        AND ${extendableInvoiceOf(sql`p.id`)} IS NULL`),
    // A row per fee on the person's draft, numbered on after the rows it already has.
    render(sql`INSERT INTO ${invoiceRows} (invoice_id, fee_id, line_number, text, amount, tax_case, job_id, created_by, created_on)
      SELECT x.invoice_id, x.fee_id,
        (SELECT coalesce(max(r.line_number), 0) FROM ${invoiceRows} r WHERE r.invoice_id = x.invoice_id) + row_number() OVER (PARTITION BY x.invoice_id ORDER BY x.date, x.fee_id),
        x.text, x.amount, x.tax_case, ${jobId}, ${actor.name}, ${iso}
      FROM (SELECT f.id AS fee_id, f.date, f.text, f.amount, ${defaultTaxCaseOfFee(sql`f`)} AS tax_case, ${extendableInvoiceOf(sql`f.person_id`)} AS invoice_id
            FROM ${fees} f WHERE f.person_id IN ${slice} AND ${billableOfPeople(sql`f`)}) x
      WHERE x.invoice_id IS NOT NULL`),
    // Per fee of the slice's people (an IN over every invoice row would grow with the run).
    render(sql`UPDATE ${fees} SET is_invoiced = 1, last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
      WHERE person_id IN ${slice} AND +is_invoiced = 0 AND EXISTS (SELECT 1 FROM ${invoiceRows} r WHERE r.fee_id = ${fees.id} AND r.fee_released = 0)`),
    // Totals follow the rows (a draft has nothing open). Driven by the slice's people; the +
    // keeps each invoice's rows on their invoice index, not the job's.
    render(sql`UPDATE ${invoiceHeaders} SET amount = (SELECT sum(amount) FROM ${invoiceRows} r WHERE r.invoice_id = ${invoiceHeaders.id}), open_amount = 0,
        last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
      WHERE person_id IN ${slice} AND status = 'DRAFT' AND EXISTS (SELECT 1 FROM ${invoiceRows} r WHERE r.invoice_id = ${invoiceHeaders.id} AND +r.job_id = ${jobId})
        AND amount <> (SELECT sum(amount) FROM ${invoiceRows} r WHERE r.invoice_id = ${invoiceHeaders.id})`),
  ];
  if (params.draftsOnly) return billed;
  // The drafts this run wrote to for the slice's people, issued in name order.
  const drafts = sql`(SELECT DISTINCT r.invoice_id FROM ${invoiceRows} r JOIN ${invoiceHeaders} dh ON dh.id = r.invoice_id WHERE +r.job_id = ${jobId} AND dh.person_id IN ${slice})`;
  return [...billed, ...issueStatements(drafts, sql`p.last_name_key, p.first_name_key, p.id`, actor, now, today)];
}

/** What the run wrote: new and extended invoices, rows, the numbers it took. */
export async function invoiceRunResult(db: Db, jobId: number): Promise<InvoiceRunResult> {
  const [row] = await db
    .select({
      created: sql<number>`(SELECT count(*) FROM ${invoiceHeaders} WHERE job_id = ${jobId})`,
      extended: sql<number>`(SELECT count(DISTINCT r.invoice_id) FROM ${invoiceRows} r JOIN ${invoiceHeaders} h ON h.id = r.invoice_id WHERE r.job_id = ${jobId} AND h.job_id IS NOT ${jobId})`,
      rows: sql<number>`(SELECT count(*) FROM ${invoiceRows} WHERE job_id = ${jobId})`,
      firstNumber: sql<number | null>`(SELECT min(h.invoice_number) FROM ${invoiceHeaders} h WHERE ${touchedBy(jobId)})`,
      lastNumber: sql<number | null>`(SELECT max(h.invoice_number) FROM ${invoiceHeaders} h WHERE ${touchedBy(jobId)})`,
    })
    .from(sql`(SELECT 1)`);
  return row;
}

/** '12 Rechnungen eingefügt' (spec), and how many unsent invoices got rows appended. */
export function invoiceRunMessage(result: InvoiceRunResult): string {
  const inserted = `${formatCount(result.created, "Rechnung", "Rechnungen")} eingefügt`;
  return result.extended > 0 ? `${inserted}, ${formatCount(result.extended, "offene Rechnung", "offene Rechnungen")} ergänzt` : inserted;
}

// ---------------------------------------------------------------------------------------------
// Undo of a run (beyond the spec)

export const paramsOf = (job: Pick<JobRecord, "params">) => paramsOfJob<InvoiceRunParams>(job);

/** The invoices a run created or extended. */
const touchedBy = (jobId: number) => sql`(h.job_id = ${jobId} OR h.id IN (SELECT invoice_id FROM ${invoiceRows} WHERE job_id = ${jobId}))`;

/** Counts of what stands in the way of an undo; all 0 when the run can be taken back. */
function undoBlockers(job: JobRecord, result: InvoiceRunResult) {
  const finished = job.finishedOn ?? "";
  return {
    issued: sql<number>`(SELECT count(*) FROM ${invoiceHeaders} h WHERE ${touchedBy(job.id)} AND NOT (${extendable(sql`h`)}))`,
    changed: sql<number>`(SELECT count(*) FROM ${invoiceHeaders} h WHERE ${touchedBy(job.id)} AND coalesce(h.last_modified_on, h.created_on) > ${finished})`,
    deleted: sql<number>`(SELECT count(*) FROM ${invoiceHeaders} WHERE job_id = ${job.id}) <> ${result.created}`,
    later: sql<number>`(SELECT count(*) FROM ${jobs} WHERE type = 'INVOICES' AND id > ${job.id} AND undone_on IS NULL)`,
  };
}

/** Why the run cannot be undone (German), or null when it can. */
export async function invoiceRunUndoRefusal(db: Db, job: JobRecord | undefined): Promise<string | null> {
  if (!job || job.type !== "INVOICES") return "Diesen Lauf gibt es nicht.";
  if (job.undoneOn) return "Dieser Lauf wurde bereits rückgängig gemacht.";
  const result = paramsOf(job).result;
  if (!result || job.status === "QUEUED" || job.status === "RUNNING") return "Der Lauf ist noch nicht fertig.";
  const blockers = undoBlockers(job, result);
  const [found] = await db
    .select({ issued: blockers.issued, changed: blockers.changed, deleted: blockers.deleted, later: blockers.later })
    .from(sql`(SELECT 1)`);
  if (found.later > 0) return "Nur der letzte Lauf kann rückgängig gemacht werden.";
  if (found.issued > 0) {
    return `${formatCount(found.issued, "Rechnung", "Rechnungen")} dieses Laufs ${found.issued === 1 ? "ist" : "sind"} ausgestellt: Ausgestellte Rechnungen werden nicht gelöscht, nur storniert.`;
  }
  if (found.changed > 0) {
    return `${formatCount(found.changed, "Rechnungsentwurf", "Rechnungsentwürfe")} dieses Laufs ${found.changed === 1 ? "wurde" : "wurden"} inzwischen bearbeitet.`;
  }
  if (Number(found.deleted) > 0) return "Ein Rechnungsentwurf dieses Laufs wurde gelöscht (er liegt im Papierkorb).";
  return null;
}

export type UndoOutcome = { status: "undone"; result: InvoiceRunResult } | { status: "refused"; message: string };

/**
 * Takes a run of drafts back in one batch: its rows go (the drafts it extended get their totals
 * back), its new drafts go and its fees are billable again (drafts took no numbers). A guard
 * statement re-checks in the batch what the refusal checked before.
 */
export async function undoInvoiceRun(db: Db, jobId: number, actor: Actor, now = new Date()): Promise<UndoOutcome> {
  const job = await getJob(db, jobId);
  const refusal = await invoiceRunUndoRefusal(db, job);
  if (refusal || !job) return { status: "refused", message: refusal ?? "Diesen Lauf gibt es nicht." };
  const result = paramsOf(job).result!;
  const blockers = undoBlockers(job, result);
  const iso = now.toISOString();
  const sumOfRunRows = sql`(SELECT sum(r.amount) FROM ${invoiceRows} r WHERE r.invoice_id = ${invoiceHeaders.id} AND r.job_id = ${jobId})`;
  const statements: Statement[] = [
    // Each count in parentheses: SQLite's > binds tighter than the <> inside `deleted`.
    render(sql`SELECT CASE WHEN (${blockers.issued}) + (${blockers.changed}) + (${blockers.deleted}) + (${blockers.later}) > 0 THEN json('blocked') END`),
    render(sql`UPDATE ${invoiceHeaders} SET amount = amount - ${sumOfRunRows}, open_amount = 0,
        last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
      WHERE job_id IS NOT ${jobId} AND id IN (SELECT invoice_id FROM ${invoiceRows} WHERE job_id = ${jobId})`),
    render(sql`UPDATE ${fees} SET is_invoiced = 0, last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
      WHERE id IN (SELECT fee_id FROM ${invoiceRows} WHERE job_id = ${jobId} AND fee_id IS NOT NULL)`),
    render(sql`DELETE FROM ${invoiceRows} WHERE job_id = ${jobId}`),
    render(sql`DELETE FROM ${invoiceHeaders} WHERE job_id = ${jobId}`),
    render(sql`UPDATE ${jobs} SET undone_on = ${iso}, undone_by = ${actor.name} WHERE id = ${jobId} AND undone_on IS NULL`),
    ABORT_UNLESS_CHANGED,
  ];
  try {
    await runAtomically(db, statements);
  } catch (error) {
    if (isAbortedAsUnchanged(error))
      return {
        status: "refused",
        message: (await invoiceRunUndoRefusal(db, await getJob(db, jobId))) ?? "Der Lauf hat sich inzwischen geändert. Bitte noch einmal versuchen.",
      };
    throw error;
  }
  return { status: "undone", result };
}

/** The newest invoicing run, for the Tasks screen's undo button. */
export async function latestInvoiceRun(db: Db): Promise<JobRecord | undefined> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.type, "INVOICES"), isNull(jobs.undoneOn)))
    .orderBy(desc(jobs.id))
    .limit(1);
  return row;
}
