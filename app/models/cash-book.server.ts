/**
 * Das Kassenbuch (issue 35 item 2; § 146 Abs. 1 AO, GoBD): the entries of the Kasse, one ordered
 * sequence with receipt numbers, running balance and the Tagesabschluss. The rules (order, balance
 * never below zero, never changed, counter-entry at most once) are the database's
 * (app/db/cash-book.ts); this model books the entries without a person (Einlage, Ausgabe,
 * Bankeinzahlung, Entnahme), cancels entries by counter-entries and reads the book. The journal's
 * cash payments come in through the trigger on payments, with the payment.
 */
import { and, asc, between, count, desc, eq, sql, sum, type SQL } from "drizzle-orm";
import { render, runAtomically, type Db } from "~/db/client.server";
import { cashEntryInsert, JOURNAL_CASH_BOX } from "~/db/cash-book";
import { cashEntries, payments, people, type CashEntryKind } from "~/db/schema";
import { cashBookDays, CASH_ENTRY_KIND_LABELS, isCashIn, type ManualCashKind } from "~/lib/cash-book";
import { formatMoney } from "~/lib/format";
import type { Sphere } from "~/lib/ledger";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { periodRange, type Period } from "~/lib/periods";
import type { Actor } from "./audit.server";
import { cashBalance, cashBookRefusal } from "./cash-refusal.server";
import { pageOfPosition, positionInOrder } from "./paging.server";
import { reversePayment } from "./payments.server";
import { containsPattern } from "./search.server";

export { cashBalance };

export type CashEntryRow = {
  id: number;
  receiptNumber: string;
  date: string;
  kind: CashEntryKind;
  text: string;
  personId: number | null;
  personName: string | null;
  /** Cents: cash in (Einnahme) or out (Ausgabe, as a positive figure); the other is null. */
  amountIn: number | null;
  amountOut: number | null;
  amount: number;
  balance: number;
  paymentId: number | null;
  reversesEntryId: number | null;
  reversesNumber: string | null;
  reversedByNumber: string | null;
  account: string | null;
  sphere: Sphere | null;
  createdBy: string;
  createdOn: string;
};

const reversal = sql.raw("r");
const original = sql.raw("o");
const columns = {
  id: cashEntries.id,
  receiptNumber: sql<string>`${cashEntries.receiptNumber}`,
  date: cashEntries.date,
  kind: cashEntries.kind,
  text: cashEntries.text,
  personId: payments.personId,
  personName: people.fullName,
  amountIn: sql<number | null>`CASE WHEN ${cashEntries.amount} > 0 THEN ${cashEntries.amount} END `.mapWith(Number),
  amountOut: sql<number | null>`CASE WHEN ${cashEntries.amount} < 0 THEN -${cashEntries.amount} END `.mapWith(Number),
  amount: cashEntries.amount,
  balance: cashEntries.balance,
  paymentId: cashEntries.paymentId,
  reversesEntryId: cashEntries.reversesEntryId,
  reversesNumber: sql<
    string | null
  >`(SELECT ${original}.receipt_number FROM ${cashEntries} ${original} WHERE ${original}.id = "cash_entries"."reverses_entry_id")`,
  reversedByNumber: sql<
    string | null
  >`(SELECT ${reversal}.receipt_number FROM ${cashEntries} ${reversal} WHERE ${reversal}.reverses_entry_id = "cash_entries"."id")`,
  account: cashEntries.account,
  sphere: cashEntries.sphere,
  createdBy: cashEntries.createdBy,
  createdOn: cashEntries.createdOn,
};

export type CashQuery = { period: Period; search?: string; sort: SortSpec; today: string; box?: number };
export const CASH_DEFAULT_SORT: SortSpec = { id: "date", descending: false };

function cashWhere(query: Omit<CashQuery, "sort">): SQL | undefined {
  const range = periodRange(query.period, query.today);
  const pattern = query.search ? containsPattern(query.search) : null;
  return and(
    eq(cashEntries.cashBoxId, query.box ?? JOURNAL_CASH_BOX),
    range ? between(cashEntries.date, range[0], range[1]) : undefined,
    pattern ? sql`(${cashEntries.text} LIKE ${pattern} OR ${cashEntries.receiptNumber} LIKE ${pattern} OR ${people.fullName} LIKE ${pattern})` : undefined,
  );
}

/** The book's order is the only order: by date and number (the id follows both). */
const cashOrder = (sort: SortSpec): SQL[] => [sort.descending ? desc(cashEntries.id) : asc(cashEntries.id)];

const fromBook = (db: Db) =>
  db.select(columns).from(cashEntries).leftJoin(payments, eq(payments.id, cashEntries.paymentId)).leftJoin(people, eq(people.id, payments.personId));

/** One page of the Kassenbuch, the number of entries, and the sums in and out. */
export async function listCashEntries(db: Db, query: CashQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const [rows, [totals]] = await db.batch([
    fromBook(db)
      .where(cashWhere(query))
      .orderBy(...cashOrder(query.sort))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db
      .select({
        total: count(),
        amountIn: sum(sql`CASE WHEN ${cashEntries.amount} > 0 THEN ${cashEntries.amount} ELSE 0 END `).mapWith(Number),
        amountOut: sum(sql`CASE WHEN ${cashEntries.amount} < 0 THEN -${cashEntries.amount} ELSE 0 END `).mapWith(Number),
      })
      .from(cashEntries)
      .leftJoin(payments, eq(payments.id, cashEntries.paymentId))
      .leftJoin(people, eq(people.id, payments.personId))
      .where(cashWhere(query)),
  ]);
  return { rows: rows as CashEntryRow[], total: totals.total, sums: { amountIn: totals.amountIn ?? 0, amountOut: totals.amountOut ?? 0 } };
}

/** Every entry of the query in book order (Kassenbuch.xlsx, the print view). */
export async function allCashEntries(db: Db, query: CashQuery): Promise<CashEntryRow[]> {
  return (await fromBook(db)
    .where(cashWhere(query))
    .orderBy(...cashOrder(query.sort))) as CashEntryRow[];
}

export async function pageOfCashEntry(db: Db, id: number, query: CashQuery, pageSize = PAGE_SIZE) {
  const ordered = db
    .select({ id: cashEntries.id, position: positionInOrder(cashOrder(query.sort)) })
    .from(cashEntries)
    .leftJoin(payments, eq(payments.id, cashEntries.paymentId))
    .leftJoin(people, eq(people.id, payments.personId))
    .where(cashWhere(query))
    .as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

export async function getCashEntry(db: Db, id: number): Promise<CashEntryRow | undefined> {
  const [row] = await fromBook(db).where(eq(cashEntries.id, id));
  return row as CashEntryRow | undefined;
}

// ---------------------------------------------------------------------------------------------
// Tagesabschluss

export type CashDayRow = { id: number; date: string; entries: number; opening: number; amountIn: number; amountOut: number; closing: number };

const dayColumns = {
  date: cashEntries.date,
  entries: count(),
  amountIn: sql<number>`sum(CASE WHEN ${cashEntries.amount} > 0 THEN ${cashEntries.amount} ELSE 0 END)`.mapWith(Number),
  amountOut: sql<number>`sum(CASE WHEN ${cashEntries.amount} < 0 THEN -${cashEntries.amount} ELSE 0 END)`.mapWith(Number),
  // The day's last entry's balance: the entries of a day follow each other (the id orders them).
  closing:
    sql<number>`(SELECT c.balance FROM ${cashEntries} c WHERE c.cash_box_id = "cash_entries"."cash_box_id" AND c.date = "cash_entries"."date" ORDER BY c.id DESC LIMIT 1)`.mapWith(
      Number,
    ),
};

type DayQuery = { period: Period; sort: SortSpec; today: string; box?: number };
const dayWhere = (query: DayQuery) => cashWhere({ period: query.period, today: query.today, box: query.box });
const dayRow = (row: { date: string; entries: number; amountIn: number; amountOut: number; closing: number }): CashDayRow => ({
  id: Number(row.date.replaceAll("-", "")),
  ...row,
  opening: row.closing - row.amountIn + row.amountOut,
});

/** The days with entries: opening balance, sum in, sum out, closing balance (one page). */
export async function listCashDays(db: Db, query: DayQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const [rows, [totals]] = await db.batch([
    db
      .select(dayColumns)
      .from(cashEntries)
      .where(dayWhere(query))
      .groupBy(cashEntries.cashBoxId, cashEntries.date)
      .orderBy(query.sort.descending ? desc(cashEntries.date) : asc(cashEntries.date))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db
      .select({
        total: sql<number>`count(DISTINCT ${cashEntries.date})`.mapWith(Number),
        amountIn: sum(sql`CASE WHEN ${cashEntries.amount} > 0 THEN ${cashEntries.amount} ELSE 0 END `).mapWith(Number),
        amountOut: sum(sql`CASE WHEN ${cashEntries.amount} < 0 THEN -${cashEntries.amount} ELSE 0 END `).mapWith(Number),
      })
      .from(cashEntries)
      .where(dayWhere(query)),
  ]);
  return { rows: rows.map(dayRow), total: totals.total, sums: { amountIn: totals.amountIn ?? 0, amountOut: totals.amountOut ?? 0 } };
}

export async function allCashDays(db: Db, query: DayQuery): Promise<CashDayRow[]> {
  const rows = await db
    .select(dayColumns)
    .from(cashEntries)
    .where(dayWhere(query))
    .groupBy(cashEntries.cashBoxId, cashEntries.date)
    .orderBy(query.sort.descending ? desc(cashEntries.date) : asc(cashEntries.date));
  return rows.map(dayRow);
}

/** The balance before the first entry of a period (the book's carried-forward figure). */
async function cashBalanceBefore(db: Db, date: string, box = JOURNAL_CASH_BOX): Promise<number> {
  const [row] = await db
    .select({ balance: cashEntries.balance })
    .from(cashEntries)
    .where(and(eq(cashEntries.cashBoxId, box), sql`${cashEntries.date} < ${date}`))
    .orderBy(desc(cashEntries.id))
    .limit(1);
  return row?.balance ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Booking

export type CashBookingInput = {
  kind: ManualCashKind;
  date: string;
  amount: number;
  text: string;
  account?: string | null;
  sphere?: Sphere | null;
  key: string | null;
};
export type CashOutcome =
  { status: "booked"; id: number; receiptNumber: string } | { status: "already" } | { status: "refused"; message: string; field?: "amount" | "date" };

/** The key of a booking by form ('form:{id}'): a form sent twice books once. */
const formKey = (key: string | null) => `form:${key ?? crypto.randomUUID()}`;

async function entryByKey(db: Db, entryKey: string) {
  const [row] = await db
    .select({ id: cashEntries.id, receiptNumber: sql<string>`${cashEntries.receiptNumber}` })
    .from(cashEntries)
    .where(eq(cashEntries.entryKey, entryKey));
  return row;
}

/**
 * 'Buchung erfassen': an entry without a person (Einlage in; Ausgabe, Bankeinzahlung, Entnahme out)
 * after the Kasse's last one. `amount` is positive; the kind gives the direction. Refused with a
 * German message when the Kasse lacks the cash or the date lies before the last entry.
 */
export async function bookCashEntry(db: Db, input: CashBookingInput, actor: Actor, now = new Date()): Promise<CashOutcome> {
  if (!(input.amount > 0)) return { status: "refused", field: "amount", message: "Der Betrag muss größer als 0,00 € sein." };
  const entryKey = formKey(input.key);
  if (await entryByKey(db, entryKey)) return { status: "already" };
  const amount = isCashIn(input.kind) ? input.amount : -input.amount;
  try {
    await runAtomically(db, [
      render(
        cashEntryInsert({
          box: sql`${JOURNAL_CASH_BOX}`,
          entryKey: sql`${entryKey}`,
          date: sql`${input.date}`,
          kind: sql`${input.kind}`,
          amount: sql`${amount}`,
          text: sql`${input.text}`,
          paymentId: sql`NULL`,
          reversesEntryId: sql`NULL`,
          account: sql`${input.account ?? null}`,
          sphere: sql`${input.sphere ?? null}`,
          createdBy: sql`${actor.name}`,
          createdOn: sql`${now.toISOString()}`,
        }),
      ),
    ]);
  } catch (error) {
    if (/UNIQUE constraint failed: cash_entries\.entry_key/i.test(String(error) + String((error as { cause?: unknown }).cause ?? "")))
      return { status: "already" };
    const message = await cashBookRefusal(db, error, amount < 0 ? -amount : undefined);
    if (message === null) throw error;
    return { status: "refused", message, field: message.startsWith("Der Kassenbestand") ? "amount" : "date" };
  }
  const booked = await entryByKey(db, entryKey);
  return { status: "booked", id: booked.id, receiptNumber: booked.receiptNumber };
}

/** Why an entry cannot be cancelled, or null. */
export function cashReversalRefusal(entry: Pick<CashEntryRow, "reversesEntryId" | "reversedByNumber">): string | null {
  if (entry.reversesEntryId !== null) return "Eine Stornobuchung wird nicht storniert: Die ursprüngliche Buchung bleibt storniert.";
  if (entry.reversedByNumber !== null) return `Diese Buchung ist schon storniert (Beleg ${entry.reversedByNumber}).`;
  return null;
}

/**
 * 'Stornieren': a counter-entry dated `date` naming the entry, with the negated amount (GoBD: the
 * entry stays). A cash payment of the journal is undone as the journal undoes it ('Zurückbuchen':
 * its allocations negated, what it paid open again), which writes the Kasse's counter-entry with it.
 */
export async function reverseCashEntry(db: Db, id: number, date: string, actor: Actor, now = new Date()): Promise<CashOutcome | { status: "missing" }> {
  const entry = await getCashEntry(db, id);
  if (!entry) return { status: "missing" };
  const refusal = cashReversalRefusal(entry);
  if (refusal) return { status: "refused", message: refusal };
  const text = `Storno von Beleg ${entry.receiptNumber} (${CASH_ENTRY_KIND_LABELS[entry.kind]}), von ${actor.name}`;
  if (entry.paymentId !== null) {
    const outcome = await reversePayment(db, entry.paymentId, { date, text }, actor, now);
    if (outcome.status !== "reversed") return outcome;
  } else {
    try {
      await runAtomically(db, [
        render(
          cashEntryInsert({
            box: sql`${JOURNAL_CASH_BOX}`,
            entryKey: sql`NULL`,
            date: sql`${date}`,
            kind: sql`${entry.kind}`,
            amount: sql`${-entry.amount}`,
            text: sql`${text}`,
            paymentId: sql`NULL`,
            reversesEntryId: sql`${entry.id}`,
            account: sql`${entry.account}`,
            sphere: sql`${entry.sphere}`,
            createdBy: sql`${actor.name}`,
            createdOn: sql`${now.toISOString()}`,
          }),
        ),
      ]);
    } catch (error) {
      const message = await cashBookRefusal(db, error, entry.amount > 0 ? entry.amount : undefined);
      if (message === null) throw error;
      return { status: "refused", message };
    }
  }
  const [counter] = await db
    .select({ id: cashEntries.id, receiptNumber: sql<string>`${cashEntries.receiptNumber}` })
    .from(cashEntries)
    .where(eq(cashEntries.reversesEntryId, id));
  return counter
    ? { status: "booked", id: counter.id, receiptNumber: counter.receiptNumber }
    : { status: "refused", message: "Die Buchung wurde nicht storniert." };
}

/** The toast after a booking: 'Beleg K-2026-0003 gebucht: Ausgabe 12,00 €'. */
export const bookedMessage = (receiptNumber: string, kind: ManualCashKind, amount: number) =>
  `Beleg ${receiptNumber} gebucht: ${CASH_ENTRY_KIND_LABELS[kind]} ${formatMoney(amount)}`;

/** The printed Kassenbuch of a period: the balance carried forward, the days with their entries, the closing balance. */
export async function cashBookPrint(db: Db, period: Period, today: string) {
  const range = periodRange(period, today);
  const [entries, opening] = await Promise.all([
    allCashEntries(db, { period, today, sort: CASH_DEFAULT_SORT }),
    range ? cashBalanceBefore(db, range[0]) : Promise.resolve(0),
  ]);
  const days = cashBookDays(entries, opening);
  return { range, opening, days, closing: days.at(-1)?.closing ?? opening };
}
