/**
 * Das Zahlungsjournal (issue 30 item 4; § 146 Abs. 1 and 4 AO, GoBD): every payment in or out is
 * one entry (app/db/schema.ts `payments`) with what it paid (`payment_allocations`). Entries are
 * never changed or deleted (triggers of app/db/frozen.ts); a wrong one is undone by a counter-entry
 * naming it. The open amount of an invoice or fee goes down by each allocation in the statement
 * that writes it (the trigger `payment_allocations_apply`): open = amount - allocations, derived.
 * What an entry did not allocate is its payer's credit (Guthaben), which later allocations of the
 * same entry use up and a refund (an entry below zero) pays out.
 *
 * Every way money arrives goes through here: the bank statement import, the direct-debit run, the
 * Mollie webhook, 'bezahlt' in the dialogs, and the Stornorechnung (an entry 'Verrechnung').
 * Each caller names its entry by an idempotency key (`entryKey`), so a retry books nothing twice.
 */
import { and, between, count, desc, eq, sql, sum, type SQL } from "drizzle-orm";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { qualified } from "~/db/columns";
import { fees, invoiceHeaders, invoiceRows, paymentAllocations, payments, people, type PaymentMethod, type PaymentSource } from "~/db/schema";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { formatMoney } from "~/lib/format";
import { reversalRefusal } from "~/lib/payments";
import { PERIODS, periodRange, type Period } from "~/lib/periods";
import type { Actor } from "./audit.server";
import { cashBookRefusal } from "./cash-refusal.server";
import { errorText, isAbortedAsUnchanged } from "./constraints.server";
import { pageOfPosition, personNameKeys, positionInOrder, sortKey, type SortKey } from "./paging.server";
import { containsPattern } from "./search.server";

/** 'ReNr 2026001': the payment reference of the fees an invoice settles (spec 001 §4). */
export const PAYMENT_REFERENCE_PREFIX = "ReNr ";
export const paymentReferenceOf = (invoiceNumber: number) => `${PAYMENT_REFERENCE_PREFIX}${invoiceNumber}`;

/**
 * The fees billed on an invoice, settled as the invoice settles them: open amount 0, no due date,
 * the payment reference 'ReNr {n}' (saving the invoice; a payment that leaves nothing open on it).
 * Not the fees a Stornorechnung released (they are open again). `onlyWhen` narrows it further.
 */
export function invoiceFeesSettled(invoiceId: number, invoiceNumber: number, actorName: string, nowIso: string, onlyWhen?: SQL): Statement {
  return render(sql`UPDATE ${fees} SET open_amount = 0, due_date = NULL, payment_reference = ${paymentReferenceOf(invoiceNumber)},
      last_modified_by = ${actorName}, last_modified_on = ${nowIso}, row_version = row_version + 1
    WHERE id IN (SELECT fee_id FROM ${invoiceRows} WHERE invoice_id = ${invoiceId} AND fee_id IS NOT NULL AND fee_released = 0)${onlyWhen ? sql` AND ${onlyWhen}` : sql``}`);
}

export type JournalEntry = {
  entryKey: string;
  personId: number;
  date: string;
  /** Cents: above zero in, below zero out. */
  amount: number;
  method: PaymentMethod;
  source: Exclude<PaymentSource, "REVERSAL">;
  sourceRef?: string | null;
  text: string;
};

/** One allocation of an entry: to an issued invoice (its number settles its fees once nothing is
 *  open) or to a fee; `expectedOpen` makes the batch stand only while the target's open amount is
 *  still what the allocation was planned from. */
export type Allocation = ({ invoiceId: number; invoiceNumber: number } | { feeId: number | SQL }) & { amount: number; expectedOpen?: number };

/** The outer entry's id in a correlated subquery, named with its table: drizzle leaves columns
 *  unqualified in a one-table query, where `id` would be the subquery's own. */
const OUTER_PAYMENT_ID = sql.raw('"payments"."id"');
/** What an entry allocated, and the counter-entry that undid it (correlated to the outer entry). */
const allocatedOf = sql<number>`coalesce((SELECT sum(a.amount) FROM ${paymentAllocations} a WHERE a.payment_id = ${OUTER_PAYMENT_ID}), 0)`;
const reversedByOf = sql<number | null>`(SELECT r.id FROM ${payments} r WHERE r.reverses_payment_id = ${OUTER_PAYMENT_ID})`;

const entryIdOf = (entryKey: string) => sql`(SELECT id FROM ${payments} WHERE entry_key = ${entryKey})`;

/** INSERT of one journal entry (a repeated key fails on the unique index: nothing twice). */
export function entryInsert(entry: JournalEntry, actor: Actor, nowIso: string): Statement {
  return render(sql`INSERT INTO ${payments} (entry_key, person_id, date, amount, method, source, source_ref, text, created_by, created_on)
    VALUES (${entry.entryKey}, ${entry.personId}, ${entry.date}, ${entry.amount}, ${entry.method}, ${entry.source}, ${entry.sourceRef ?? null},
      ${entry.text.slice(0, 200)}, ${actor.name}, ${nowIso})`);
}

/**
 * The statements of one allocation of the entry `entryKey`: the allocation (which lowers the open
 * amount), then what follows from it: a fee with nothing open has no due date any more; an invoice
 * with nothing open settles its fees ('ReNr {n}'). `touch` counts the target's rowVersion up (an
 * open dialog then sees the change); off when the caller's batch updates the target itself.
 */
export function allocationStatements(entryKey: string, allocation: Allocation, actor: Actor, nowIso: string, { touch = true } = {}): Statement[] {
  const isInvoice = "invoiceId" in allocation;
  const table = isInvoice ? invoiceHeaders : fees;
  const targetId = isInvoice ? allocation.invoiceId : allocation.feeId;
  const guard =
    allocation.expectedOpen === undefined ? sql`` : sql` WHERE (SELECT open_amount FROM ${table} WHERE id = ${targetId}) = ${allocation.expectedOpen}`;
  const statements: Statement[] = [
    render(sql`INSERT INTO ${paymentAllocations} (payment_id, invoice_id, fee_id, amount, created_by, created_on)
      SELECT ${entryIdOf(entryKey)}, ${isInvoice ? targetId : null}, ${isInvoice ? null : targetId}, ${allocation.amount}, ${actor.name}, ${nowIso}${guard}`),
  ];
  if (allocation.expectedOpen !== undefined) statements.push(ABORT_UNLESS_CHANGED);
  const audit = touch ? sql`, last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1` : sql``;
  if (isInvoice) {
    if (touch) {
      statements.push(
        render(
          sql`UPDATE ${invoiceHeaders} SET last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1 WHERE id = ${targetId}`,
        ),
      );
    }
    statements.push(
      invoiceFeesSettled(
        allocation.invoiceId,
        allocation.invoiceNumber,
        actor.name,
        nowIso,
        sql`(SELECT open_amount FROM ${invoiceHeaders} WHERE id = ${targetId}) = 0 AND (open_amount > 0 OR payment_reference IS NOT ${paymentReferenceOf(allocation.invoiceNumber)})`,
      ),
    );
  } else {
    statements.push(render(sql`UPDATE ${fees} SET due_date = CASE WHEN open_amount = 0 THEN NULL ELSE due_date END${audit} WHERE id = ${targetId}`));
  }
  return statements;
}

/**
 * Counter-entries ('Gegenbuchung') for every entry `originals` selects that is neither undone nor
 * itself a counter-entry: each the negated amount of its original with every allocation negated
 * (the open amounts go up again), keyed 'reversal:{id}' so that it happens once. The allocations
 * follow the counter-entries this batch wrote (its instant and actor), not `originals` again: an
 * undone entry may no longer be among what `originals` selects.
 */
export function reversalStatements(
  originals: SQL,
  input: { date: string; text: string; sourceRef?: string | null },
  actor: Actor,
  nowIso: string,
): Statement[] {
  return [
    render(sql`INSERT INTO ${payments} (entry_key, person_id, date, amount, method, source, source_ref, reverses_payment_id, text, created_by, created_on)
      SELECT 'reversal:' || y.id, y.person_id, ${input.date}, -y.amount, y.method, 'REVERSAL', coalesce(${input.sourceRef ?? null}, y.source_ref), y.id,
        substr(${input.text}, 1, 200), ${actor.name}, ${nowIso}
      FROM ${payments} y WHERE y.id IN (${originals}) AND y.source <> 'REVERSAL'
        AND NOT EXISTS (SELECT 1 FROM ${payments} r WHERE r.reverses_payment_id = y.id)`),
    render(sql`INSERT INTO ${paymentAllocations} (payment_id, invoice_id, fee_id, amount, created_by, created_on)
      SELECT r.id, a.invoice_id, a.fee_id, -a.amount, ${actor.name}, ${nowIso}
      FROM ${payments} r JOIN ${paymentAllocations} a ON a.payment_id = r.reverses_payment_id
      WHERE r.source = 'REVERSAL' AND r.created_on = ${nowIso} AND r.created_by = ${actor.name}
        AND NOT EXISTS (SELECT 1 FROM ${paymentAllocations} x WHERE x.payment_id = r.id)`),
  ];
}

// ---------------------------------------------------------------------------------------------
// Reading

/** A person's credit in cents: what their entries did not allocate (SQL, for lists and checks). */
const creditOfPerson = (personId: SQL | number) =>
  sql<number>`(coalesce((SELECT sum(y.amount) FROM ${payments} y WHERE y.person_id = ${personId}), 0)
    - coalesce((SELECT sum(a.amount) FROM ${paymentAllocations} a JOIN ${payments} y ON y.id = a.payment_id WHERE y.person_id = ${personId}), 0))`;

export async function personCredit(db: Db, personId: number): Promise<number> {
  const [row] = await db.select({ credit: creditOfPerson(personId).mapWith(Number) }).from(sql`(SELECT 1)`);
  return row?.credit ?? 0;
}

/** The entries of a person with credit left, oldest first: what 'Guthaben verrechnen' allocates from. */
async function entriesWithCredit(db: Db, personId: number) {
  const rows = await db
    .select({
      entryKey: payments.entryKey,
      rest: sql<number>`${payments.amount} - ${allocatedOf}`.mapWith(Number),
    })
    .from(payments)
    .where(and(eq(payments.personId, personId), sql`${payments.amount} > 0`))
    .orderBy(payments.date, payments.id);
  return rows.filter((row) => row.rest > 0);
}

export type PaymentRecord = typeof payments.$inferSelect & { allocated: number; reversedBy: number | null };

export async function getPayment(db: Db, id: number): Promise<PaymentRecord | undefined> {
  const [row] = await db
    .select({
      payment: payments,
      allocated: allocatedOf.mapWith(Number),
      reversedBy: reversedByOf,
    })
    .from(payments)
    .where(eq(payments.id, id));
  return row ? { ...row.payment, allocated: row.allocated, reversedBy: row.reversedBy } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Booking by hand

export type Target = { type: "INVOICE" | "FEE"; id: number };

type OpenTarget = { personId: number; openAmount: number; label: string; invoiceNumber: number | null; refusal: string | null };

/** What is open on an invoice or fee and whether a payment may go to it (German reason if not). */
export async function openTarget(db: Db, target: Target): Promise<OpenTarget | undefined> {
  if (target.type === "INVOICE") {
    const [row] = await db
      .select({
        personId: invoiceHeaders.personId,
        openAmount: invoiceHeaders.openAmount,
        status: invoiceHeaders.status,
        kind: invoiceHeaders.kind,
        invoiceNumber: invoiceHeaders.invoiceNumber,
      })
      .from(invoiceHeaders)
      .where(eq(invoiceHeaders.id, target.id));
    if (!row) return undefined;
    const label = row.invoiceNumber ? `Rechnung ${row.invoiceNumber}` : "Der Rechnungsentwurf";
    const refusal =
      row.status !== "ISSUED"
        ? "Auf einen Entwurf wird nicht gezahlt: Die Rechnung muss zuerst ausgestellt werden."
        : row.kind !== "INVOICE"
          ? "Eine Stornorechnung oder Gutschrift wird nicht bezahlt; sie wird mit der Rechnung verrechnet."
          : null;
    return { personId: row.personId, openAmount: row.openAmount, label, invoiceNumber: row.invoiceNumber, refusal };
  }
  const [row] = await db
    .select({
      personId: fees.personId,
      openAmount: fees.openAmount,
      text: fees.text,
      invoiceNumber: sql<
        number | null
      >`(SELECT h.invoice_number FROM ${invoiceRows} r JOIN ${invoiceHeaders} h ON h.id = r.invoice_id WHERE r.fee_id = "fees"."id" AND r.fee_released = 0 AND h.status = 'ISSUED')`,
    })
    .from(fees)
    .where(eq(fees.id, target.id));
  if (!row) return undefined;
  // A fee on a draft is still the open claim: paid on, the payment goes over to the invoice when it is issued.
  const refusal = row.invoiceNumber !== null ? `Der Posten steht auf der Rechnung ${row.invoiceNumber}: Die Zahlung wird auf die Rechnung gebucht.` : null;
  return { personId: row.personId, openAmount: row.openAmount, label: `Posten „${row.text}“`, invoiceNumber: null, refusal };
}

/** A payment entered in a dialog: how and when it came in, and the form's id (the entry key). */
export type DialogPayment = { method: "TRANSFER" | "CASH"; date: string; key: string | null };

export const OPEN_AMOUNT_RAISED =
  "Der offene Betrag ergibt sich aus den gebuchten Zahlungen und wird nicht höher gesetzt: Eine falsch gebuchte Zahlung wird unter „Zahlungen“ zurückgebucht.";
export const PAYMENT_ALREADY_BOOKED = "Diese Zahlung ist schon gebucht (das Formular wurde zweimal gesendet).";

/**
 * The journal entry of a payment entered in a dialog (a lower open amount, 'Bezahlt' ticked) and
 * its allocation, for the dialog's batch. The entry key is the form's id ('form:{key}'): the same
 * form sent twice fails on it and books once.
 */
export function dialogPaymentStatements(
  payment: DialogPayment,
  entry: { personId: number; amount: number; text: string },
  allocation: Allocation,
  actor: Actor,
  now: Date,
): Statement[] {
  const nowIso = now.toISOString();
  const entryKey = `form:${payment.key ?? crypto.randomUUID()}`;
  return [
    entryInsert(
      {
        entryKey,
        personId: entry.personId,
        date: payment.date,
        amount: entry.amount,
        method: payment.method,
        source: payment.method === "CASH" ? "CASH_RECEIPT" : "MANUAL",
        text: `${entry.text}, erfasst von ${actor.name}`,
      },
      actor,
      nowIso,
    ),
    ...allocationStatements(entryKey, allocation, actor, nowIso, { touch: false }),
  ];
}

export const isDuplicateEntry = (error: unknown) => /UNIQUE constraint failed: payments\.entry_key/i.test(errorText(error));

export type ReverseOutcome = { status: "reversed" } | { status: "refused"; message: string } | { status: "missing" };

/**
 * 'Zurückbuchen': undoes a wrong entry by a counter-entry naming it (the entry stays, GoBD); its
 * allocations are negated, so what it paid is open again. Refused for counter-entries, entries
 * undone already, corrections, and entries whose invoice has been cancelled since.
 */
export async function reversePayment(db: Db, id: number, input: { date: string; text: string }, actor: Actor, now = new Date()): Promise<ReverseOutcome> {
  const entry = await getPayment(db, id);
  if (!entry) return { status: "missing" };
  const refusal = reversalRefusal(entry);
  if (refusal) return { status: "refused", message: refusal };
  // A payment of a donation is undone only after the donation is cancelled ('Stornieren' under
  // Spenden): its fee would be owed again.
  const [donation] = await db.all<{ id: number }>(sql`SELECT d.id FROM donations d JOIN ${paymentAllocations} a ON a.fee_id = d.fee_id
    WHERE a.payment_id = ${id} AND d.cancelled_on IS NULL GROUP BY d.id HAVING sum(a.amount) <> 0 LIMIT 1`);
  if (donation) {
    return {
      status: "refused",
      message:
        "Diese Zahlung bezahlt eine Spende: Erst die Spende unter „Spenden“ stornieren, dann ist der Betrag Guthaben und die Zahlung lässt sich zurückbuchen.",
    };
  }
  const [cancelled] = await db
    .select({ invoiceNumber: invoiceHeaders.invoiceNumber })
    .from(paymentAllocations)
    .innerJoin(invoiceHeaders, eq(invoiceHeaders.id, paymentAllocations.invoiceId))
    .where(
      and(
        eq(paymentAllocations.paymentId, id),
        sql`EXISTS (SELECT 1 FROM ${invoiceHeaders} s WHERE s.corrects_invoice_id = ${qualified(invoiceHeaders.id)} AND s.kind = 'STORNO')`,
      ),
    );
  if (cancelled) {
    return {
      status: "refused",
      message: `Die Rechnung ${cancelled.invoiceNumber} ist inzwischen storniert: Die Zahlung steht als Guthaben der Person und wird erstattet oder verrechnet, nicht zurückgebucht.`,
    };
  }
  const credit = await personCredit(db, entry.personId);
  const unallocated = entry.amount - entry.allocated;
  if (unallocated > 0 && credit < unallocated) {
    return { status: "refused", message: `Das Guthaben aus dieser Zahlung (${formatMoney(unallocated)}) ist schon verrechnet oder erstattet.` };
  }
  const nowIso = now.toISOString();
  let refused: string | null = null;
  // Aborted unless the counter-entry was written (not undone meanwhile); checked after the entry
  // itself, as an entry that allocated nothing has no allocations to negate.
  const [counterEntry, counterAllocations] = reversalStatements(sql`${id}`, { date: input.date, text: input.text }, actor, nowIso);
  await runAtomically(db, [
    counterEntry,
    ABORT_UNLESS_CHANGED,
    counterAllocations,
    render(sql`UPDATE ${fees} SET due_date = coalesce(due_date, ${input.date}), last_modified_by = ${actor.name}, last_modified_on = ${nowIso},
        row_version = row_version + 1
      WHERE open_amount > 0 AND id IN (SELECT fee_id FROM ${paymentAllocations} WHERE payment_id = ${id} AND fee_id IS NOT NULL)`),
  ]).catch(async (error: unknown) => {
    if (isAbortedAsUnchanged(error)) return;
    // A cash entry's counter-entry is a Kasse entry too: refused if the Kasse lacks the cash.
    const message = await cashBookRefusal(db, error, entry.amount > 0 ? entry.amount : undefined);
    if (message === null) throw error;
    refused = message;
  });
  if (refused) return { status: "refused", message: refused };
  return (await getPayment(db, id))?.reversedBy ? { status: "reversed" } : { status: "refused", message: "Diese Zahlung ist schon zurückgebucht." };
}

export type CreditOutcome = { status: "used"; amount: number } | { status: "refused"; message: string } | { status: "stale" };

/**
 * 'Guthaben verrechnen': the payer's credit pays an invoice or fee of theirs, as new allocations of
 * the entries that left it (oldest first), up to what is open.
 */
export async function useCredit(db: Db, target: Target, actor: Actor, now = new Date()): Promise<CreditOutcome> {
  const open = await openTarget(db, target);
  if (!open) return { status: "refused", message: "Die Rechnung bzw. der Posten ist nicht mehr da." };
  if (open.refusal) return { status: "refused", message: open.refusal };
  if (open.openAmount <= 0) return { status: "refused", message: `${open.label} ist bereits bezahlt.` };
  const nowIso = now.toISOString();
  const statements: Statement[] = [];
  // A refund (an entry below zero) lowers the credit without allocations: never use more than is left.
  let left = Math.min(open.openAmount, await personCredit(db, open.personId));
  let openNow = open.openAmount;
  let used = 0;
  for (const entry of await entriesWithCredit(db, open.personId)) {
    const amount = Math.min(entry.rest, left);
    if (amount <= 0) break;
    const allocation: Allocation =
      target.type === "INVOICE"
        ? { invoiceId: target.id, invoiceNumber: open.invoiceNumber!, amount, expectedOpen: openNow }
        : { feeId: target.id, amount, expectedOpen: openNow };
    statements.push(...allocationStatements(entry.entryKey, allocation, actor, nowIso));
    left -= amount;
    openNow -= amount;
    used += amount;
  }
  if (used === 0) return { status: "refused", message: "Die Person hat kein Guthaben." };
  try {
    await runAtomically(db, statements);
  } catch (error) {
    if (isAbortedAsUnchanged(error)) return { status: "stale" };
    throw error;
  }
  return { status: "used", amount: used };
}

/**
 * The allocations that pay `amount` of the fee `feeId` (SQL: a fee of the same batch) from the
 * person's credit, oldest entries first, and a guard that aborts the batch (isAbortedAsUnchanged)
 * should the credit have been used meanwhile; null when the credit is short.
 */
export async function paidFromCreditStatements(
  db: Db,
  personId: number,
  amount: number,
  feeId: SQL,
  actor: Actor,
  nowIso: string,
): Promise<Statement[] | null> {
  if ((await personCredit(db, personId)) < amount) return null;
  const statements: Statement[] = [];
  let left = amount;
  for (const entry of await entriesWithCredit(db, personId)) {
    const part = Math.min(entry.rest, left);
    if (part <= 0) break;
    statements.push(...allocationStatements(entry.entryKey, { feeId, amount: part }, actor, nowIso, { touch: false }));
    left -= part;
  }
  if (left > 0) return null;
  statements.push(render(sql`SELECT CASE WHEN ${creditOfPerson(personId)} < 0 THEN json('unchanged') END`));
  return statements;
}

// ---------------------------------------------------------------------------------------------
// The Zahlungen grid

export const PAYMENT_PERIODS = PERIODS;
export type PaymentPeriod = Period;
export const PAYMENT_DEFAULT_SORT: SortSpec = { id: "date", descending: true };

export type PaymentQuery = { personId?: number; method?: PaymentMethod; period: PaymentPeriod; search?: string; sort: SortSpec; today: string };

export type PaymentRow = {
  id: number;
  date: string;
  personId: number;
  personName: string | null;
  amount: number;
  method: PaymentMethod;
  source: PaymentSource;
  sourceRef: string | null;
  text: string;
  /** What the entry paid on invoices and fees, and what it left as credit (negative: paid out). */
  allocated: number;
  unallocated: number;
  /** The counter-entry that undid it, or the entry a counter-entry undoes. */
  reversedBy: number | null;
  reversesPaymentId: number | null;
  /** The person's credit now (what 'Guthaben erstatten' may pay out). */
  personCredit: number;
  createdBy: string;
};

const paymentColumns = {
  id: payments.id,
  date: payments.date,
  personId: payments.personId,
  personName: people.fullName,
  amount: payments.amount,
  method: payments.method,
  source: payments.source,
  sourceRef: payments.sourceRef,
  text: payments.text,
  allocated: allocatedOf.mapWith(Number),
  unallocated: sql<number>`${payments.amount} - ${allocatedOf}`.mapWith(Number),
  reversedBy: reversedByOf,
  reversesPaymentId: payments.reversesPaymentId,
  personCredit: creditOfPerson(sql`"payments"."person_id"`).mapWith(Number),
  createdBy: payments.createdBy,
};

const PAYMENT_SORTS: Record<string, SortKey> = {
  date: sortKey(sql`${payments.date}`),
  personName: sortKey(...personNameKeys(payments.personId)),
  amount: sortKey(sql`${payments.amount}`),
  method: sortKey(sql`${payments.method}`),
  createdBy: sortKey(sql`${payments.createdBy}`),
};

function paymentWhere(query: Omit<PaymentQuery, "sort">): SQL | undefined {
  const range = periodRange(query.period, query.today);
  const pattern = query.search ? containsPattern(query.search) : null;
  return and(
    query.personId !== undefined ? eq(payments.personId, query.personId) : undefined,
    query.method ? eq(payments.method, query.method) : undefined,
    range ? between(payments.date, range[0], range[1]) : undefined,
    pattern ? sql`(${people.fullName} LIKE ${pattern} OR ${payments.text} LIKE ${pattern} OR ${payments.sourceRef} LIKE ${pattern})` : undefined,
  );
}

const paymentOrder = (sort: SortSpec): SQL[] => [(PAYMENT_SORTS[sort.id] ?? PAYMENT_SORTS.date)(sort.descending), desc(payments.id)];

/** One page of the journal, the number of entries that match, and the sum of their amounts. */
export async function listPayments(db: Db, query: PaymentQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const [rows, [totals]] = await db.batch([
    db
      .select(paymentColumns)
      .from(payments)
      .innerJoin(people, eq(people.id, payments.personId))
      .where(paymentWhere(query))
      .orderBy(...paymentOrder(query.sort))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db
      .select({ total: count(), amount: sum(payments.amount).mapWith(Number) })
      .from(payments)
      .innerJoin(people, eq(people.id, payments.personId))
      .where(paymentWhere(query)),
  ]);
  return { rows: rows as PaymentRow[], total: totals.total, sums: { amount: totals.amount ?? 0 } };
}

/** Every entry of the query in grid order (Zahlungen.xlsx). */
export async function allPayments(db: Db, query: PaymentQuery): Promise<PaymentRow[]> {
  return (await db
    .select(paymentColumns)
    .from(payments)
    .innerJoin(people, eq(people.id, payments.personId))
    .where(paymentWhere(query))
    .orderBy(...paymentOrder(query.sort))) as PaymentRow[];
}

export async function pageOfPayment(db: Db, id: number, query: PaymentQuery, pageSize = PAGE_SIZE) {
  const ordered = db
    .select({ id: payments.id, position: positionInOrder(paymentOrder(query.sort)) })
    .from(payments)
    .innerJoin(people, eq(people.id, payments.personId))
    .where(paymentWhere(query))
    .as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

// ---------------------------------------------------------------------------------------------
// Refunds

export type RefundOutcome = { status: "refunded"; amount: number } | { status: "already" } | { status: "refused"; message: string; field?: string };

/**
 * 'Guthaben erstatten': pays out (part of) a person's credit as an outgoing entry (below zero) of
 * the method and day given; the credit goes down by it. Never more than the credit. The form's id
 * is the entry's key: sent twice, it pays out once.
 */
export async function refundCredit(
  db: Db,
  input: { personId: number; amount: number; payment: DialogPayment },
  actor: Actor,
  now = new Date(),
): Promise<RefundOutcome> {
  if (!(input.amount > 0)) return { status: "refused", field: "amount", message: "Der Betrag muss größer als 0,00 € sein." };
  const entryKey = `form:${input.payment.key ?? crypto.randomUUID()}`;
  // The same form sent again: booked already (before the credit, which the first one lowered).
  if ((await db.$count(payments, eq(payments.entryKey, entryKey))) > 0) return { status: "already" };
  const credit = await personCredit(db, input.personId);
  if (input.amount > credit) {
    return { status: "refused", field: "amount", message: `Erstattet wird höchstens das Guthaben der Person (${formatMoney(credit)}).` };
  }
  const entry: JournalEntry = {
    entryKey,
    personId: input.personId,
    date: input.payment.date,
    amount: -input.amount,
    method: input.payment.method,
    source: input.payment.method === "CASH" ? "CASH_RECEIPT" : "MANUAL",
    text: `Erstattung des Guthabens, erfasst von ${actor.name}`,
  };
  try {
    await runAtomically(db, [entryInsert(entry, actor, now.toISOString())]);
  } catch (error) {
    if (isDuplicateEntry(error)) return { status: "already" };
    // Paid out in cash: the Kasse must hold it (app/db/cash-book.ts).
    const message = await cashBookRefusal(db, error, input.amount);
    if (message === null) throw error;
    return { status: "refused", message };
  }
  return { status: "refunded", amount: input.amount };
}
