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
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { fees, invoiceHeaders, invoiceRows, paymentAllocations, payments, type PaymentMethod, type PaymentSource } from "~/db/schema";
import { formatMoney } from "~/lib/format";
import type { Actor } from "./audit.server";
import { errorText, isAbortedAsUnchanged } from "./constraints.server";

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

/** The journal's words for its methods (the Zahlungen grid, the dialogs). */
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  TRANSFER: "Überweisung",
  DIRECT_DEBIT: "Lastschrift",
  MOLLIE: "Mollie",
  CASH: "Bar",
  OFFSET: "Verrechnung",
};

/** What a hand booking ('bezahlt' in a dialog, 'Zahlung buchen') may name: the rest comes from its source. */
export const MANUAL_PAYMENT_METHODS = ["TRANSFER", "CASH"] as const satisfies readonly PaymentMethod[];

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
export const creditOfPerson = (personId: SQL | number) =>
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
      rest: sql<number>`${payments.amount} - coalesce((SELECT sum(a.amount) FROM ${paymentAllocations} a WHERE a.payment_id = ${payments.id}), 0)`.mapWith(
        Number,
      ),
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
      allocated: sql<number>`coalesce((SELECT sum(a.amount) FROM ${paymentAllocations} a WHERE a.payment_id = ${payments.id}), 0)`.mapWith(Number),
      reversedBy: sql<number | null>`(SELECT r.id FROM ${payments} r WHERE r.reverses_payment_id = ${payments.id})`,
    })
    .from(payments)
    .where(eq(payments.id, id));
  return row ? { ...row.payment, allocated: row.allocated, reversedBy: row.reversedBy } : undefined;
}

/** The allocations to an invoice or a fee, newest first (the dialogs' 'Zahlungen'). */
export async function allocationsOf(db: Db, target: { invoiceId: number } | { feeId: number }) {
  return db
    .select({
      paymentId: payments.id,
      date: payments.date,
      method: payments.method,
      source: payments.source,
      text: payments.text,
      amount: paymentAllocations.amount,
      createdBy: paymentAllocations.createdBy,
    })
    .from(paymentAllocations)
    .innerJoin(payments, eq(payments.id, paymentAllocations.paymentId))
    .where("invoiceId" in target ? eq(paymentAllocations.invoiceId, target.invoiceId) : eq(paymentAllocations.feeId, target.feeId))
    .orderBy(desc(payments.date), desc(paymentAllocations.id));
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
      >`(SELECT h.invoice_number FROM ${invoiceRows} r JOIN ${invoiceHeaders} h ON h.id = r.invoice_id WHERE r.fee_id = ${fees.id} AND r.fee_released = 0 AND h.status = 'ISSUED')`,
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

export type BookOutcome =
  { status: "booked"; credit: number } | { status: "already" } | { status: "refused"; message: string; field?: string } | { status: "stale" };

export const isDuplicateEntry = (error: unknown) => /UNIQUE constraint failed: payments\.entry_key/i.test(errorText(error));

/**
 * Books a payment by hand (a dialog's 'bezahlt', 'Zahlung buchen') against one invoice or fee:
 * one entry of `amount` cents, of which up to the open amount is allocated and the rest (an
 * overpayment) becomes the payer's credit. One batch; the entry key (the form's own id) makes a
 * second submit of the same form book nothing.
 */
export async function bookPayment(
  db: Db,
  input: { entryKey: string; target: Target; date: string; amount: number; method: PaymentMethod; text: string; sourceRef?: string | null },
  actor: Actor,
  now = new Date(),
): Promise<BookOutcome> {
  const target = await openTarget(db, input.target);
  if (!target) return { status: "refused", message: "Die Rechnung bzw. der Posten ist nicht mehr da." };
  if (target.refusal) return { status: "refused", message: target.refusal };
  if (!(input.amount > 0)) return { status: "refused", message: "Der Betrag muss größer als 0,00 € sein.", field: "amount" };
  if (target.openAmount <= 0) return { status: "refused", message: `${target.label} ist bereits bezahlt.` };
  const nowIso = now.toISOString();
  const entry: JournalEntry = {
    entryKey: input.entryKey,
    personId: target.personId,
    date: input.date,
    amount: input.amount,
    method: input.method,
    source: input.method === "CASH" ? "CASH_RECEIPT" : "MANUAL",
    sourceRef: input.sourceRef ?? null,
    text: input.text,
  };
  const allocated = Math.min(input.amount, target.openAmount);
  const allocation: Allocation =
    input.target.type === "INVOICE"
      ? { invoiceId: input.target.id, invoiceNumber: target.invoiceNumber!, amount: allocated, expectedOpen: target.openAmount }
      : { feeId: input.target.id, amount: allocated, expectedOpen: target.openAmount };
  try {
    await runAtomically(db, [entryInsert(entry, actor, nowIso), ...allocationStatements(entry.entryKey, allocation, actor, nowIso)]);
  } catch (error) {
    if (isDuplicateEntry(error)) return { status: "already" };
    if (isAbortedAsUnchanged(error)) return { status: "stale" };
    throw error;
  }
  return { status: "booked", credit: input.amount - allocated };
}

export type ReverseOutcome = { status: "reversed" } | { status: "refused"; message: string } | { status: "missing" };

/** Why an entry cannot be undone by hand (German), or null. */
export function reversalRefusal(entry: Pick<PaymentRecord, "source" | "reversedBy" | "method">): string | null {
  if (entry.source === "REVERSAL") return "Eine Gegenbuchung wird nicht selbst zurückgebucht: Buche die Zahlung neu.";
  if (entry.reversedBy !== null) return "Diese Zahlung ist schon zurückgebucht.";
  if (entry.source === "CORRECTION") return "Eine Verrechnung mit einer Stornorechnung oder Gutschrift bleibt stehen wie das Dokument.";
  if (entry.source === "DIRECT_DEBIT") return "Eine Lastschrift wird mit ihrer Rücklastschrift (Kontoauszug) oder dem Storno des Laufs zurückgebucht.";
  return null;
}

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
  const [cancelled] = await db
    .select({ invoiceNumber: invoiceHeaders.invoiceNumber })
    .from(paymentAllocations)
    .innerJoin(invoiceHeaders, eq(invoiceHeaders.id, paymentAllocations.invoiceId))
    .where(
      and(
        eq(paymentAllocations.paymentId, id),
        sql`EXISTS (SELECT 1 FROM ${invoiceHeaders} s WHERE s.corrects_invoice_id = ${invoiceHeaders.id} AND s.kind = 'STORNO')`,
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
  await runAtomically(db, [
    ...reversalStatements(sql`${id}`, { date: input.date, text: input.text }, actor, nowIso),
    ABORT_UNLESS_CHANGED,
    render(sql`UPDATE ${fees} SET due_date = coalesce(due_date, ${input.date}), last_modified_by = ${actor.name}, last_modified_on = ${nowIso},
        row_version = row_version + 1
      WHERE open_amount > 0 AND id IN (SELECT fee_id FROM ${paymentAllocations} WHERE payment_id = ${id} AND fee_id IS NOT NULL)`),
  ]).catch((error: unknown) => {
    if (!isAbortedAsUnchanged(error)) throw error;
  });
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
