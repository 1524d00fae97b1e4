/**
 * All queries and writes of invoices (Rechnungen) and their rows (Rechnungszeilen), spec 001 §2-§4.
 * The header's amount is the sum of its rows and its open amount stays between 0 and the amount:
 * every row change recomputes both in the same D1 batch. Saving an invoice settles the fees billed
 * on it (open amount 0, no due date, 'ReNr {n}') in the batch of the header update. Deleting an
 * invoice takes its rows into the Papierkorb and makes its fees billable again, in one
 * transaction that a restore puts back exactly.
 */
import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { type SQLiteSelect } from "drizzle-orm/sqlite-core";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { fees, invoiceHeaders, invoiceRows, people } from "~/db/schema";
import { formatMoney } from "~/lib/format";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { type Actor } from "./audit.server";
import { errorText, isAbortedAsUnchanged, isForeignKeyViolation } from "./constraints.server";
import { pageOfPosition, positionInOrder, sortKey, type SortKey } from "./paging.server";
import type { DeleteOutcome } from "./people.server";
import { moveToBin, type Change } from "./recycle-bin.server";
import { lastReminderDateOf, reminderFilterCondition, reminderLevelOf, targetId, type ReminderFilter, type ReminderLevel } from "./reminders.server";
import { todayInBerlin } from "~/lib/format";

const isNegativeTotal = (error: unknown) => errorText(error).includes("CHECK constraint failed") && errorText(error).includes("invoice_headers");

export const NEGATIVE_TOTAL =
  "Der Rechnungsbetrag darf nicht negativ werden: Eine Zeile darf ein Abzug sein, die Summe aller Zeilen aber nicht unter 0,00 € fallen.";
const INVOICE_NOT_FOUND = "Diese Rechnung gibt es nicht (mehr).";

/** 'ReNr 2026001': the payment reference of the fees an invoice settles (spec 001 §4). */
export const paymentReferenceOf = (invoiceNumber: number) => `ReNr ${invoiceNumber}`;

/**
 * The fees billed on an invoice, settled as the invoice settles them: open amount 0, no due date,
 * the payment reference 'ReNr {n}' (saving the invoice; a payment that leaves nothing open on it).
 * `onlyWhen` narrows it further.
 */
export function invoiceFeesSettled(invoiceId: number, invoiceNumber: number, actorName: string, nowIso: string, onlyWhen?: SQL): Statement {
  return render(sql`UPDATE ${fees} SET open_amount = 0, due_date = NULL, payment_reference = ${paymentReferenceOf(invoiceNumber)},
      last_modified_by = ${actorName}, last_modified_on = ${nowIso}, row_version = row_version + 1
    WHERE id IN (SELECT fee_id FROM ${invoiceRows} WHERE invoice_id = ${invoiceId} AND fee_id IS NOT NULL)${onlyWhen ? sql` AND ${onlyWhen}` : sql``}`);
}

// ---------------------------------------------------------------------------------------------
// Invoice headers: the list

export const INVOICE_STATUS_FILTERS = ["all", "open", "paid"] as const;
export type InvoiceStatusFilter = (typeof INVOICE_STATUS_FILTERS)[number];
export const INVOICE_DEFAULT_SORT: SortSpec = { id: "invoiceNumber", descending: true };

/** `reminder`: the toggle 'Nur gemahnte' / 'Mahnung fällig' ('due' needs the reminder levels). */
export type InvoiceHeaderQuery = {
  status: InvoiceStatusFilter;
  personId?: number;
  sort: SortSpec;
  reminder?: ReminderFilter;
  levels?: ReminderLevel[];
  today?: string;
};

const headerColumns = {
  id: invoiceHeaders.id,
  personId: invoiceHeaders.personId,
  personName: sql<string | null>`${people.fullName}`.as("person_name"),
  invoiceNumber: invoiceHeaders.invoiceNumber,
  date: invoiceHeaders.date,
  sentDate: invoiceHeaders.sentDate,
  dueDate: invoiceHeaders.dueDate,
  amount: invoiceHeaders.amount,
  openAmount: invoiceHeaders.openAmount,
  comments: invoiceHeaders.comments,
  paymentComments: invoiceHeaders.paymentComments,
  pdfFilePath: invoiceHeaders.pdfFilePath,
  personErased: sql<boolean>`${people.erasedOn} IS NOT NULL`.mapWith(Boolean).as("person_erased"),
  nrOfRows: sql<number>`(SELECT count(*) FROM ${invoiceRows} r WHERE r.invoice_id = ${invoiceHeaders.id})`.as("nr_of_rows"),
  reminderLevel: reminderLevelOf("INVOICE", targetId("INVOICE")).as("reminder_level"),
  lastReminderDate: lastReminderDateOf("INVOICE", targetId("INVOICE")).as("last_reminder_date"),
};

export type InvoiceHeaderRow = {
  id: number;
  personId: number;
  personName: string | null;
  invoiceNumber: number;
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
  nrOfRows: number;
  /** Mahnstufe (0 without a reminder) and the date of the last reminder. */
  reminderLevel: number;
  lastReminderDate: string | null;
};

const HEADER_SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${invoiceHeaders.id}`),
  date: sortKey(sql`${invoiceHeaders.date}`),
  invoiceNumber: sortKey(sql`${invoiceHeaders.invoiceNumber}`),
  personName: sortKey(sql`${people.lastNameKey}`, sql`${people.firstNameKey}`),
  amount: sortKey(sql`${invoiceHeaders.amount}`),
  openAmount: sortKey(sql`${invoiceHeaders.openAmount}`),
  isOpen: sortKey(sql`(${invoiceHeaders.openAmount} > 0)`),
  sentDate: sortKey(sql`${invoiceHeaders.sentDate}`),
  dueDate: sortKey(sql`${invoiceHeaders.dueDate}`),
  pdfFilePath: sortKey(sql`${invoiceHeaders.pdfFilePath}`),
  comments: sortKey(sql`${invoiceHeaders.comments}`),
  paymentComments: sortKey(sql`${invoiceHeaders.paymentComments}`),
  reminderLevel: sortKey(reminderLevelOf("INVOICE", targetId("INVOICE"))),
  lastReminderDate: sortKey(lastReminderDateOf("INVOICE", targetId("INVOICE"))),
};

function headerOrder(sort: SortSpec): SQL[] {
  return [(HEADER_SORTS[sort.id] ?? HEADER_SORTS.invoiceNumber)(sort.descending), desc(invoiceHeaders.invoiceNumber), asc(invoiceHeaders.id)];
}

function headerWhere({ status, personId, reminder, levels, today = todayInBerlin() }: Omit<InvoiceHeaderQuery, "sort">) {
  return and(
    reminderFilterCondition(reminder, "INVOICE", levels, today),
    status === "open" ? sql`${invoiceHeaders.openAmount} > 0` : status === "paid" ? sql`${invoiceHeaders.openAmount} = 0` : undefined,
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

/** '2026001 an Erika Muster': how the rows' title names an invoice. */
export const invoiceLabel = (header: { invoiceNumber: number; personName: string | null }) => `${header.invoiceNumber} an ${header.personName ?? ""}`.trim();

/** An invoice's number and person (the tab title), and whether it is open (the toggle follows it). */
export async function invoiceName(db: Db, id: number) {
  const [row] = await db
    .select({ invoiceNumber: invoiceHeaders.invoiceNumber, personName: people.fullName, openAmount: invoiceHeaders.openAmount })
    .from(invoiceHeaders)
    .innerJoin(people, eq(people.id, invoiceHeaders.personId))
    .where(eq(invoiceHeaders.id, id));
  return row ? { ...row, name: invoiceLabel(row), isOpen: (row.openAmount ?? 0) > 0 } : undefined;
}

export type InvoiceHeaderRecord = typeof invoiceHeaders.$inferSelect & { personName: string | null; nrOfRows: number; feeCount: number };

export async function getInvoiceHeader(db: Db, id: number): Promise<InvoiceHeaderRecord | undefined> {
  const [row] = await db
    .select({
      header: invoiceHeaders,
      personName: people.fullName,
      nrOfRows: sql<number>`(SELECT count(*) FROM ${invoiceRows} r WHERE r.invoice_id = ${invoiceHeaders.id})`,
      feeCount: sql<number>`(SELECT count(*) FROM ${invoiceRows} r WHERE r.invoice_id = ${invoiceHeaders.id} AND r.fee_id IS NOT NULL)`,
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
};

/** The outcome of a save; `pdfDetached`: the invoice had a PDF that no longer shows it. */
export type InvoiceSaveOutcome =
  | { status: "updated"; pdfDetached: boolean }
  | { status: "conflict"; current: InvoiceHeaderRecord }
  | { status: "missing" }
  | { status: "refused"; message: string; field?: string };

/** The open amount a save stores: 0 when not open, else the typed one (or the whole amount). */
export const openAmountOf = (input: Pick<InvoiceHeaderInput, "isOpen" | "openAmount">, amount: number) => (input.isOpen ? (input.openAmount ?? amount) : 0);

/**
 * Saves an invoice (spec 001 §4 Invoice) quoting its rowVersion; in the same batch every fee
 * billed on its rows gets open amount 0, no due date and the payment reference 'ReNr {n}', even
 * when the invoice is not marked paid. A stale version writes nothing. A change of what the PDF
 * prints (date, due date) detaches the PDF (pdfFilePath NULL), so the grid offers 'PDF erneut
 * erzeugen' instead of showing an outdated document; payment fields leave it attached.
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
  const openAmount = openAmountOf(input, before.amount ?? 0);
  if (openAmount > (before.amount ?? 0)) {
    return {
      status: "refused",
      field: "openAmount",
      message: `Der offene Betrag darf höchstens den Rechnungsbetrag (${formatMoney(before.amount)}) betragen.`,
    };
  }
  const nowIso = now.toISOString();
  try {
    await runAtomically(db, [
      // SQLite's SET reads the old values: the PDF goes only if a printed field changes.
      render(sql`UPDATE ${invoiceHeaders} SET pdf_file_path = CASE WHEN date IS ${input.date} AND due_date IS ${input.dueDate} THEN pdf_file_path END,
        date = ${input.date}, due_date = ${input.dueDate}, sent_date = ${input.sentDate}, open_amount = ${openAmount},
        comments = ${input.comments}, payment_comments = ${input.paymentComments},
        last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
        WHERE id = ${id} AND row_version = ${rowVersion}`),
      ABORT_UNLESS_CHANGED,
      invoiceFeesSettled(id, before.invoiceNumber, actor.name, nowIso),
    ]);
  } catch (error) {
    if (isAbortedAsUnchanged(error)) {
      const current = await getInvoiceHeader(db, id);
      return current ? { status: "conflict", current } : { status: "missing" };
    }
    throw error;
  }
  return { status: "updated", pdfDetached: before.pdfFilePath !== null && (before.date !== input.date || before.dueDate !== input.dueDate) };
}

/**
 * A fee billed on an invoice row, when the row goes (the invoice or the row is deleted): billable
 * again (not invoiced). If saving the invoice had settled it (its payment reference is the
 * invoice's 'ReNr {n}' and nothing is open), it is open again for its whole amount: what was open
 * before the settlement is not kept anywhere. Its due date stays empty. The Papierkorb keeps the
 * fee as it was, so a restore puts back exactly that.
 */
function feesBillableAgain(where: SQL, invoiceNumber: number, actor: Actor, nowIso: string): Change {
  const reference = paymentReferenceOf(invoiceNumber);
  return {
    table: fees,
    where,
    identifiers: [sql`${fees.text}`, sql`${fees.amount}`, sql`${reference}`],
    set: sql`is_invoiced = 0,
      open_amount = CASE WHEN payment_reference = ${reference} AND open_amount = 0 THEN amount ELSE open_amount END,
      payment_reference = CASE WHEN payment_reference = ${reference} THEN NULL ELSE payment_reference END,
      last_modified_by = ${actor.name}, last_modified_on = ${nowIso}`,
  };
}

/** What deleting an invoice takes along: its rows, and the fees that become billable again. */
export async function invoiceDeletionContents(db: Db, id: number) {
  const header = await getInvoiceHeader(db, id);
  return header ? { rowCount: header.nrOfRows, feeCount: header.feeCount } : undefined;
}

/**
 * Deletes an invoice into the Papierkorb with its rows; its fees become billable again (see
 * feesBillableAgain), all in one bin transaction.
 */
export async function deleteInvoiceHeader(db: Db, id: number, actor: Actor, now = new Date()): Promise<DeleteOutcome> {
  const header = await getInvoiceHeader(db, id);
  if (!header) return { status: "missing" };
  const transactionId = await moveToBin(db, {
    main: {
      table: invoiceHeaders,
      where: eq(invoiceHeaders.id, id),
      // The bin names the table ('Rechnung'), then these: 'Rechnung 2026002/Erika Muster/2026-11-01'.
      identifiers: [sql`${invoiceHeaders.invoiceNumber}`, sql`(SELECT full_name FROM people WHERE people.id = person_id)`, sql`${invoiceHeaders.date}`],
    },
    dependents: [{ table: invoiceRows, where: eq(invoiceRows.invoiceId, id), identifiers: [sql`${invoiceRows.text}`, sql`${invoiceRows.amount}`] }],
    changed: [
      feesBillableAgain(
        sql`${fees.id} IN (SELECT fee_id FROM ${invoiceRows} WHERE invoice_id = ${id} AND fee_id IS NOT NULL)`,
        header.invoiceNumber,
        actor,
        now.toISOString(),
      ),
    ],
    deletedBy: actor.name,
    now,
  });
  return { status: "deleted", transactionId };
}

// ---------------------------------------------------------------------------------------------
// Invoice rows

export type InvoiceRowRow = { id: number; invoiceId: number; feeId: number | null; lineNumber: number; text: string; amount: number };
export type InvoiceRowQuery = { invoiceId?: number; sort: SortSpec };
export const INVOICE_ROW_DEFAULT_SORT: SortSpec = { id: "lineNumber", descending: false };

const rowColumns = {
  id: invoiceRows.id,
  invoiceId: invoiceRows.invoiceId,
  feeId: invoiceRows.feeId,
  lineNumber: invoiceRows.lineNumber,
  text: invoiceRows.text,
  amount: invoiceRows.amount,
};

const ROW_SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${invoiceRows.id}`),
  lineNumber: sortKey(sql`${invoiceRows.lineNumber}`),
  text: sortKey(sql`${invoiceRows.text} COLLATE NOCASE`),
  amount: sortKey(sql`${invoiceRows.amount}`),
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

/** A row with its invoice's number, person and PDF (`invoicePdf`: the header's pdfFilePath). */
export type InvoiceRowRecord = typeof invoiceRows.$inferSelect & { invoiceNumber: number; personName: string | null; invoicePdf: string | null };

export async function getInvoiceRow(db: Db, id: number): Promise<InvoiceRowRecord | undefined> {
  const [row] = await db
    .select({ row: invoiceRows, invoiceNumber: invoiceHeaders.invoiceNumber, personName: people.fullName, invoicePdf: invoiceHeaders.pdfFilePath })
    .from(invoiceRows)
    .innerJoin(invoiceHeaders, eq(invoiceHeaders.id, invoiceRows.invoiceId))
    .innerJoin(people, eq(people.id, invoiceHeaders.personId))
    .where(eq(invoiceRows.id, id));
  return row ? { ...row.row, invoiceNumber: row.invoiceNumber, personName: row.personName, invoicePdf: row.invoicePdf } : undefined;
}

/** The sum of an invoice's rows, leaving one row out (the one being changed or deleted). */
const rowSum = (invoiceId: number, except: number | null) =>
  sql`(SELECT coalesce(sum(amount), 0) FROM ${invoiceRows} WHERE invoice_id = ${invoiceId}${except ? sql` AND id <> ${except}` : sql``})`;

/**
 * The header's amount becomes `total`; what was paid stays paid: the open amount moves by the
 * change of the amount, kept between 0 and the new amount (SQLite's SET reads the old values).
 */
/** Said after a change that detached the invoice's PDF (a warning toast). */
export const PDF_DETACHED_MESSAGE = "Das PDF der Rechnung zeigte den alten Stand und gehört nicht mehr zu ihr: bitte „PDF erneut erzeugen“.";

/** A changed row leaves the invoice's PDF outdated: it is no longer the invoice's (see updateInvoiceHeader). */
const PDF_DETACHED = sql`pdf_file_path = NULL`;

const recomputed = (total: SQL) => sql`open_amount = max(0, min(${total}, open_amount + ${total} - amount)), amount = ${total}`;

export type InvoiceRowInput = { text: string; amount: number };

export type InvoiceRowSaveOutcome =
  | { status: "saved"; id: number; pdfDetached: boolean }
  | { status: "conflict"; current: InvoiceRowRecord }
  | { status: "missing" }
  | { status: "refused"; message: string; field?: keyof InvoiceRowInput };

/**
 * Adds a row (the next line number) to an invoice, or changes one quoting its rowVersion; in the
 * same batch the header's amount becomes the sum of the rows and its open amount follows (the
 * header's rowVersion counts up) and its PDF, which showed the old rows, is detached. A negative
 * row is allowed, a negative total refused.
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
    .select({ id: invoiceHeaders.id, pdfFilePath: invoiceHeaders.pdfFilePath, others: rowSum(invoiceId, existing?.id ?? null).mapWith(Number) })
    .from(invoiceHeaders)
    .where(eq(invoiceHeaders.id, invoiceId));
  if (!header) return { status: "refused", message: INVOICE_NOT_FOUND };
  if (header.others + input.amount < 0) return { status: "refused", field: "amount", message: NEGATIVE_TOTAL };

  const nowIso = now.toISOString();
  const headerUpdate = render(sql`UPDATE ${invoiceHeaders} SET ${recomputed(rowSum(invoiceId, null))}, ${PDF_DETACHED},
    last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1 WHERE id = ${invoiceId}`);
  const statements: Statement[] = existing
    ? [
        render(sql`UPDATE ${invoiceRows} SET text = ${input.text}, amount = ${input.amount}, line_number = coalesce(line_number, 1),
          last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
          WHERE id = ${existing.id} AND row_version = ${existing.rowVersion}`),
        ABORT_UNLESS_CHANGED,
        headerUpdate,
      ]
    : [
        render(sql`INSERT INTO ${invoiceRows} (invoice_id, line_number, text, amount, created_by, created_on)
          VALUES (${invoiceId}, (SELECT coalesce(max(line_number), 0) + 1 FROM ${invoiceRows} WHERE invoice_id = ${invoiceId}), ${input.text}, ${input.amount}, ${actor.name}, ${nowIso})
          RETURNING id`),
        headerUpdate,
      ];
  try {
    const results = await runAtomically(db, statements);
    return { status: "saved", id: existing ? existing.id : (results[0].results[0] as { id: number }).id, pdfDetached: header.pdfFilePath !== null };
  } catch (error) {
    if (isAbortedAsUnchanged(error) && existing) {
      const current = await getInvoiceRow(db, existing.id);
      return current ? { status: "conflict", current } : { status: "missing" };
    }
    if (isNegativeTotal(error)) return { status: "refused", field: "amount", message: NEGATIVE_TOTAL };
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
          set: sql`${recomputed(rowSum(row.invoiceId, id))}, ${PDF_DETACHED}, last_modified_by = ${actor.name}, last_modified_on = ${nowIso}`,
        },
        ...(row.feeId ? [feesBillableAgain(eq(fees.id, row.feeId), row.invoiceNumber, actor, nowIso)] : []),
      ],
      deletedBy: actor.name,
      now,
    });
    return { status: "deleted", transactionId };
  } catch (error) {
    if (isNegativeTotal(error)) return { status: "refused", message: NEGATIVE_TOTAL };
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
