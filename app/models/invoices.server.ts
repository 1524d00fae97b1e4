/**
 * All queries and writes of invoices (Rechnungen) and their rows (Rechnungszeilen), spec 001 §2-§4.
 * The header's amount is the sum of its rows and its open amount stays between 0 and the amount:
 * every row change recomputes both in the same D1 batch.
 *
 * The life cycle (issue 30, § 146 Abs. 4 AO, § 14 UStG, GoBD): an invoice is a draft (Entwurf)
 * until it is issued. A draft has no number and nothing open on it (its fees are still the open
 * claims); its rows and dates can be changed and it can be deleted (into the Papierkorb, its fees
 * billable again). Issuing gives it the next number of the counter, the day's date, the
 * recipient's name and address and each row's date of service, and settles its fees ('ReNr {n}'),
 * in one batch. An issued invoice is never changed or deleted: only its sent date, payment fields
 * and comment (app/db/frozen.ts enforces it below the models).
 */
import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { type SQLiteSelect } from "drizzle-orm/sqlite-core";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { qualified } from "~/db/columns";
import {
  configuration,
  courseDates,
  courseMemberships,
  courses,
  fees,
  invoiceHeaders,
  invoiceRows,
  paymentAllocations,
  payments,
  people,
  type InvoiceKind,
  type InvoiceStatus,
} from "~/db/schema";
import { formatMoney } from "~/lib/format";
import { INVOICE_KIND_LABELS } from "~/lib/invoice-state";
import type { TaxCase } from "~/lib/tax";
import type { BookingOverride } from "~/lib/ledger";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { type Actor } from "./audit.server";
import { errorText, isAbortedAsUnchanged, isForeignKeyViolation, isFrozenInvoice } from "./constraints.server";
import {
  allocationStatements,
  dialogPaymentStatements,
  invoiceFeesSettled,
  isDuplicateEntry,
  OPEN_AMOUNT_RAISED,
  PAYMENT_ALREADY_BOOKED,
  PAYMENT_REFERENCE_PREFIX,
  paymentReferenceOf,
  type DialogPayment,
} from "./payments.server";
import { pageOfPosition, personNameKeys, positionInOrder, sortKey, type SortKey } from "./paging.server";
import type { DeleteOutcome } from "./people.server";
import { moveToBin, type Change } from "./recycle-bin.server";
import { reminderFilterCondition, type ReminderFilter } from "./reminders.server";
import { DEFAULT_TAX_CASE_OF_OTHER } from "./tax.server";
import { todayInBerlin } from "~/lib/format";

const isNegativeTotal = (error: unknown) => errorText(error).includes("CHECK constraint failed") && errorText(error).includes("invoice_headers");

/** Why an issued invoice's dates, rows and amount cannot be changed (the models and the dialogs say it). */
export const ISSUED_INVOICE_FROZEN =
  "Die Rechnung ist ausgestellt: Datum, Fälligkeit, Empfänger, Zeilen und Beträge sind festgeschrieben und können nicht mehr geändert werden (§ 146 Abs. 4 AO). Korrigieren lässt sie sich nur mit einer Stornorechnung.";
/** Why an issued invoice cannot be deleted. */
export const ISSUED_INVOICE_KEPT =
  "Eine ausgestellte Rechnung wird nicht gelöscht: Sie ist aufzubewahren (§ 147 AO, § 14b UStG). Korrigieren lässt sie sich nur mit einer Stornorechnung.";

export const NEGATIVE_TOTAL =
  "Der Rechnungsbetrag darf nicht negativ werden: Eine Zeile darf ein Abzug sein, die Summe aller Zeilen aber nicht unter 0,00 € fallen.";
const INVOICE_NOT_FOUND = "Diese Rechnung gibt es nicht (mehr).";

// ---------------------------------------------------------------------------------------------
// Invoice headers: the list

export const INVOICE_STATUS_FILTERS = ["all", "draft", "open", "paid"] as const;
export type InvoiceStatusFilter = (typeof INVOICE_STATUS_FILTERS)[number];
export const INVOICE_DEFAULT_SORT: SortSpec = { id: "invoiceNumber", descending: true };

/** `reminder`: the toggle 'Nur gemahnte' / 'Mahnung fällig' ('due' reads the stored reminder levels). */
export type InvoiceHeaderQuery = {
  status: InvoiceStatusFilter;
  personId?: number;
  sort: SortSpec;
  reminder?: ReminderFilter;
  today?: string;
};

/** The Stornorechnung that cancelled the listed invoice, or null. The outer id is named with its
 *  table: drizzle leaves columns unqualified in a one-table query, where `id` would be the inner one. */
const cancellingStorno = sql<number | null>`(SELECT s.id FROM ${invoiceHeaders} s WHERE s.corrects_invoice_id = "invoice_headers"."id" AND s.kind = 'STORNO')`;

const headerColumns = {
  id: invoiceHeaders.id,
  personId: invoiceHeaders.personId,
  personName: sql<string | null>`${people.fullName}`.as("person_name"),
  invoiceNumber: invoiceHeaders.invoiceNumber,
  status: invoiceHeaders.status,
  kind: invoiceHeaders.kind,
  date: invoiceHeaders.date,
  sentDate: invoiceHeaders.sentDate,
  dueDate: invoiceHeaders.dueDate,
  amount: invoiceHeaders.amount,
  openAmount: invoiceHeaders.openAmount,
  comments: invoiceHeaders.comments,
  paymentComments: invoiceHeaders.paymentComments,
  pdfFilePath: invoiceHeaders.pdfFilePath,
  personErased: sql<boolean>`${people.erasedOn} IS NOT NULL`.mapWith(Boolean).as("person_erased"),
  personIsBusiness: sql<boolean>`${people.isBusiness}`.mapWith(Boolean).as("person_is_business"),
  cancelled: sql<boolean>`${cancellingStorno} IS NOT NULL`.mapWith(Boolean).as("cancelled"),
  nrOfRows: sql<number>`(SELECT count(*) FROM ${invoiceRows} r WHERE r.invoice_id = ${qualified(invoiceHeaders.id)})`.as("nr_of_rows"),
  reminderLevel: invoiceHeaders.reminderLevel,
  lastReminderDate: invoiceHeaders.lastReminderDate,
};

export type InvoiceHeaderRow = {
  id: number;
  personId: number;
  personName: string | null;
  /** NULL while a draft. */
  invoiceNumber: number | null;
  status: InvoiceStatus;
  kind: InvoiceKind;
  date: string;
  sentDate: string | null;
  dueDate: string | null;
  amount: number;
  openAmount: number;
  isOpen: boolean;
  comments: string | null;
  paymentComments: string | null;
  pdfFilePath: string | null;
  /** The person was erased (GDPR): no mail goes to 'Gelöschte Person'. */
  personErased: boolean;
  /** The recipient is an Unternehmer: the invoice is offered as an e-invoice (XRechnung, issue 35). */
  personIsBusiness: boolean;
  /** A Stornorechnung cancelled it (issue 30). */
  cancelled: boolean;
  nrOfRows: number;
  /** Mahnstufe (0 without a reminder) and the date of the last reminder. */
  reminderLevel: number;
  lastReminderDate: string | null;
};

const HEADER_SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${invoiceHeaders.id}`),
  date: sortKey(sql`${invoiceHeaders.date}`),
  invoiceNumber: sortKey(sql`${invoiceHeaders.invoiceNumber}`),
  personName: sortKey(...personNameKeys(invoiceHeaders.personId)),
  amount: sortKey(sql`${invoiceHeaders.amount}`),
  openAmount: sortKey(sql`${invoiceHeaders.openAmount}`),
  isOpen: sortKey(sql`(${invoiceHeaders.openAmount} > 0)`),
  sentDate: sortKey(sql`${invoiceHeaders.sentDate}`),
  dueDate: sortKey(sql`${invoiceHeaders.dueDate}`),
  pdfFilePath: sortKey(sql`${invoiceHeaders.pdfFilePath}`),
  comments: sortKey(sql`${invoiceHeaders.comments}`),
  paymentComments: sortKey(sql`${invoiceHeaders.paymentComments}`),
  reminderLevel: sortKey(sql`${invoiceHeaders.reminderLevel}`),
  lastReminderDate: sortKey(sql`${invoiceHeaders.lastReminderDate}`),
};

function headerOrder(sort: SortSpec): SQL[] {
  return [(HEADER_SORTS[sort.id] ?? HEADER_SORTS.invoiceNumber)(sort.descending), desc(invoiceHeaders.invoiceNumber), asc(invoiceHeaders.id)];
}

function headerWhere({ status, personId, reminder, today = todayInBerlin() }: Omit<InvoiceHeaderQuery, "sort">) {
  return and(
    reminderFilterCondition(reminder, "INVOICE", today),
    status === "open"
      ? sql`${invoiceHeaders.openAmount} > 0`
      : status === "paid"
        ? sql`${invoiceHeaders.status} = 'ISSUED' AND ${invoiceHeaders.openAmount} = 0`
        : status === "draft"
          ? sql`${invoiceHeaders.status} = 'DRAFT'`
          : undefined,
    personId ? eq(invoiceHeaders.personId, personId) : undefined,
  );
}

function joinedHeaders<Query extends SQLiteSelect>(select: Query, query: Omit<InvoiceHeaderQuery, "sort">) {
  return select.innerJoin(people, eq(people.id, invoiceHeaders.personId)).where(headerWhere(query));
}

const toHeaderRow = (row: Omit<InvoiceHeaderRow, "isOpen">): InvoiceHeaderRow => ({
  ...row,
  amount: row.amount ?? 0,
  openAmount: row.openAmount ?? 0,
  isOpen: (row.openAmount ?? 0) > 0,
});

/** One page of invoices and the number of all that match, in one round trip. */
export async function listInvoiceHeaders(db: Db, query: InvoiceHeaderQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const [rows, [{ total }]] = await db.batch([
    joinedHeaders(db.select(headerColumns).from(invoiceHeaders).$dynamic(), query)
      .orderBy(...headerOrder(query.sort))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db.select({ total: count() }).from(invoiceHeaders).where(headerWhere(query)),
  ]);
  return { rows: (rows as Omit<InvoiceHeaderRow, "isOpen">[]).map(toHeaderRow), total };
}

export async function pageOfInvoiceHeader(db: Db, id: number, query: InvoiceHeaderQuery, pageSize = PAGE_SIZE) {
  const ordered = joinedHeaders(
    db
      .select({ id: invoiceHeaders.id, position: positionInOrder(headerOrder(query.sort)) })
      .from(invoiceHeaders)
      .$dynamic(),
    query,
  ).as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

/** '2026001 an Erika Muster' ('Entwurf an Erika Muster' before it is issued): how the rows' title names an invoice. */
export const invoiceLabel = (header: { invoiceNumber: number | null; personName: string | null }) =>
  `${header.invoiceNumber ?? "Entwurf"} an ${header.personName ?? ""}`.trim();

/** 'Rechnung 2026001', 'Stornorechnung 2026002', 'Rechnungsentwurf': an invoice's document name. */
export const invoiceTitle = (header: { invoiceNumber: number | null; kind?: InvoiceKind }) =>
  header.invoiceNumber === null ? "Rechnungsentwurf" : `${INVOICE_KIND_LABELS[header.kind ?? "INVOICE"]} ${header.invoiceNumber}`;

/** An invoice's number and person (the tab title), and whether it is open (the toggle follows it). */
export async function invoiceName(db: Db, id: number) {
  const [row] = await db
    .select({ invoiceNumber: invoiceHeaders.invoiceNumber, status: invoiceHeaders.status, personName: people.fullName, openAmount: invoiceHeaders.openAmount })
    .from(invoiceHeaders)
    .innerJoin(people, eq(people.id, invoiceHeaders.personId))
    .where(eq(invoiceHeaders.id, id));
  return row ? { ...row, name: invoiceLabel(row), isOpen: (row.openAmount ?? 0) > 0, issued: row.status === "ISSUED" } : undefined;
}

export type InvoiceHeaderRecord = typeof invoiceHeaders.$inferSelect & { personName: string | null; nrOfRows: number; feeCount: number };

export async function getInvoiceHeader(db: Db, id: number): Promise<InvoiceHeaderRecord | undefined> {
  const [row] = await db
    .select({
      header: invoiceHeaders,
      personName: people.fullName,
      nrOfRows: sql<number>`(SELECT count(*) FROM ${invoiceRows} r WHERE r.invoice_id = ${qualified(invoiceHeaders.id)})`,
      feeCount: sql<number>`(SELECT count(*) FROM ${invoiceRows} r WHERE r.invoice_id = ${qualified(invoiceHeaders.id)} AND r.fee_id IS NOT NULL)`,
    })
    .from(invoiceHeaders)
    .innerJoin(people, eq(people.id, invoiceHeaders.personId))
    .where(eq(invoiceHeaders.id, id));
  return row ? { ...row.header, personName: row.personName, nrOfRows: row.nrOfRows, feeCount: row.feeCount } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Invoice headers: save and delete

/** What the invoice dialog changes; person and amount are never taken from the form. */
export type InvoiceHeaderInput = {
  date: string;
  dueDate: string | null;
  sentDate: string | null;
  /** Ist Offen: false settles the invoice (open amount 0); true keeps `openAmount` (null: the amount). */
  isOpen: boolean;
  openAmount: number | null;
  comments: string | null;
  paymentComments: string | null;
  /** How a payment the lower open amount stands for came in, booked as a journal entry (default: a transfer today). */
  payment?: DialogPayment;
};

export type InvoiceSaveOutcome =
  { status: "updated" } | { status: "conflict"; current: InvoiceHeaderRecord } | { status: "missing" } | { status: "refused"; message: string; field?: string };

/** The open amount a save stores: 0 when not open, else the typed one (or the whole amount). */
export const openAmountOf = (input: Pick<InvoiceHeaderInput, "isOpen" | "openAmount">, amount: number) => (input.isOpen ? (input.openAmount ?? amount) : 0);

/**
 * Saves an invoice (spec 001 §4 Invoice) quoting its rowVersion. A draft takes its date and due
 * date (nothing is open on it yet: its fees are). An issued invoice keeps them (frozen, issue 30):
 * a change of either is refused; its sent date, payment fields and comments are saved, and in the
 * same batch every fee billed on its rows stays settled (open amount 0, no due date, 'ReNr {n}').
 * A stale version writes nothing.
 */
export async function updateInvoiceHeader(
  db: Db,
  id: number,
  rowVersion: number,
  input: InvoiceHeaderInput,
  actor: Actor,
  now = new Date(),
): Promise<InvoiceSaveOutcome> {
  const before = await getInvoiceHeader(db, id);
  if (!before) return { status: "missing" };
  if (before.rowVersion !== rowVersion) return { status: "conflict", current: before };
  const issued = before.status === "ISSUED";
  if (issued && (input.date !== before.date || input.dueDate !== before.dueDate)) {
    return { status: "refused", field: input.date !== before.date ? "date" : "dueDate", message: ISSUED_INVOICE_FROZEN };
  }
  const openAmount = issued ? openAmountOf(input, before.amount ?? 0) : 0;
  if (openAmount > (before.amount ?? 0)) {
    return {
      status: "refused",
      field: "openAmount",
      message: `Der offene Betrag darf höchstens den Rechnungsbetrag (${formatMoney(before.amount)}) betragen.`,
    };
  }
  // The open amount is what the payment journal's allocations leave: lowering it books the
  // difference as a payment; raising it needs the payment undone (Zahlungen: 'Zurückbuchen').
  if (issued && openAmount > before.openAmount) return { status: "refused", field: "openAmount", message: OPEN_AMOUNT_RAISED };
  const paid = issued ? before.openAmount - openAmount : 0;
  const nowIso = now.toISOString();
  try {
    await runAtomically(db, [
      render(sql`UPDATE ${invoiceHeaders} SET date = ${input.date}, due_date = ${input.dueDate}, sent_date = ${input.sentDate},
        comments = ${input.comments}, payment_comments = ${input.paymentComments},
        last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
        WHERE id = ${id} AND row_version = ${rowVersion}`),
      ABORT_UNLESS_CHANGED,
      ...(paid > 0
        ? dialogPaymentStatements(
            input.payment ?? { method: "TRANSFER", date: todayInBerlin(now), key: null },
            { personId: before.personId, amount: paid, text: `Zahlung auf Rechnung ${before.invoiceNumber}` },
            { invoiceId: id, invoiceNumber: before.invoiceNumber!, amount: paid, expectedOpen: before.openAmount },
            actor,
            now,
          )
        : []),
      // Spec 001 §4: saving an issued invoice keeps every fee billed on it settled.
      ...(issued && before.invoiceNumber !== null
        ? [
            invoiceFeesSettled(
              id,
              before.invoiceNumber,
              actor.name,
              nowIso,
              sql`(open_amount > 0 OR payment_reference IS NOT ${paymentReferenceOf(before.invoiceNumber)})`,
            ),
          ]
        : []),
    ]);
  } catch (error) {
    if (isAbortedAsUnchanged(error)) {
      const current = await getInvoiceHeader(db, id);
      return current ? { status: "conflict", current } : { status: "missing" };
    }
    if (isFrozenInvoice(error)) return { status: "refused", field: "date", message: ISSUED_INVOICE_FROZEN };
    if (isDuplicateEntry(error)) return { status: "refused", message: PAYMENT_ALREADY_BOOKED };
    throw error;
  }
  return { status: "updated" };
}

/**
 * A fee billed on a draft's row, when the row goes (the draft or the row is deleted): billable
 * again (not invoiced). A draft has not settled it (issuing does), so its open amount is as it
 * was. The Papierkorb keeps the fee as it was, so a restore puts back exactly that.
 */
function feesBillableAgain(where: SQL, actor: Actor, nowIso: string): Change {
  return {
    table: fees,
    where,
    identifiers: [sql`${fees.text}`, sql`${fees.amount}`],
    set: sql`is_invoiced = 0, last_modified_by = ${actor.name}, last_modified_on = ${nowIso}`,
  };
}

/** What deleting an invoice takes along: its rows, and the fees that become billable again. */
export async function invoiceDeletionContents(db: Db, id: number) {
  const header = await getInvoiceHeader(db, id);
  return header ? { rowCount: header.nrOfRows, feeCount: header.feeCount } : undefined;
}

/**
 * Deletes a draft into the Papierkorb with its rows; its fees become billable again (see
 * feesBillableAgain), all in one bin transaction. An issued invoice is refused.
 */
export async function deleteInvoiceHeader(db: Db, id: number, actor: Actor, now = new Date()): Promise<DeleteOutcome> {
  const header = await getInvoiceHeader(db, id);
  if (!header) return { status: "missing" };
  if (header.status === "ISSUED") return { status: "refused", message: ISSUED_INVOICE_KEPT };
  try {
    const transactionId = await moveToBin(db, {
      main: {
        table: invoiceHeaders,
        where: eq(invoiceHeaders.id, id),
        // The bin names the table ('Rechnung'), then these: 'Entwurf/Erika Muster/2026-11-01'.
        identifiers: [
          sql`coalesce(${invoiceHeaders.invoiceNumber}, 'Entwurf')`,
          sql`(SELECT full_name FROM people WHERE people.id = person_id)`,
          sql`${invoiceHeaders.date}`,
        ],
      },
      dependents: [{ table: invoiceRows, where: eq(invoiceRows.invoiceId, id), identifiers: [sql`${invoiceRows.text}`, sql`${invoiceRows.amount}`] }],
      changed: [
        feesBillableAgain(sql`${fees.id} IN (SELECT fee_id FROM ${invoiceRows} WHERE invoice_id = ${id} AND fee_id IS NOT NULL)`, actor, now.toISOString()),
      ],
      deletedBy: actor.name,
      now,
    });
    return { status: "deleted", transactionId };
  } catch (error) {
    // Issued meanwhile (another tab, a run): the trigger refused the delete.
    if (isFrozenInvoice(error)) return { status: "refused", message: ISSUED_INVOICE_KEPT };
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Issuing (issue 30)

/** The date (from) or end (to) of a row's service (§ 14 Abs. 4 Nr. 6 UStG): a membership fee's
 *  year, a course fee's first to last course date (else the course's start, else the fee's date),
 *  any other fee's date; a row without a fee: the invoice's date (the day of issue). */
function serviceDate(end: "from" | "to", invoiceDate: SQL) {
  const dayOfYear = end === "from" ? "-01-01" : "-12-31";
  const edge = sql.raw(end === "from" ? "min" : "max");
  return sql`coalesce((SELECT CASE WHEN f.kind = 'ANNUAL' AND f.period_year IS NOT NULL THEN f.period_year || ${dayOfYear}
      WHEN f.kind = 'COURSE' THEN coalesce((SELECT ${edge}(substr(d.start_date_time, 1, 10)) FROM ${courseDates} d WHERE d.course_id = m.course_id), substr(c.start_date_time, 1, 10), f.date)
      ELSE f.date END
    FROM ${fees} f LEFT JOIN ${courseMemberships} m ON m.id = f.course_membership_id LEFT JOIN ${courses} c ON c.id = m.course_id
    WHERE f.id = ${invoiceRows}.fee_id), ${invoiceDate})`;
}

/**
 * What was paid on the billed fees of the invoices just issued (`drafts`, at `iso`), e.g. 'Bezahlt'
 * at the course: allocated to the invoice ("toInvoice"), then taken off the fee ("offFee"), payment
 * by payment, so the invoice asks only for the rest and the fee owes nothing of its own. Payments
 * undone (and their counter-entries) net to nothing on the fee and stay where they are. An invoice
 * gets no more than its amount (a draft may have discount rows): in payment order each payment is
 * allocated up to what is still open; what is left of it is the person's credit.
 */
function paidOnFeesMoved(drafts: SQL, step: "toInvoice" | "offFee", actor: Actor, iso: string): Statement {
  const paidOnFees = sql`SELECT a.payment_id, a.fee_id, r.invoice_id, h.amount AS invoice_amount, sum(a.amount) AS paid
    FROM ${paymentAllocations} a JOIN ${invoiceRows} r ON r.fee_id = a.fee_id AND r.fee_released = 0 JOIN ${invoiceHeaders} h ON h.id = r.invoice_id
    WHERE h.id IN ${drafts} AND h.status = 'ISSUED' AND h.issued_on = ${iso}
      AND NOT EXISTS (SELECT 1 FROM ${payments} y WHERE y.id = a.payment_id AND (y.source = 'REVERSAL' OR EXISTS (SELECT 1 FROM ${payments} z WHERE z.reverses_payment_id = y.id)))
    GROUP BY a.payment_id, a.fee_id, r.invoice_id HAVING sum(a.amount) <> 0`;
  if (step === "offFee") {
    return render(sql`INSERT INTO ${paymentAllocations} (payment_id, invoice_id, fee_id, amount, created_by, created_on)
      SELECT payment_id, NULL, fee_id, -paid, ${actor.name}, ${iso} FROM (${paidOnFees})`);
  }
  return render(sql`INSERT INTO ${paymentAllocations} (payment_id, invoice_id, fee_id, amount, created_by, created_on)
    SELECT payment_id, invoice_id, NULL, allocated, ${actor.name}, ${iso}
    FROM (SELECT payment_id, invoice_id,
            min(paid, max(0, invoice_amount - coalesce(sum(paid) OVER (PARTITION BY invoice_id ORDER BY payment_id, fee_id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))) AS allocated
          FROM (${paidOnFees}))
    WHERE allocated <> 0`);
}

/**
 * The statements that issue the drafts `drafts` (a subquery of invoice ids) in one batch: their
 * rows get their dates of service; each draft the next number of the counter (in `order`, never
 * below a number already taken), today's date as its date (the Rechnungsdatum, § 14 Abs. 4 Nr. 3
 * UStG) with its payment term kept, its recipient's name and address, its whole amount open less
 * what was paid on its fees already (paidOnFeesMoved); the counter moves past the numbers taken;
 * the fees on its rows are settled ('ReNr {n}'). Each
 * statement acts only on drafts, so a batch run again issues nothing twice.
 */
export function issueStatements(drafts: SQL, order: SQL, actor: Actor, now: Date, today: string): Statement[] {
  const iso = now.toISOString();
  const draftIds = sql`(SELECT id FROM ${invoiceHeaders} WHERE id IN ${drafts} AND status = 'DRAFT')`;
  return [
    render(sql`UPDATE ${invoiceRows} SET service_from = coalesce(service_from, ${serviceDate("from", sql`${today}`)}), service_to = coalesce(service_to, ${serviceDate("to", sql`${today}`)}),
        last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
      WHERE invoice_id IN ${draftIds}`),
    render(sql`UPDATE ${invoiceHeaders} SET status = 'ISSUED',
        invoice_number = (SELECT max(coalesce((SELECT last_invoice_number FROM ${configuration} WHERE id = 1), 0), coalesce((SELECT max(invoice_number) FROM ${invoiceHeaders}), 0))) + numbered.n,
        due_date = CASE WHEN due_date IS NULL THEN NULL ELSE date(${today}, '+' || max(0, CAST(julianday(due_date) - julianday(date) AS INTEGER)) || ' days') END,
        date = ${today}, issued_on = ${iso}, issued_by = ${actor.name}, open_amount = max(amount, 0),
        issued_tax_status = coalesce((SELECT o.issued_tax_status FROM ${invoiceHeaders} o WHERE o.id = ${invoiceHeaders}.corrects_invoice_id), (SELECT tax_status FROM ${configuration} WHERE id = 1)),
        (issued_salutation, issued_title, issued_first_name, issued_last_name, issued_street_number, issued_zip, issued_city) =
          (SELECT salutation, title, first_name, last_name, street_number, zip, city FROM ${people} WHERE ${people.id} = ${invoiceHeaders}.person_id),
        last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
      FROM (SELECT h.id, row_number() OVER (ORDER BY ${order}) AS n FROM ${invoiceHeaders} h JOIN ${people} p ON p.id = h.person_id
            WHERE h.id IN ${drafts} AND h.status = 'DRAFT') AS numbered
      WHERE ${invoiceHeaders}.id = numbered.id`),
    render(
      sql`UPDATE ${configuration} SET last_invoice_number = max(coalesce(last_invoice_number, 0), coalesce((SELECT max(invoice_number) FROM ${invoiceHeaders}), 0)) WHERE id = 1`,
    ),
    // What was paid on a billed fee before (e.g. 'Bezahlt' at the course) goes over to the invoice:
    // each such payment is allocated to the invoice and taken off the fee, so the invoice asks only
    // for the rest and the fee owes nothing of its own (payments undone net to nothing and stay).
    paidOnFeesMoved(drafts, "toInvoice", actor, iso),
    paidOnFeesMoved(drafts, "offFee", actor, iso),
    render(sql`UPDATE ${fees} SET open_amount = 0, due_date = NULL,
        payment_reference = ${PAYMENT_REFERENCE_PREFIX} || (SELECT h.invoice_number FROM ${invoiceRows} r JOIN ${invoiceHeaders} h ON h.id = r.invoice_id WHERE r.fee_id = ${fees}.id AND r.fee_released = 0),
        last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
      WHERE id IN (SELECT r.fee_id FROM ${invoiceRows} r JOIN ${invoiceHeaders} h ON h.id = r.invoice_id
        WHERE h.id IN ${drafts} AND h.status = 'ISSUED' AND h.issued_on = ${iso} AND r.fee_id IS NOT NULL)`),
  ];
}

export type IssueOutcome = { status: "issued"; invoiceNumber: number } | { status: "refused"; message: string } | { status: "missing" };

const ALREADY_ISSUED = "Die Rechnung ist schon ausgestellt.";

/** Why a draft cannot be issued (German), or null. */
export function issueRefusal(header: Pick<InvoiceHeaderRecord, "status" | "nrOfRows" | "amount">): string | null {
  if (header.status === "ISSUED") return ALREADY_ISSUED;
  if (header.nrOfRows === 0) return "Ein Entwurf ohne Zeilen kann nicht ausgestellt werden.";
  return null;
}

/** Issues one draft (the dialog 'Rechnung ausstellen'): see issueStatements. */
export async function issueInvoice(db: Db, id: number, actor: Actor, today: string, now = new Date()): Promise<IssueOutcome> {
  const header = await getInvoiceHeader(db, id);
  if (!header) return { status: "missing" };
  const refusal = issueRefusal(header);
  if (refusal) return { status: "refused", message: refusal };
  const [rows, headers, ...rest] = issueStatements(sql`(${id})`, sql`h.id`, actor, now, today);
  try {
    await runAtomically(db, [rows, headers, ABORT_UNLESS_CHANGED, ...rest]);
  } catch (error) {
    if (isAbortedAsUnchanged(error)) return { status: "refused", message: ALREADY_ISSUED };
    throw error;
  }
  const after = await getInvoiceHeader(db, id);
  return after?.invoiceNumber ? { status: "issued", invoiceNumber: after.invoiceNumber } : { status: "missing" };
}

// ---------------------------------------------------------------------------------------------
// Storno (issue 30)

/** The reason a Storno is refused once the invoice has a credit note (it would credit all of it again). */
const CREDITED_NOT_CANCELLED =
  "Zu dieser Rechnung gibt es schon eine Gutschrift: Eine Stornorechnung würde den gutgeschriebenen Betrag ein zweites Mal erstatten. Den Rest bitte ebenfalls mit einer Gutschrift korrigieren.";

/** Why an invoice cannot be cancelled (German), or null. */
export function cancelRefusal(header: Pick<InvoiceHeaderRecord, "status" | "kind"> & { cancelledBy: number | null; credited: boolean }): string | null {
  if (header.status !== "ISSUED") return "Ein Entwurf wird nicht storniert, sondern geändert oder gelöscht.";
  if (header.kind !== "INVOICE") return "Nur eine Rechnung wird storniert, keine Stornorechnung oder Gutschrift.";
  if (header.cancelledBy !== null) return "Die Rechnung ist schon storniert.";
  if (header.credited) return CREDITED_NOT_CANCELLED;
  return null;
}

/** The Stornorechnung that cancelled the invoice `id` (its id and number), or undefined. */
export async function cancellationOf(db: Db, id: number) {
  const [row] = await db
    .select({ id: invoiceHeaders.id, invoiceNumber: invoiceHeaders.invoiceNumber })
    .from(invoiceHeaders)
    .where(and(eq(invoiceHeaders.correctsInvoiceId, id), eq(invoiceHeaders.kind, "STORNO")));
  return row;
}

/** What a Storno of the invoice `id` depends on: whether it was cancelled (by which) or credited. */
export async function correctionsOf(db: Db, id: number) {
  const [cancelledBy, credited] = await Promise.all([
    cancellationOf(db, id),
    db.$count(invoiceHeaders, and(eq(invoiceHeaders.correctsInvoiceId, id), eq(invoiceHeaders.kind, "CREDIT_NOTE"))),
  ]);
  return { cancelledBy: cancelledBy?.id ?? null, credited: credited > 0 };
}

/** The Stornorechnung's entry 'Verrechnung' ('storno:{invoice}'): the invoice's amount, settling what is open on it. */
function stornoOffset(
  id: number,
  header: Pick<InvoiceHeaderRecord, "amount" | "openAmount" | "invoiceNumber">,
  storno: SQL,
  actor: Actor,
  iso: string,
): Statement[] {
  if ((header.amount ?? 0) <= 0) return [];
  const entryKey = `storno:${id}`;
  return [
    render(sql`INSERT INTO ${payments} (entry_key, person_id, date, amount, method, source, source_ref, text, created_by, created_on)
      SELECT ${entryKey}, person_id, date, -amount, 'OFFSET', 'CORRECTION', CAST(invoice_number AS TEXT),
        'Stornorechnung ' || invoice_number || ${` zu Rechnung ${header.invoiceNumber}`}, ${actor.name}, ${iso}
      FROM ${invoiceHeaders} WHERE id = ${storno}`),
    ...((header.openAmount ?? 0) > 0
      ? allocationStatements(
          entryKey,
          { invoiceId: id, invoiceNumber: header.invoiceNumber!, amount: header.openAmount, expectedOpen: header.openAmount },
          actor,
          iso,
        )
      : [
          render(sql`UPDATE ${invoiceHeaders} SET last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1 WHERE id = ${id}`),
        ]),
  ];
}

export type CancelOutcome = { status: "cancelled"; stornoId: number; stornoNumber: number } | { status: "refused"; message: string } | { status: "missing" };

/**
 * 'Stornieren' (§ 14 Abs. 4 UStG, GoBD: a correction is a new document naming the old one): one
 * batch writes a Stornorechnung for the invoice's person with every row negated (text and date of
 * service kept), naming the invoice (corrects_invoice_id), and issues it with the next number of
 * the same counter; the cancelled invoice has nothing open any more (it stays as it was issued),
 * its rows release their fees, and the fees are open and billable again. The Stornorechnung books
 * into the payment journal as an entry 'Verrechnung' of the invoice's amount: it settles what is
 * open, and what was paid already becomes the person's credit (to be refunded or used). Refused
 * for a draft, a correction and a cancelled invoice.
 */
export async function cancelInvoice(db: Db, id: number, actor: Actor, today: string, now = new Date()): Promise<CancelOutcome> {
  const header = await getInvoiceHeader(db, id);
  if (!header) return { status: "missing" };
  const refusal = cancelRefusal({ ...header, ...(await correctionsOf(db, id)) });
  if (refusal) return { status: "refused", message: refusal };
  const iso = now.toISOString();
  const storno = sql`(SELECT id FROM ${invoiceHeaders} WHERE corrects_invoice_id = ${id} AND kind = 'STORNO')`;
  const [rows, issue, ...rest] = issueStatements(storno, sql`h.id`, actor, now, today);
  try {
    await runAtomically(db, [
      render(sql`INSERT INTO ${invoiceHeaders} (person_id, status, kind, corrects_invoice_id, date, due_date, amount, open_amount, created_by, created_on)
        SELECT person_id, 'DRAFT', 'STORNO', id, ${today}, NULL, -amount, 0, ${actor.name}, ${iso} FROM ${invoiceHeaders}
        WHERE id = ${id} AND status = 'ISSUED' AND kind = 'INVOICE' AND open_amount = ${header.openAmount} AND NOT EXISTS (SELECT 1 FROM ${invoiceHeaders} s WHERE s.corrects_invoice_id = ${id} AND s.kind = 'STORNO')`),
      ABORT_UNLESS_CHANGED,
      render(sql`INSERT INTO ${invoiceRows} (invoice_id, line_number, text, amount, service_from, service_to, tax_case, created_by, created_on)
        SELECT ${storno}, line_number, text, -amount, service_from, service_to, tax_case, ${actor.name}, ${iso} FROM ${invoiceRows} WHERE invoice_id = ${id}`),
      rows,
      issue,
      ...rest,
      ...stornoOffset(id, header, storno, actor, iso),
      render(sql`UPDATE ${fees} SET is_invoiced = 0, open_amount = amount, due_date = NULL, payment_reference = NULL,
          last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
        WHERE id IN (SELECT fee_id FROM ${invoiceRows} WHERE invoice_id = ${id} AND fee_id IS NOT NULL AND fee_released = 0)`),
      render(sql`UPDATE ${invoiceRows} SET fee_released = 1, last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
        WHERE invoice_id = ${id} AND fee_id IS NOT NULL AND fee_released = 0`),
    ]);
  } catch (error) {
    if (isAbortedAsUnchanged(error))
      return {
        status: "refused",
        message:
          cancelRefusal({ ...((await getInvoiceHeader(db, id)) ?? header), ...(await correctionsOf(db, id)) }) ??
          "Die Rechnung hat sich inzwischen geändert. Bitte noch einmal versuchen.",
      };
    throw error;
  }
  const created = await cancellationOf(db, id);
  return created?.invoiceNumber ? { status: "cancelled", stornoId: created.id, stornoNumber: created.invoiceNumber } : { status: "missing" };
}

// ---------------------------------------------------------------------------------------------
// Invoice rows

export type InvoiceRowRow = { id: number; invoiceId: number; feeId: number | null; lineNumber: number; text: string; amount: number; taxCase: TaxCase };
export type InvoiceRowQuery = { invoiceId?: number; sort: SortSpec };
export const INVOICE_ROW_DEFAULT_SORT: SortSpec = { id: "lineNumber", descending: false };

const rowColumns = {
  id: invoiceRows.id,
  invoiceId: invoiceRows.invoiceId,
  feeId: invoiceRows.feeId,
  lineNumber: invoiceRows.lineNumber,
  text: invoiceRows.text,
  amount: invoiceRows.amount,
  taxCase: invoiceRows.taxCase,
};

const ROW_SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${invoiceRows.id}`),
  lineNumber: sortKey(sql`${invoiceRows.lineNumber}`),
  text: sortKey(sql`${invoiceRows.text} COLLATE NOCASE`),
  amount: sortKey(sql`${invoiceRows.amount}`),
  taxCase: sortKey(sql`${invoiceRows.taxCase}`),
};

function rowOrder(sort: SortSpec): SQL[] {
  return [(ROW_SORTS[sort.id] ?? ROW_SORTS.lineNumber)(sort.descending), asc(invoiceRows.lineNumber), asc(invoiceRows.id)];
}

const rowWhere = ({ invoiceId }: Omit<InvoiceRowQuery, "sort">) => (invoiceId ? eq(invoiceRows.invoiceId, invoiceId) : undefined);

/** One page of an invoice's rows, their number and the sum of their amounts (the invoice's amount). */
export async function listInvoiceRows(db: Db, query: InvoiceRowQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const [rows, [{ total, amount }]] = await db.batch([
    db
      .select(rowColumns)
      .from(invoiceRows)
      .where(rowWhere(query))
      .orderBy(...rowOrder(query.sort))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db
      .select({ total: count(), amount: sql<number>`coalesce(sum(${invoiceRows.amount}), 0)`.mapWith(Number) })
      .from(invoiceRows)
      .where(rowWhere(query)),
  ]);
  return { rows: (rows as InvoiceRowRow[]).map((row) => ({ ...row, amount: row.amount ?? 0 })), total, sums: { amount: amount ?? 0 } };
}

export async function pageOfInvoiceRow(db: Db, id: number, query: InvoiceRowQuery, pageSize = PAGE_SIZE) {
  const ordered = db
    .select({ id: invoiceRows.id, position: positionInOrder(rowOrder(query.sort)) })
    .from(invoiceRows)
    .where(rowWhere(query))
    .as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

/** A row with its invoice's number, person and status (an issued invoice's rows are frozen). */
export type InvoiceRowRecord = typeof invoiceRows.$inferSelect & { invoiceNumber: number | null; personName: string | null; invoiceStatus: InvoiceStatus };

export async function getInvoiceRow(db: Db, id: number): Promise<InvoiceRowRecord | undefined> {
  const [row] = await db
    .select({ row: invoiceRows, invoiceNumber: invoiceHeaders.invoiceNumber, personName: people.fullName, invoiceStatus: invoiceHeaders.status })
    .from(invoiceRows)
    .innerJoin(invoiceHeaders, eq(invoiceHeaders.id, invoiceRows.invoiceId))
    .innerJoin(people, eq(people.id, invoiceHeaders.personId))
    .where(eq(invoiceRows.id, id));
  return row ? { ...row.row, invoiceNumber: row.invoiceNumber, personName: row.personName, invoiceStatus: row.invoiceStatus } : undefined;
}

/** The sum of an invoice's rows, leaving one row out (the one being changed or deleted). */
const rowSum = (invoiceId: number, except: number | null) =>
  sql`(SELECT coalesce(sum(amount), 0) FROM ${invoiceRows} WHERE invoice_id = ${invoiceId}${except ? sql` AND id <> ${except}` : sql``})`;

/** A draft's amount becomes `total`; nothing is open on a draft (its fees are the open claims). */
const recomputed = (total: SQL) => sql`open_amount = 0, amount = ${total}`;

/** taxCase left out: a new row takes the default of Einstellungen, a changed one keeps its case. */
/** Left out (undefined): a new row takes the default tax case, a changed one keeps its case and its account and sphere (issue 35). */
export type InvoiceRowInput = { text: string; amount: number; taxCase?: TaxCase } & Partial<BookingOverride>;

export type InvoiceRowSaveOutcome =
  | { status: "saved"; id: number }
  | { status: "conflict"; current: InvoiceRowRecord }
  | { status: "missing" }
  | { status: "refused"; message: string; field?: keyof InvoiceRowInput };

/**
 * Adds a row (the next line number) to a draft, or changes one quoting its rowVersion; in the
 * same batch the header's amount becomes the sum of the rows (the header's rowVersion counts up).
 * A negative row is allowed, a negative total refused; so is any change to an issued invoice.
 */
export async function saveInvoiceRow(
  db: Db,
  target: { invoiceId: number } | { id: number; rowVersion: number },
  input: InvoiceRowInput,
  actor: Actor,
  now = new Date(),
): Promise<InvoiceRowSaveOutcome> {
  const existing = "id" in target ? await getInvoiceRow(db, target.id) : undefined;
  if ("id" in target && !existing) return { status: "missing" };
  if (existing && existing.rowVersion !== (target as { rowVersion: number }).rowVersion) return { status: "conflict", current: existing };
  const invoiceId = existing ? existing.invoiceId : (target as { invoiceId: number }).invoiceId;
  const [header] = await db
    .select({ id: invoiceHeaders.id, status: invoiceHeaders.status, others: rowSum(invoiceId, existing?.id ?? null).mapWith(Number) })
    .from(invoiceHeaders)
    .where(eq(invoiceHeaders.id, invoiceId));
  if (!header) return { status: "refused", message: INVOICE_NOT_FOUND };
  if (header.status === "ISSUED") return { status: "refused", message: ISSUED_INVOICE_FROZEN };
  if (header.others + input.amount < 0) return { status: "refused", field: "amount", message: NEGATIVE_TOTAL };

  const nowIso = now.toISOString();
  const headerUpdate = render(sql`UPDATE ${invoiceHeaders} SET ${recomputed(rowSum(invoiceId, null))},
    last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1 WHERE id = ${invoiceId}`);
  const statements: Statement[] = existing
    ? [
        render(sql`UPDATE ${invoiceRows} SET text = ${input.text}, amount = ${input.amount}, tax_case = coalesce(${input.taxCase ?? null}, tax_case), line_number = coalesce(line_number, 1),
          ${input.accountNumber === undefined ? sql`` : sql`account_number = ${input.accountNumber}, `}${input.sphere === undefined ? sql`` : sql`sphere = ${input.sphere}, `}
          last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
          WHERE id = ${existing.id} AND row_version = ${existing.rowVersion}`),
        ABORT_UNLESS_CHANGED,
        headerUpdate,
      ]
    : [
        render(sql`INSERT INTO ${invoiceRows} (invoice_id, line_number, text, amount, tax_case, account_number, sphere, created_by, created_on)
          VALUES (${invoiceId}, (SELECT coalesce(max(line_number), 0) + 1 FROM ${invoiceRows} WHERE invoice_id = ${invoiceId}), ${input.text}, ${input.amount}, coalesce(${input.taxCase ?? null}, ${DEFAULT_TAX_CASE_OF_OTHER}), ${input.accountNumber ?? null}, ${input.sphere ?? null}, ${actor.name}, ${nowIso})
          RETURNING id`),
        headerUpdate,
      ];
  try {
    const results = await runAtomically(db, statements);
    return { status: "saved", id: existing ? existing.id : (results[0].results[0] as { id: number }).id };
  } catch (error) {
    if (isAbortedAsUnchanged(error) && existing) {
      const current = await getInvoiceRow(db, existing.id);
      return current ? { status: "conflict", current } : { status: "missing" };
    }
    if (isNegativeTotal(error)) return { status: "refused", field: "amount", message: NEGATIVE_TOTAL };
    if (isFrozenInvoice(error)) return { status: "refused", message: ISSUED_INVOICE_FROZEN };
    if (isForeignKeyViolation(error)) return { status: "refused", message: INVOICE_NOT_FOUND };
    throw error;
  }
}

/**
 * Deletes a row into the Papierkorb; in the same transaction the header's amount and open amount
 * follow and the row's fee becomes billable again, so a restore puts all of it back. Refused when
 * the remaining rows would sum below zero (the row was the one outweighing a discount).
 */
export async function deleteInvoiceRow(db: Db, id: number, actor: Actor, now = new Date()): Promise<DeleteOutcome> {
  const row = await getInvoiceRow(db, id);
  if (!row) return { status: "missing" };
  if (row.invoiceStatus === "ISSUED") return { status: "refused", message: ISSUED_INVOICE_FROZEN };
  const [{ others }] = await db
    .select({ others: rowSum(row.invoiceId, id).mapWith(Number) })
    .from(invoiceHeaders)
    .where(eq(invoiceHeaders.id, row.invoiceId));
  if (others < 0) return { status: "refused", message: NEGATIVE_TOTAL };
  const nowIso = now.toISOString();
  try {
    const transactionId = await moveToBin(db, {
      main: {
        table: invoiceRows,
        where: eq(invoiceRows.id, id),
        identifiers: [sql`${invoiceRows.text}`, sql`${invoiceRows.amount}`, sql`'Rechnung ' || ${row.invoiceNumber}`],
      },
      changed: [
        {
          table: invoiceHeaders,
          where: eq(invoiceHeaders.id, row.invoiceId),
          identifiers: [sql`${invoiceHeaders.invoiceNumber}`, sql`${invoiceHeaders.amount}`],
          set: sql`${recomputed(rowSum(row.invoiceId, id))}, last_modified_by = ${actor.name}, last_modified_on = ${nowIso}`,
        },
        ...(row.feeId ? [feesBillableAgain(eq(fees.id, row.feeId), actor, nowIso)] : []),
      ],
      deletedBy: actor.name,
      now,
    });
    return { status: "deleted", transactionId };
  } catch (error) {
    if (isNegativeTotal(error)) return { status: "refused", message: NEGATIVE_TOTAL };
    if (isFrozenInvoice(error)) return { status: "refused", message: ISSUED_INVOICE_FROZEN };
    throw error;
  }
}

/**
 * 'Versendet am' after the invoice went out by 'Mail senden' (issue 29/17): the day of the first
 * sending (Berlin); a later mail of the same invoice keeps it (the mail log lists every sending).
 */
export async function markInvoiceSent(db: Db, id: number, actor: Actor, today: string, now = new Date()): Promise<void> {
  await db.run(sql`UPDATE ${invoiceHeaders} SET sent_date = ${today}, last_modified_by = ${actor.name}, last_modified_on = ${now.toISOString()},
    row_version = row_version + 1 WHERE id = ${id} AND sent_date IS NULL`);
}
