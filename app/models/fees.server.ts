/**
 * All queries and writes of fees (offene Posten, the Kontenblatt). A fee is open while its open
 * amount is above 0; 'fällig' when it has a due date before today and is open (spec 001 §4).
 */
import { and, asc, count, desc, eq, gt, gte, lt, sql, sum, type SQL } from "drizzle-orm";
import type { SQLiteSelect } from "drizzle-orm/sqlite-core";
import { ABORT_UNLESS_CHANGED, runAtomically, toSql, type Db } from "~/db/client.server";
import { fieldsAsSql, indexedBy } from "~/db/columns";
import { courseMemberships, fees, feeTotals, invoiceHeaders, invoiceRows, paymentAllocations, people } from "~/db/schema";
import { formatMoney, todayInBerlin } from "~/lib/format";
import type { BookingOverride } from "~/lib/ledger";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { auditInsert, auditUpdate, type Actor, type UpdateOutcome } from "./audit.server";
import { isAbortedAsUnchanged } from "./constraints.server";
import { dialogPaymentStatements, isDuplicateEntry, OPEN_AMOUNT_RAISED, PAYMENT_ALREADY_BOOKED, type DialogPayment } from "./payments.server";
import { pageOfPosition, positionInOrder, personNameKeys, sortKey, type SortKey } from "./paging.server";
import type { DeleteOutcome } from "./people.server";
import { moveToBin } from "./recycle-bin.server";
import { reminderFilterCondition, type ReminderFilter } from "./reminders.server";
import { DONATION_FEE_FROZEN, isDonationFee } from "./donations.server";

export const FEE_STATES = ["all", "open", "paid", "due"] as const;
export type FeeState = (typeof FEE_STATES)[number];
export const FEE_BILLING = ["all", "invoiced", "notInvoiced"] as const;
export type FeeBilling = (typeof FEE_BILLING)[number];

const columns = {
  id: fees.id,
  personId: fees.personId,
  personName: sql<string>`${people.lastName} || ', ' || ${people.firstName}`.as("person_name"),
  date: fees.date,
  dueDate: fees.dueDate,
  text: fees.text,
  amount: fees.amount,
  openAmount: fees.openAmount,
  comments: fees.comments,
  paymentComments: fees.paymentComments,
  isOpen: sql<boolean>`${fees.openAmount} > 0`.mapWith(Boolean).as("fee_is_open"),
  personErased: sql<boolean>`${people.erasedOn} IS NOT NULL`.mapWith(Boolean).as("person_erased"),
  sendInvoice: fees.sendInvoice,
  isInvoiced: fees.isInvoiced,
  paymentReference: fees.paymentReference,
  courseMembershipId: fees.courseMembershipId,
  courseId: sql<number | null>`${courseMemberships.courseId}`.as("course_id"),
  kind: fees.kind,
  paymentLinkUrl: fees.paymentLinkUrl,
  paymentLinkAmount: fees.paymentLinkAmount,
  reminderLevel: fees.reminderLevel,
  lastReminderDate: fees.lastReminderDate,
};

export type FeeRow = {
  id: number;
  personId: number;
  personName: string;
  date: string;
  dueDate: string | null;
  text: string;
  amount: number;
  openAmount: number;
  comments: string | null;
  paymentComments: string | null;
  isOpen: boolean;
  /** The person was erased (GDPR): no mail goes to 'Gelöschte Person'. */
  personErased: boolean;
  sendInvoice: boolean;
  isInvoiced: boolean;
  paymentReference: string | null;
  courseMembershipId: number | null;
  courseId: number | null;
  kind: string;
  paymentLinkUrl: string | null;
  paymentLinkAmount: number | null;
  /** Mahnstufe (0 without a reminder) and the date of the last reminder of the fee itself. */
  reminderLevel: number;
  lastReminderDate: string | null;
};

/** `reminder`: the toggle 'Nur gemahnte' / 'Mahnung fällig' ('due' reads the stored reminder levels). */
export type FeeQuery = {
  state: FeeState;
  billing: FeeBilling;
  personId?: number;
  sort: SortSpec;
  today?: string;
  reminder?: ReminderFilter;
};

const SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${fees.id}`),
  date: sortKey(sql`${fees.date}`),
  dueDate: sortKey(sql`${fees.dueDate}`),
  text: sortKey(sql`${fees.text} COLLATE NOCASE`),
  personName: sortKey(...personNameKeys(fees.personId)),
  amount: sortKey(sql`${fees.amount}`),
  openAmount: sortKey(sql`${fees.openAmount}`),
  comments: sortKey(sql`${fees.comments}`),
  paymentComments: sortKey(sql`${fees.paymentComments}`),
  isOpen: sortKey(sql`${fees.openAmount} > 0`),
  sendInvoice: sortKey(sql`${fees.sendInvoice}`),
  isInvoiced: sortKey(sql`${fees.isInvoiced}`),
  paymentReference: sortKey(sql`${fees.paymentReference}`),
  reminderLevel: sortKey(sql`${fees.reminderLevel}`),
  lastReminderDate: sortKey(sql`${fees.lastReminderDate}`),
};
/** Newest first, then by person (spec 001 §2 Fees grid). */
export const FEE_DEFAULT_SORT: SortSpec = { id: "date", descending: true };

function orderBy(sort: SortSpec): SQL[] {
  return [(SORTS[sort.id] ?? SORTS.date)(sort.descending), ...personNameKeys(fees.personId).map((key) => asc(key)), desc(fees.id)];
}

/** The Kontenblatt's toggle as a condition: open (something left to pay), paid, or due (open with a
 *  due date before today, the Berlin day). The home page's sums use the same rule. */
function feeStateCondition(state: FeeState, today: string): SQL | undefined {
  return state === "open"
    ? gt(fees.openAmount, 0)
    : state === "paid"
      ? eq(fees.openAmount, 0)
      : state === "due"
        ? and(gt(fees.openAmount, 0), lt(fees.dueDate, today))
        : undefined;
}

/** `alongDate`: the page query walks fees_date_idx (see alongDate), so the reminder toggle must not
 *  offer SQLite the overdue fees' index instead. */
function where({ state, billing, personId, today = todayInBerlin(), reminder }: Omit<FeeQuery, "sort">, alongDate = false) {
  return and(
    reminderFilterCondition(reminder, "FEE", today, { overdueIndex: !alongDate }),
    personId ? eq(fees.personId, personId) : undefined,
    feeStateCondition(state, today),
    billing === "invoiced" ? eq(fees.isInvoiced, true) : billing === "notInvoiced" ? eq(fees.isInvoiced, false) : undefined,
  );
}

function joined<Query extends SQLiteSelect>(select: Query, query: Omit<FeeQuery, "sort">, hint?: SQL) {
  return select
    .innerJoin(people, eq(people.id, fees.personId))
    .leftJoin(courseMemberships, eq(courseMemberships.id, fees.courseMembershipId))
    .where(and(where(query, hint !== undefined), hint));
}

const toRow = (row: FeeRow): FeeRow => ({ ...row, sendInvoice: Boolean(row.sendInvoice), isInvoiced: Boolean(row.isInvoiced) });

/**
 * Sorted by date over all fees (the Kontenblatt as it opens), SQLite left to itself reads every
 * fee and sorts them all (50,000 on the benchmark data). `date >= ''` holds for every fee (the date
 * is required text) but names fees_date_idx: walked along it, the page query stops after its page
 * and sorts only each date's fees by person. Under 'Mahnung fällig' the page query walks the open
 * fees reminded on their own by date instead (fees_remindable_date_idx, named: SQLite would rather
 * read every overdue fee and sort them all by person, computing each one's DIN 5007 name key, about
 * 10x slower); the fees overdue among them come soon, where along every fee 1,306 were read for a
 * page of 50 on the benchmark data. Their count reads fees_remindable_idx. A person's fees
 * (fees_person_idx) keep the planner's choice.
 */
function alongDate(query: FeeQuery): { index?: string; hint?: SQL } {
  const byDate = (query.sort.id === "date" || !(query.sort.id in SORTS)) && !query.personId;
  if (!byDate) return {};
  if (query.reminder === "due") return { index: "fees_remindable_date_idx" };
  return { hint: gte(fees.date, "") };
}

/** Due among fee_totals' open rows: a due date before today (paid rows and open fees without one have ''). */
const keptDue = (today: string) => sql`${feeTotals.dueDate} <> '' AND ${feeTotals.dueDate} < ${today}`;

/**
 * The toggles of state and billing as a condition on fee_totals, the sums the database keeps
 * (app/db/derived.ts); undefined for a query those cannot answer (a person's fees, a reminder
 * filter), which sums the fees themselves. 'Fällig' is open with a due date before today, as
 * feeStateCondition says.
 */
function keptTotalsCondition({ state, billing, personId, reminder, today = todayInBerlin() }: Omit<FeeQuery, "sort">): SQL | undefined | false {
  if (personId || (reminder && reminder !== "all")) return false;
  return and(
    state === "open" ? eq(feeTotals.isOpen, true) : state === "paid" ? eq(feeTotals.isOpen, false) : undefined,
    state === "due" ? and(eq(feeTotals.isOpen, true), keptDue(today)) : undefined,
    billing === "invoiced" ? eq(feeTotals.isInvoiced, true) : billing === "notInvoiced" ? eq(feeTotals.isInvoiced, false) : undefined,
  );
}

/** The number of fees matching `query` and the sums of their amounts and open amounts. */
function totalsOf(db: Db, query: Omit<FeeQuery, "sort">) {
  const kept = keptTotalsCondition(query);
  if (kept !== false) {
    return db
      .select({
        total: sql<number>`coalesce(sum(${feeTotals.fees}), 0)`.mapWith(Number),
        amount: sum(feeTotals.amount).mapWith(Number),
        openAmount: sum(feeTotals.openAmount).mapWith(Number),
      })
      .from(feeTotals)
      .where(kept);
  }
  return db
    .select({ total: count(), amount: sum(fees.amount).mapWith(Number), openAmount: sum(fees.openAmount).mapWith(Number) })
    .from(fees)
    .where(where(query));
}

/** One page of fees, the number of all that match and the sums of their amounts, in one round trip. */
export async function listFees(db: Db, query: FeeQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const page = alongDate(query);
  const [rows, [totals]] = await db.batch([
    joined(
      page.index ? db.select(fieldsAsSql(columns)).from(indexedBy(fees, page.index)).$dynamic() : db.select(columns).from(fees).$dynamic(),
      query,
      page.hint,
    )
      .orderBy(...orderBy(query.sort))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    totalsOf(db, query),
  ]);
  return { rows: (rows as FeeRow[]).map(toRow), total: totals.total, sums: { amount: totals.amount ?? 0, openAmount: totals.openAmount ?? 0 } };
}

export type FeeTotal = { count: number; openAmount: number };

/**
 * What is open and what is due (the Kontenblatt's 'Nur offene' and 'Nur fällige'): how many fees
 * and the sum of their open amounts in cents, from the sums the database keeps (fee_totals).
 */
export async function openAndDueFees(db: Db, today: string): Promise<{ open: FeeTotal; due: FeeTotal }> {
  const due = keptDue(today);
  const [row] = await db
    .select({
      openCount: sql<number>`coalesce(sum(${feeTotals.fees}), 0)`.mapWith(Number),
      openAmount: sql<number>`coalesce(sum(${feeTotals.openAmount}), 0)`.mapWith(Number),
      dueCount: sql<number>`coalesce(sum(${feeTotals.fees}) FILTER (WHERE ${due}), 0)`.mapWith(Number),
      dueAmount: sql<number>`coalesce(sum(${feeTotals.openAmount}) FILTER (WHERE ${due}), 0)`.mapWith(Number),
    })
    .from(feeTotals)
    .where(eq(feeTotals.isOpen, true));
  return { open: { count: row.openCount, openAmount: row.openAmount }, due: { count: row.dueCount, openAmount: row.dueAmount } };
}

/** Every fee of the query in grid order (Kontenblatt.xlsx). */
export async function listAllFees(db: Db, query: FeeQuery): Promise<FeeRow[]> {
  const rows = await joined(db.select(columns).from(fees).$dynamic(), query).orderBy(...orderBy(query.sort));
  return (rows as FeeRow[]).map(toRow);
}

export async function pageOfFee(db: Db, id: number, query: FeeQuery, pageSize = PAGE_SIZE) {
  const ordered = joined(
    db
      .select({ id: fees.id, position: positionInOrder(orderBy(query.sort)) })
      .from(fees)
      .$dynamic(),
    query,
  ).as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

/** The fee's payment link while it is good for what is open (a link for another amount is stale). */
export function currentPaymentLink(fee: { openAmount: number; paymentLinkUrl: string | null; paymentLinkAmount: number | null }): string | null {
  return fee.openAmount > 0 && fee.paymentLinkUrl && fee.paymentLinkAmount === fee.openAmount ? fee.paymentLinkUrl : null;
}

/** The number of the invoice a fee is on (through an invoice row), or NULL. */
export const invoiceNumberOfFee = sql<
  number | null
>`(SELECT h.invoice_number FROM ${invoiceRows} r JOIN ${invoiceHeaders} h ON h.id = r.invoice_id WHERE r.fee_id = "fees"."id" AND r.fee_released = 0 ORDER BY h.id DESC LIMIT 1)`;

/** A fee the books already hold: invoiced (flag or row), or (partly) paid. Never deleted along with anything. */
export const isSettledFee = sql`(${fees.isInvoiced} = 1 OR ${fees.openAmount} < ${fees.amount} OR ${fees.id} IN (SELECT fee_id FROM ${invoiceRows} WHERE fee_id IS NOT NULL))`;

export type FeeRecord = typeof fees.$inferSelect & {
  personName: string | null;
  /** The invoice the fee is on (a row of it), if any. */
  invoiceNumber: number | null;
};

export async function getFee(db: Db, id: number): Promise<FeeRecord | undefined> {
  const [row] = await db
    .select({
      fee: fees,
      personName: people.fullName,
      invoiceNumber: invoiceNumberOfFee,
    })
    .from(fees)
    .innerJoin(people, eq(people.id, fees.personId))
    .where(eq(fees.id, id));
  return row ? { ...row.fee, personName: row.personName, invoiceNumber: row.invoiceNumber } : undefined;
}

export type FeeInput = {
  personId: number;
  date: string;
  dueDate: string | null;
  text: string;
  amount: number;
  /** What the dialog says is open: lower than what the payments leave, the difference is a payment;
   *  null: what the payments leave (a fee billed by invoice, whose open flag is locked). */
  openAmount: number | null;
  comments: string | null;
  paymentComments: string | null;
  sendInvoice: boolean;
  /** How a payment entered with the fee came in (default: a transfer today). */
  payment?: DialogPayment;
} & BookingOverride;

export type FeeSaveOutcome<Current> = UpdateOutcome<Current> | { status: "refused"; message: string; field?: string };

const defaultPayment = (now: Date): DialogPayment => ({ method: "TRANSFER", date: todayInBerlin(now), key: null });

/**
 * Adds a fee; one entered as (partly) paid books that payment into the journal in the same batch
 * (the fee is the newest one there: the batch runs alone).
 */
export async function insertFee(db: Db, input: FeeInput, actor: Actor, now = new Date()): Promise<number> {
  const { payment, openAmount, ...values } = input;
  const paid = input.amount - (openAmount ?? input.amount);
  const newest = sql`(SELECT max(id) FROM ${fees})`;
  const results = await runAtomically(db, [
    toSql(
      db
        .insert(fees)
        .values({ ...values, openAmount: input.amount, kind: "OTHER", isInvoiced: false, ...auditInsert(actor, now) })
        .returning({ id: fees.id }),
    ),
    ...(paid > 0
      ? dialogPaymentStatements(
          payment ?? defaultPayment(now),
          { personId: input.personId, amount: paid, text: `Zahlung auf Posten „${input.text}“` },
          { feeId: newest, amount: paid },
          actor,
          now,
        )
      : []),
  ]);
  return (results[0].results[0] as { id: number }).id;
}

/**
 * Saves a fee quoting its rowVersion. The open amount is what the payments leave: a new amount
 * moves it by the difference (a fee on an invoice stays settled by the invoice); what the dialog
 * shows as open below that is booked as a payment; it never goes up by hand (a payment is undone
 * in 'Zahlungen'), and the amount not below what was paid.
 */
export async function updateFee(
  db: Db,
  id: number,
  rowVersion: number,
  input: Omit<FeeInput, "personId" | "sendInvoice">,
  actor: Actor,
  now = new Date(),
): Promise<FeeSaveOutcome<FeeRecord>> {
  const before = await getFee(db, id);
  if (!before) return { status: "missing" };
  if (before.rowVersion !== rowVersion) return { status: "conflict", current: before };
  if (await isDonationFee(db, id)) return { status: "refused", message: DONATION_FEE_FROZEN };
  // Owed through an issued invoice: settled by it (a fee on a draft is still the open claim).
  const owedByInvoice = before.invoiceNumber !== null;
  const paidBefore = owedByInvoice ? 0 : before.amount - before.openAmount;
  if (!owedByInvoice && input.amount < paidBefore) {
    return {
      status: "refused",
      field: "amount",
      message: `Auf den Posten sind schon ${formatMoney(paidBefore)} gezahlt: Der Betrag kann nicht darunter liegen.`,
    };
  }
  const openByPayments = owedByInvoice ? Math.min(before.openAmount, input.amount) : input.amount - paidBefore;
  const openAmount = input.openAmount ?? openByPayments;
  if (openAmount > openByPayments) return { status: "refused", field: "openAmount", message: OPEN_AMOUNT_RAISED };
  const paid = owedByInvoice ? 0 : openByPayments - openAmount;
  const { payment, openAmount: _openAmount, ...values } = input;
  try {
    await runAtomically(db, [
      toSql(
        db
          .update(fees)
          .set({
            ...values,
            openAmount: owedByInvoice ? sql`min(${fees.openAmount}, ${input.amount})` : sql`${fees.openAmount} + (${input.amount} - ${fees.amount})`,
            ...auditUpdate(actor, fees.rowVersion, now),
          })
          .where(and(eq(fees.id, id), eq(fees.rowVersion, rowVersion))),
      ),
      ABORT_UNLESS_CHANGED,
      ...(paid > 0
        ? dialogPaymentStatements(
            payment ?? defaultPayment(now),
            { personId: before.personId, amount: paid, text: `Zahlung auf Posten „${input.text}“` },
            { feeId: id, amount: paid, expectedOpen: openByPayments },
            actor,
            now,
          )
        : []),
    ]);
  } catch (error) {
    if (isAbortedAsUnchanged(error)) {
      const current = await getFee(db, id);
      return current ? { status: "conflict", current } : { status: "missing" };
    }
    if (isDuplicateEntry(error)) return { status: "refused", message: PAYMENT_ALREADY_BOOKED };
    throw error;
  }
  return { status: "updated" };
}

/**
 * Deletes a fee into the recycle bin. Refused while it is on an invoice (delete the invoice row
 * or the invoice) or is the course fee of a participant (its amount is kept there).
 */
export async function deleteFee(db: Db, id: number, actor: Actor): Promise<DeleteOutcome> {
  const fee = await getFee(db, id);
  if (!fee) return { status: "missing" };
  if (fee.invoiceNumber !== null) {
    return {
      status: "refused",
      message: `Der offene Posten steht auf der Rechnung ${fee.invoiceNumber} und kann nicht gelöscht werden. Lösche zuerst die Rechnungszeile.`,
    };
  }
  if (fee.courseMembershipId !== null) {
    return { status: "refused", message: "Das ist die Kursgebühr einer Kursteilnahme: Sie wird mit der Teilnahme gelöscht oder dort geändert." };
  }
  if ((await db.$count(paymentAllocations, eq(paymentAllocations.feeId, id))) > 0) {
    return {
      status: "refused",
      message:
        "Auf den Posten ist eine Zahlung gebucht: Er bleibt im Zahlungsjournal stehen (§ 146 Abs. 4 AO). Eine falsche Zahlung wird unter „Zahlungen“ zurückgebucht.",
    };
  }
  const transactionId = await moveToBin(db, {
    main: {
      table: fees,
      where: eq(fees.id, id),
      identifiers: [sql`${fees.text}`, sql`(SELECT full_name FROM people WHERE people.id = person_id)`, sql`${fees.date}`],
    },
    deletedBy: actor.name,
  });
  return { status: "deleted", transactionId };
}
