/**
 * Bank statement import (Kontoauszug, issue 15 item 5): an uploaded statement's bookings are
 * stored once each (their key is unique, so importing the same statement again finds them
 * 'bereits importiert'), matched to open invoices and fees, and booked in one batch once the
 * treasurer confirms. Booking uses the shared payment updates (payment-bookings.server.ts) that
 * the Mollie webhook uses too; the entry's status flips from OPEN to BOOKED in the same batch,
 * guarded, so no booking is ever applied twice.
 *
 * Matching is a list of matchers (MATCHERS): each finds candidates for a credit; the first one
 * that finds any decides. In order: the invoice number ('ReNr {n}'), the fee's number as a fee
 * mail's GiroCode names it ('Posten {id} {text}'), a fee's payment reference, and a SEPA mandate
 * reference ('WUFF-{personId}-{n}', in the text or as the booking's mandate id): that person's
 * open fees billed directly (sendInvoice off), chosen by amount only (one fee with exactly that
 * open amount: matched; several, or several that together make the amount: ambiguous; none:
 * unmatched with a note).
 *
 * A Lastschriftlauf's credit comes before every matcher: a booking that names a run's transaction
 * (its end-to-end id) or its batch (PmtInfId or MsgId 'WUFF-LS-{run}…') is proposed as that run's
 * credit when its amount is what the named debits came to, and booked it pays them
 * (debit-settlements.server.ts).
 *
 * Returned direct debits: a direct-debit run (direct-debits.server.ts) sets each collected fee's
 * paymentReference to the end-to-end id of its transaction (EndToEndId / EREF+ in MT940). The
 * R-transaction names that id, so it finds the fees whose paymentReference equals it, and booking
 * it reopens every fee of that transaction (a person's fees due the same day share one).
 */
import { and, asc, desc, eq, isNotNull, like, not, sql, type SQL } from "drizzle-orm";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { inValues, qualified } from "~/db/columns";
import {
  bankStatementEntries,
  bankStatementImports,
  configuration,
  directDebitItems,
  directDebitRuns,
  fees,
  invoiceHeaders,
  paymentAllocations,
  payments,
  people,
  sepaMandates,
} from "~/db/schema";
import { groupIban, ibanWithCheckDigits, normalizeIban } from "~/lib/banking";
import { type ParsedStatement, type StatementTransaction, transactionKey } from "~/lib/bank-statements.server";
import { formatDate, formatMoney } from "~/lib/format";
import { debitCreditOf, type DebitCredit } from "~/lib/pain008";
import { isChargeableReturn, returnReasonLabel, returnReasonOf } from "~/lib/return-reasons";
import { type Actor } from "./audit.server";
import { isAbortedAsUnchanged } from "./constraints.server";
import { settlementStatements, submittedAmong } from "./debit-settlements.server";
import { appendPaymentComment } from "./payment-bookings.server";
import { allocationStatements, entryInsert, reversalStatements, type Allocation } from "./payments.server";
import { ANONYMISED_NOTE, erasedIbansAmong } from "./gdpr.server";

/** DEBIT_RUN: a Lastschriftlauf's credit (the id is the run's; which of its debits the booking names). */
type TargetType = "INVOICE" | "FEE" | "DEBIT_RUN";
export type Target = { type: TargetType; id: number };

/** An invoice or fee a booking may pay. */
export type OpenItem = Target & {
  label: string;
  personId: number;
  personName: string | null;
  amount: number;
  openAmount: number;
  reference: string | null;
  invoiceNumber?: number;
  /** What is open of the item's reminder fees (kind REMINDER): a reminder's GiroCode asks for both. */
  reminderFeesOpen: number;
};

/** A mandate the statement names, with its person's open fees billed directly. */
type MandateBook = { reference: string; personId: number; personName: string | null; directFees: OpenItem[] };

/** What the matchers know: the invoices, fees ('Posten {id}') and mandates the statement names, the fees with a reference. */
export type MatchBook = {
  invoicesByNumber: Map<number, OpenItem>;
  referencedFees: OpenItem[];
  feesById?: Map<number, OpenItem>;
  mandates?: Map<string, MandateBook>;
};

/** A matcher finds candidates; one `byAmount` decides by the amount alone (no partial payment proposed). */
type Matcher = {
  name: string;
  byAmount?: boolean;
  candidates: (transaction: StatementTransaction, book: MatchBook) => OpenItem[];
  none?: (transaction: StatementTransaction, book: MatchBook) => string | null;
};

const INVOICE_NUMBER = /\bre(?:chnung(?:s)?)?[\s.-]*(?:nr|nummer)?[\s.:-]*(\d{4,9})\b/gi;

/** The invoice numbers a booking's text names: 'ReNr 2026001', 'RE-NR. 2026001', 'Rechnung 2026001'. */
export function invoiceNumbersIn(transaction: Pick<StatementTransaction, "remittance" | "endToEndId">): number[] {
  const text = `${transaction.remittance} ${transaction.endToEndId ?? ""}`;
  return [...new Set([...text.matchAll(INVOICE_NUMBER)].map((match) => Number(match[1])))];
}

const FEE_NUMBER = /\bPosten[\s.:-]*(?:Nr\.?\s*)?(\d{1,9})\b/gi;

/** The fee numbers a booking's text names: 'Posten 123 Jahresbeitrag' (a fee mail's GiroCode). */
function feeNumbersIn(transaction: Pick<StatementTransaction, "remittance" | "endToEndId">): number[] {
  const text = `${transaction.remittance} ${transaction.endToEndId ?? ""}`;
  return [...new Set([...text.matchAll(FEE_NUMBER)].map((match) => Number(match[1])))];
}

// 'WUFF-12-1', not a direct debit's end-to-end id 'WUFF-{run}-{person}-{yyyymmdd}'.
const MANDATE_REFERENCE = /(?<![\w-])WUFF-\d{1,9}-\d{1,4}(?![\w-])/gi;

/** The mandate references a booking names, in its text or as its mandate id. */
function mandateReferencesIn(transaction: Pick<StatementTransaction, "remittance" | "endToEndId" | "mandateId">): string[] {
  const text = `${transaction.remittance} ${transaction.endToEndId ?? ""} ${transaction.mandateId ?? ""}`;
  return [...new Set([...text.matchAll(MANDATE_REFERENCE)].map((match) => match[0].toUpperCase()))];
}

/** Whether some (two or more) of the amounts add up to `total` exactly (at most 16 amounts are tried). */
function someAddUpTo(amounts: number[], total: number): boolean {
  const values = amounts.filter((amount) => amount > 0 && amount < total).slice(0, 16);
  for (let mask = 1; mask < 1 << values.length; mask++) {
    if ((mask & (mask - 1)) === 0) continue;
    let sum = 0;
    for (let index = 0; index < values.length; index++) if (mask & (1 << index)) sum += values[index];
    if (sum === total) return true;
  }
  return false;
}

const mandatesNamed = (transaction: StatementTransaction, book: MatchBook) =>
  mandateReferencesIn(transaction).flatMap((reference) => book.mandates?.get(reference) ?? []);

const MATCHERS: Matcher[] = [
  { name: "Rechnungsnummer", candidates: (transaction, book) => invoiceNumbersIn(transaction).flatMap((number) => book.invoicesByNumber.get(number) ?? []) },
  { name: "Postennummer", candidates: (transaction, book) => feeNumbersIn(transaction).flatMap((id) => book.feesById?.get(id) ?? []) },
  {
    name: "Zahlungsreferenz des Postens",
    candidates: (transaction, book) => {
      const text = `${transaction.remittance} ${transaction.endToEndId ?? ""}`.toLowerCase();
      return book.referencedFees.filter((fee) => fee.reference && fee.reference.length >= 6 && text.includes(fee.reference.toLowerCase()));
    },
  },
  {
    name: "Mandatsreferenz",
    byAmount: true,
    candidates: (transaction, book) => mandatesNamed(transaction, book).flatMap((mandate) => mandate.directFees),
    none: (transaction, book) => {
      const mandates = mandatesNamed(transaction, book);
      if (mandates.length === 0) return null;
      const who = mandates.map((mandate) => `Mandat ${mandate.reference}${mandate.personName ? ` (${mandate.personName})` : ""}`).join(", ");
      return `${who}: kein offener Posten ohne Rechnung über ${formatMoney(transaction.amount)}.`;
    },
  },
];

/** What a payment of `amount` for the item leaves: a part open, the reminder fees paid with it, or an overpayment. */
function paymentNote(amount: number, item: Pick<OpenItem, "openAmount" | "reminderFeesOpen">): string | null {
  if (amount < item.openAmount) return `Teilzahlung: offen bleiben ${formatMoney(item.openAmount - amount)}.`;
  if (amount === item.openAmount) return null;
  const forReminderFees = Math.min(amount - item.openAmount, item.reminderFeesOpen);
  const excess = amount - item.openAmount - forReminderFees;
  const withFees = forReminderFees > 0 ? `Mit Mahngebühr: ${formatMoney(forReminderFees)} davon für die Mahngebühren.` : "";
  const overpaid = excess > 0 ? `Überzahlung: ${formatMoney(excess)} mehr als offen, wird nicht gebucht.` : "";
  return [withFees, overpaid].filter(Boolean).join(" ");
}

export type Proposal = {
  proposal: "MATCHED" | "AMBIGUOUS" | "UNMATCHED" | "RETURN" | "IGNORED";
  target: Target | null;
  candidates: Target[];
  note: string | null;
};

/** The proposal for one booking (pure: the book holds what the database said). */
export function proposeFor(transaction: StatementTransaction, book: MatchBook, returnedFees: Map<string, OpenItem>): Proposal {
  if (transaction.direction === "DBIT") {
    if (!transaction.isReturn) return { proposal: "IGNORED", target: null, candidates: [], note: "Belastung: wird nicht gebucht." };
    const fee = transaction.endToEndId ? returnedFees.get(transaction.endToEndId) : undefined;
    return fee
      ? { proposal: "RETURN", target: { type: "FEE", id: fee.id }, candidates: [], note: null }
      : { proposal: "RETURN", target: null, candidates: [], note: "Kein Posten mit dieser Lastschrift-Referenz gefunden." };
  }
  for (const matcher of MATCHERS) {
    const found = matcher.candidates(transaction, book);
    if (matcher.byAmount) {
      const open = found.filter((item) => item.openAmount > 0);
      const exact = open.filter((item) => item.openAmount === transaction.amount);
      if (exact.length === 1) return { proposal: "MATCHED", target: { type: exact[0].type, id: exact[0].id }, candidates: [], note: null };
      if (exact.length > 1) return { proposal: "AMBIGUOUS", target: null, candidates: exact.map(({ type, id }) => ({ type, id })), note: null };
      if (
        someAddUpTo(
          open.map((item) => item.openAmount),
          transaction.amount,
        )
      ) {
        return {
          proposal: "AMBIGUOUS",
          target: null,
          candidates: open.map(({ type, id }) => ({ type, id })),
          note: "Der Betrag passt zu mehreren offenen Posten zusammen: bitte einen wählen oder auf alle verteilen; was übrig bleibt, wird Guthaben der Person.",
        };
      }
      const note = matcher.none?.(transaction, book) ?? null;
      if (note) return { proposal: "UNMATCHED", target: null, candidates: [], note };
      continue;
    }
    if (found.length === 0) continue;
    const open = found.filter((item) => item.openAmount > 0);
    if (open.length === 0) {
      return { proposal: "UNMATCHED", target: null, candidates: [], note: `${found.map((item) => item.label).join(", ")}: nichts mehr offen.` };
    }
    // A reminder's GiroCode asks for the item and its reminder fees together.
    const exact = open.filter((item) => item.openAmount === transaction.amount || item.openAmount + item.reminderFeesOpen === transaction.amount);
    const chosen = open.length === 1 ? open[0] : exact.length === 1 ? exact[0] : null;
    if (!chosen) return { proposal: "AMBIGUOUS", target: null, candidates: open.map(({ type, id }) => ({ type, id })), note: null };
    return { proposal: "MATCHED", target: { type: chosen.type, id: chosen.id }, candidates: [], note: paymentNote(transaction.amount, chosen) };
  }
  return { proposal: "UNMATCHED", target: null, candidates: [], note: null };
}

// ---------------------------------------------------------------------------------------------
// Credits of Lastschriftläufe (issue 31 item 2, debit-settlements.server.ts)

/** The debits a credit names (SQL selecting item ids): the transaction's, or the batch's or
 *  block's items, in a run not cancelled whose file is written (returned ones included). */
function itemsOfCredit(credit: DebitCredit): SQL {
  const named =
    "endToEndId" in credit
      ? sql`ci.end_to_end_id = ${credit.endToEndId}`
      : sql`ci.run_id = ${credit.runId}${credit.sequenceType ? sql` AND ci.sequence_type = ${credit.sequenceType}` : sql``}${
          credit.collectionDate ? sql` AND ci.collection_date = ${credit.collectionDate}` : sql``
        }`;
  return sql`SELECT ci.id FROM ${directDebitItems} ci JOIN ${directDebitRuns} cr ON cr.id = ci.run_id
    WHERE ${named} AND cr.status <> 'CANCELLED' AND cr.file_key IS NOT NULL`;
}

/** A credit's debits as the review shows them: what was submitted and what of it is not paid yet. */
type CreditGroup = OpenItem & { type: "DEBIT_RUN"; expected: number };

type NamedItem = { id: number; runId: number; endToEndId: string; sequenceType: string; collectionDate: string; amount: number; pending: number };

/** Every debit the credits name (in runs not cancelled whose file is written), with whether it is
 *  still submitted: a few queries for a whole statement, however many credits it has. */
async function itemsNamedBy(db: Db, credits: DebitCredit[]): Promise<NamedItem[]> {
  const endToEndIds = [...new Set(credits.flatMap((credit) => ("endToEndId" in credit ? [credit.endToEndId] : [])))];
  const runIds = [...new Set(credits.flatMap((credit) => ("runId" in credit ? [credit.runId] : [])))];
  const columns = {
    id: directDebitItems.id,
    runId: directDebitItems.runId,
    endToEndId: directDebitItems.endToEndId,
    sequenceType: directDebitItems.sequenceType,
    collectionDate: directDebitItems.collectionDate,
    amount: directDebitItems.amount,
    pending: sql<number>`(${directDebitItems.cancelledOn} IS NULL AND NOT EXISTS (SELECT 1 FROM ${payments} sy WHERE sy.entry_key = 'debit:' || ${qualified(directDebitItems.id)}))`,
  };
  const named = (where: SQL) =>
    db
      .select(columns)
      .from(directDebitItems)
      .innerJoin(directDebitRuns, eq(directDebitRuns.id, directDebitItems.runId))
      .where(and(where, not(eq(directDebitRuns.status, "CANCELLED")), isNotNull(directDebitRuns.fileKey)));
  const rows = new Map<number, NamedItem>();
  const [byEndToEnd, byRun] = await Promise.all([named(inValues(directDebitItems.endToEndId, endToEndIds)), named(inValues(directDebitItems.runId, runIds))]);
  for (const row of [...byEndToEnd, ...byRun]) rows.set(row.id, row);
  return [...rows.values()];
}

/** The credit's debits among `items` as one group, or null when it names none. */
function creditGroupOf(credit: DebitCredit, items: NamedItem[]): CreditGroup | null {
  const mine = items.filter((item) =>
    "endToEndId" in credit
      ? item.endToEndId === credit.endToEndId
      : item.runId === credit.runId &&
        (!credit.sequenceType || item.sequenceType === credit.sequenceType) &&
        (!credit.collectionDate || item.collectionDate === credit.collectionDate),
  );
  if (mine.length === 0) return null;
  const runId = mine[0].runId;
  const expected = mine.reduce((sum, item) => sum + item.amount, 0);
  const block =
    "endToEndId" in credit
      ? ` (Lastschrift ${credit.endToEndId})`
      : credit.collectionDate
        ? ` (${[credit.sequenceType, formatDate(credit.collectionDate)].filter(Boolean).join(" ")})`
        : "";
  return {
    type: "DEBIT_RUN",
    id: runId,
    label: `Lastschriftlauf ${runId}${block}`,
    personId: 0,
    personName: null,
    amount: expected,
    openAmount: mine.reduce((sum, item) => sum + (item.pending ? item.amount : 0), 0),
    reference: null,
    reminderFeesOpen: 0,
    expected,
  };
}

/** The proposal for a run's credit: matched when its amount is what was submitted. */
function settlementProposal(transaction: Pick<StatementTransaction, "amount">, group: CreditGroup): Proposal {
  if (group.openAmount === 0) {
    return { proposal: "UNMATCHED", target: null, candidates: [], note: `${group.label}: schon als bezahlt gebucht oder zurückgegeben, nichts mehr offen.` };
  }
  if (transaction.amount !== group.expected) {
    return {
      proposal: "UNMATCHED",
      target: null,
      candidates: [],
      note: `${group.label}: eingereicht wurden ${formatMoney(group.expected)}, der Betrag passt nicht. Bitte mit der Bank klären.`,
    };
  }
  const settled = group.expected - group.openAmount;
  return {
    proposal: "MATCHED",
    target: { type: "DEBIT_RUN", id: group.id },
    candidates: [],
    note: settled > 0 ? `Davon ${formatMoney(settled)} schon als bezahlt gebucht oder zurückgegeben: gebucht wird der Rest.` : null,
  };
}

/** The run credit each booking names (its key: the caller's), grouped with the debits it names;
 *  bookings naming no run's debits are left out. One read for them all (itemsNamedBy). */
async function creditGroupsOf<Key>(db: Db, named: { key: Key; credit: DebitCredit | null }[]): Promise<Map<Key, CreditGroup>> {
  const credits = named.flatMap(({ key, credit }) => (credit ? [{ key, credit }] : []));
  const items = await itemsNamedBy(
    db,
    credits.map(({ credit }) => credit),
  );
  const groups = new Map<Key, CreditGroup>();
  for (const { key, credit } of credits) {
    const group = creditGroupOf(credit, items);
    if (group) groups.set(key, group);
  }
  return groups;
}

/** The run credits among the statement's credits, by position: their proposal. */
async function settlementProposals(db: Db, transactions: StatementTransaction[]): Promise<Map<number, Proposal>> {
  const groups = await creditGroupsOf(
    db,
    transactions.map((transaction) => ({
      key: transaction,
      credit: transaction.direction === "CRDT" && !transaction.isReturn ? debitCreditOf(transaction) : null,
    })),
  );
  return new Map([...groups].map(([transaction, group]) => [transaction.position, settlementProposal(transaction, group)]));
}

// ---------------------------------------------------------------------------------------------
// Reading open items

const invoiceItem = (row: {
  id: number;
  personId: number;
  invoiceNumber: number;
  amount: number;
  openAmount: number;
  personName: string | null;
  reminderFeesOpen: number;
}): OpenItem => ({
  type: "INVOICE",
  id: row.id,
  invoiceNumber: row.invoiceNumber,
  label: `Rechnung ${row.invoiceNumber}`,
  personId: row.personId,
  personName: row.personName,
  amount: row.amount,
  openAmount: row.openAmount,
  reference: `ReNr ${row.invoiceNumber}`,
  reminderFeesOpen: row.reminderFeesOpen,
});
const feeItem = (row: {
  id: number;
  personId: number;
  text: string;
  amount: number;
  openAmount: number;
  personName: string | null;
  paymentReference: string | null;
  reminderFeesOpen: number;
}): OpenItem => ({
  type: "FEE",
  id: row.id,
  label: `Posten ${row.id} (${row.text})`,
  personId: row.personId,
  personName: row.personName,
  amount: row.amount,
  openAmount: row.openAmount,
  reference: row.paymentReference,
  reminderFeesOpen: row.reminderFeesOpen,
});

/** The open amount of an item's reminder fees, in cents. */
const reminderFeesOpenOf = (column: "reminded_invoice_id" | "reminded_fee_id", itemId: SQL | typeof fees.id | typeof invoiceHeaders.id) =>
  sql<number>`(SELECT coalesce(sum(rf.open_amount), 0) FROM ${fees} rf WHERE rf.kind = 'REMINDER' AND rf.${sql.raw(column)} = ${itemId} AND rf.open_amount > 0)`.mapWith(
    Number,
  );

const invoiceColumns = {
  id: invoiceHeaders.id,
  personId: invoiceHeaders.personId,
  // Payments are matched to issued invoices only (a draft has no number and nothing open).
  invoiceNumber: sql<number>`coalesce(${invoiceHeaders.invoiceNumber}, 0)`.mapWith(Number),
  amount: invoiceHeaders.amount,
  openAmount: invoiceHeaders.openAmount,
  personName: people.fullName,
  reminderFeesOpen: reminderFeesOpenOf("reminded_invoice_id", invoiceHeaders.id),
};
const feeColumns = {
  id: fees.id,
  personId: fees.personId,
  text: fees.text,
  amount: fees.amount,
  openAmount: fees.openAmount,
  personName: people.fullName,
  paymentReference: fees.paymentReference,
  reminderFeesOpen: reminderFeesOpenOf("reminded_fee_id", fees.id),
};

/** The open reminder fees of the items, oldest first: the part of a payment beyond an item's open amount goes to them. */
async function openReminderFeesOf(db: Db, targets: Target[]): Promise<Map<string, { id: number; openAmount: number }[]>> {
  const result = new Map<string, { id: number; openAmount: number }[]>();
  const ids = (type: TargetType) => [...new Set(targets.filter((target) => target.type === type).map((target) => target.id))];
  for (const [type, column] of [
    ["INVOICE", fees.remindedInvoiceId],
    ["FEE", fees.remindedFeeId],
  ] as const) {
    const rows = await db
      .select({ id: fees.id, openAmount: fees.openAmount, itemId: column })
      .from(fees)
      .where(and(eq(fees.kind, "REMINDER"), inValues(column, ids(type)), sql`${fees.openAmount} > 0`))
      .orderBy(asc(fees.id));
    for (const row of rows) {
      const key = targetKey({ type, id: row.itemId! });
      result.set(key, [...(result.get(key) ?? []), { id: row.id, openAmount: row.openAmount }]);
    }
  }
  return result;
}

async function invoicesByNumbers(db: Db, numbers: number[]) {
  const rows = await db
    .select(invoiceColumns)
    .from(invoiceHeaders)
    .leftJoin(people, eq(people.id, invoiceHeaders.personId))
    .where(inValues(invoiceHeaders.invoiceNumber, numbers));
  return rows.map(invoiceItem);
}

async function feesByReferences(db: Db, references: string[]) {
  const rows = await db.select(feeColumns).from(fees).leftJoin(people, eq(people.id, fees.personId)).where(inValues(fees.paymentReference, references));
  return rows.map(feeItem);
}

/** The fees a statement names by number ('Posten {id}'), not those billed by an invoice (their payment goes to the invoice). */
async function feesByIds(db: Db, ids: number[]) {
  const rows = await db
    .select(feeColumns)
    .from(fees)
    .leftJoin(people, eq(people.id, fees.personId))
    .where(
      and(
        inValues(
          fees.id,
          ids.filter((id) => Number.isSafeInteger(id)),
        ),
        eq(fees.isInvoiced, false),
      ),
    );
  return rows.map(feeItem);
}

/** The mandates a statement names, each with its person's open fees billed directly (sendInvoice off). */
async function mandatesByReferences(db: Db, references: string[]): Promise<Map<string, MandateBook>> {
  const result = new Map<string, MandateBook>();
  const mandates = await db
    .select({ reference: sepaMandates.reference, personId: sepaMandates.personId, personName: people.fullName })
    .from(sepaMandates)
    .leftJoin(people, eq(people.id, sepaMandates.personId))
    .where(inValues(sql`upper(${sepaMandates.reference})`, references));
  for (const row of mandates) result.set(row.reference.toUpperCase(), { ...row, directFees: [] });
  const personIds = [...new Set([...result.values()].map((mandate) => mandate.personId))];
  const rows = await db
    .select(feeColumns)
    .from(fees)
    .leftJoin(people, eq(people.id, fees.personId))
    .where(and(inValues(fees.personId, personIds), eq(fees.sendInvoice, false), eq(fees.isInvoiced, false), sql`${fees.openAmount} > 0`))
    .orderBy(asc(fees.id));
  for (const mandate of result.values()) mandate.directFees.push(...rows.filter((row) => row.personId === mandate.personId).map(feeItem));
  return result;
}

/** The end-to-end ids whose direct debit came back already: items cancelled while their run is not (a booked Rücklastschrift), none left standing. */
async function returnedTransactions(db: Db, endToEndIds: string[]): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ endToEndId: directDebitItems.endToEndId })
    .from(directDebitItems)
    .innerJoin(directDebitRuns, eq(directDebitRuns.id, directDebitItems.runId))
    .where(
      and(
        inValues(directDebitItems.endToEndId, endToEndIds),
        isNotNull(directDebitItems.cancelledOn),
        not(eq(directDebitRuns.status, "CANCELLED")),
        sql`NOT EXISTS (SELECT 1 FROM ${directDebitItems} standing WHERE standing.end_to_end_id = ${directDebitItems.endToEndId} AND standing.cancelled_on IS NULL)`,
      ),
    );
  return new Set(rows.map((row) => row.endToEndId));
}

/** The open items by target (for labels and checks). */
async function openItemsOf(db: Db, targets: Target[]): Promise<Map<string, OpenItem>> {
  const result = new Map<string, OpenItem>();
  const ids = (type: TargetType) => [...new Set(targets.filter((target) => target.type === type).map((target) => target.id))];
  const [invoiceRows, feeRows] = await Promise.all([
    db
      .select(invoiceColumns)
      .from(invoiceHeaders)
      .leftJoin(people, eq(people.id, invoiceHeaders.personId))
      .where(inValues(invoiceHeaders.id, ids("INVOICE"))),
    db
      .select(feeColumns)
      .from(fees)
      .leftJoin(people, eq(people.id, fees.personId))
      .where(inValues(fees.id, ids("FEE"))),
  ]);
  for (const row of invoiceRows) result.set(`INVOICE:${row.id}`, invoiceItem(row));
  for (const row of feeRows) result.set(`FEE:${row.id}`, feeItem(row));
  return result;
}

const targetKey = (target: Target) => `${target.type}:${target.id}`;

// ---------------------------------------------------------------------------------------------
// Import

export type ImportOutcome = { importId: number; entries: number; duplicates: number };

const GERMAN_ACCOUNT = /^(\d{8})\/(\d{1,10})(?:[A-Z]{3})?$/;

/** The statement's account as an IBAN: CAMT's IBAN, or the German IBAN an MT940 ':25:' 'BLZ/Kontonummer' stands for; null when it names neither. */
export function statementAccountIban(account: string | null): string | null {
  const plain = (account ?? "").replace(/\s+/g, "").toUpperCase();
  const german = GERMAN_ACCOUNT.exec(plain);
  if (german) return ibanWithCheckDigits("DE", `${german[1]}${german[2].padStart(10, "0")}`);
  return /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(plain) ? plain : null;
}

/**
 * Why the statement is not imported: it is of another account than the club's (Einstellungen).
 * Null when it is the club's account, or when there is nothing to compare (no IBAN in the
 * settings, or a statement that names no account it can be read from).
 */
export async function otherAccountRefusal(db: Db, statement: Pick<ParsedStatement, "accountIban">): Promise<string | null> {
  const account = statementAccountIban(statement.accountIban);
  const [club] = await db.select({ iban: configuration.iban }).from(configuration).where(eq(configuration.id, 1));
  const clubIban = club?.iban ? normalizeIban(club.iban) : null;
  if (!account || !clubIban || account === clubIban) return null;
  return `Der Kontoauszug ist für das Konto ${groupIban(account)}, nicht für das Vereinskonto ${groupIban(clubIban)} (Einstellungen): Es wurde nichts importiert.`;
}

/**
 * Stores an uploaded statement: the import and its new bookings with their proposals, in one
 * batch. Bookings an earlier import has (same key) are counted, not stored again. A concurrent
 * import of the same file makes the unique key fail the whole batch: nothing is stored twice.
 */
export async function importStatement(db: Db, input: { fileName: string; statement: ParsedStatement }, actor: Actor, now = new Date()): Promise<ImportOutcome> {
  const { statement } = input;
  const keyed = await Promise.all(
    statement.transactions.map(async (transaction) => ({ transaction, key: await transactionKey(statement.accountIban, transaction) })),
  );
  const stored = await db
    .select({ key: bankStatementEntries.entryKey })
    .from(bankStatementEntries)
    .where(
      inValues(
        bankStatementEntries.entryKey,
        keyed.map(({ key }) => key),
      ),
    );
  const known = new Set(stored.map((row) => row.key));
  const fresh = keyed.filter(({ key }, index) => !known.has(key) && keyed.findIndex((other) => other.key === key) === index);

  const credits = fresh.filter(({ transaction }) => transaction.direction === "CRDT").map(({ transaction }) => transaction);
  const numbers = [...new Set(credits.flatMap(invoiceNumbersIn))];
  const invoicesByNumber = new Map((await invoicesByNumbers(db, numbers)).map((item) => [item.invoiceNumber!, item]));
  const referencedFees = credits.length
    ? (
        await db
          .select(feeColumns)
          .from(fees)
          .leftJoin(people, eq(people.id, fees.personId))
          .where(and(sql`${fees.openAmount} > 0`, isNotNull(fees.paymentReference), not(like(fees.paymentReference, "ReNr %"))))
      ).map(feeItem)
    : [];
  const feesById = new Map((await feesByIds(db, [...new Set(credits.flatMap(feeNumbersIn))])).map((item) => [item.id, item]));
  const mandates = await mandatesByReferences(db, [...new Set(credits.flatMap(mandateReferencesIn))]);
  const returnIds = fresh.flatMap(({ transaction }) => (transaction.isReturn && transaction.endToEndId ? [transaction.endToEndId] : []));
  const alreadyReturned = await returnedTransactions(db, returnIds);
  const returnedFees = new Map(
    (await feesByReferences(db, returnIds)).filter((item) => !alreadyReturned.has(item.reference!)).map((item) => [item.reference!, item]),
  );
  const book: MatchBook = { invoicesByNumber, referencedFees, feesById, mandates };
  // A run's credit is its debits' settlement, before any matcher (its end-to-end id is its fees' reference).
  const settlements = await settlementProposals(
    db,
    fresh.map(({ transaction }) => transaction),
  );
  // Payers erased under GDPR Art. 17 (their IBAN's hash kept at the erasure): stored anonymised.
  const erasedPayers = await erasedIbansAmong(
    db,
    fresh.map(({ transaction }) => transaction.counterpartyIban),
  );

  const nowIso = now.toISOString();
  const importId = sql`(SELECT max(id) FROM ${bankStatementImports})`;
  const statements: Statement[] = [
    render(sql`INSERT INTO ${bankStatementImports} (file_name, format, account_iban, statement_id, entry_count, duplicate_count, imported_by, imported_on)
      VALUES (${input.fileName}, ${statement.format}, ${statement.accountIban}, ${statement.statementId}, ${keyed.length}, ${keyed.length - fresh.length}, ${actor.name}, ${nowIso})`),
  ];
  for (const { transaction: t, key } of fresh) {
    const proposal =
      t.isReturn && t.endToEndId && alreadyReturned.has(t.endToEndId)
        ? ({
            proposal: "RETURN",
            target: null,
            candidates: [],
            note: "Diese Lastschrift ist schon als Rücklastschrift gebucht: ihre Posten sind wieder offen.",
          } satisfies Proposal)
        : (settlements.get(t.position) ?? proposeFor(t, book, returnedFees));
    // An erased payer: neither name nor IBAN is stored, nor the remittance unless it is the
    // reference of a booking found (a retained invoice or fee, § 147 AO); the note says why.
    const erased = t.counterpartyIban !== null && erasedPayers.has(t.counterpartyIban);
    const payer = erased
      ? {
          counterpartyName: null,
          counterpartyIban: null,
          // 'WUFF-{personId}-{n}': the mandate reference names the person.
          mandateId: null,
          remittance: proposal.target ? t.remittance : "",
          note: proposal.note ? `${ANONYMISED_NOTE}. ${proposal.note}` : ANONYMISED_NOTE,
        }
      : { counterpartyName: t.counterpartyName, counterpartyIban: t.counterpartyIban, mandateId: t.mandateId, remittance: t.remittance, note: proposal.note };
    statements.push(
      render(sql`INSERT INTO ${bankStatementEntries} (import_id, entry_key, position, direction, amount, booking_date, value_date, bank_reference, end_to_end_id,
          mandate_id, batch_reference, counterparty_name, counterparty_iban, remittance, is_return, return_reason, proposal, target_type, target_id, candidates, note)
        VALUES (${importId}, ${key}, ${t.position}, ${t.direction}, ${t.amount}, ${t.bookingDate}, ${t.valueDate}, ${t.bankReference}, ${t.endToEndId},
          ${payer.mandateId}, ${t.batchReference}, ${payer.counterpartyName}, ${payer.counterpartyIban}, ${payer.remittance}, ${t.isReturn ? 1 : 0}, ${t.returnReason}, ${proposal.proposal},
          ${proposal.target?.type ?? null}, ${proposal.target?.id ?? null}, ${proposal.candidates.length ? JSON.stringify(proposal.candidates) : null}, ${payer.note})`),
    );
  }
  await runAtomically(db, statements);
  const [created] = await db
    .select({ id: bankStatementImports.id })
    .from(bankStatementImports)
    .where(and(eq(bankStatementImports.importedOn, nowIso), eq(bankStatementImports.importedBy, actor.name)))
    .orderBy(desc(bankStatementImports.id))
    .limit(1);
  return { importId: created.id, entries: keyed.length, duplicates: keyed.length - fresh.length };
}

// ---------------------------------------------------------------------------------------------
// Review

export type ImportRecord = typeof bankStatementImports.$inferSelect;
type EntryRecord = typeof bankStatementEntries.$inferSelect;

export function listImports(db: Db, limit = 20) {
  return db.select().from(bankStatementImports).orderBy(desc(bankStatementImports.id)).limit(limit);
}

export async function getImport(db: Db, id: number): Promise<ImportRecord | undefined> {
  const [row] = await db.select().from(bankStatementImports).where(eq(bankStatementImports.id, id));
  return row;
}

export type ReviewEntry = EntryRecord & { target: OpenItem | null; candidateItems: OpenItem[] };

const candidatesOf = (entry: Pick<EntryRecord, "candidates">): Target[] => {
  try {
    const parsed = JSON.parse(entry.candidates ?? "[]") as unknown;
    return Array.isArray(parsed)
      ? parsed.filter((item): item is Target => (item?.type === "INVOICE" || item?.type === "FEE") && Number.isInteger(item?.id))
      : [];
  } catch {
    return [];
  }
};

/** The import's bookings in file order, with their target and candidates as they stand now. */
export async function entriesOfImport(db: Db, importId: number): Promise<ReviewEntry[]> {
  const rows = await db.select().from(bankStatementEntries).where(eq(bankStatementEntries.importId, importId)).orderBy(asc(bankStatementEntries.position));
  const targets = rows.flatMap((row) => [...(row.targetType && row.targetId ? [{ type: row.targetType, id: row.targetId }] : []), ...candidatesOf(row)]);
  const items = await openItemsOf(db, targets);
  const groups = await creditGroupsOf(
    db,
    rows.map((row) => ({ key: row.id, credit: row.targetType === "DEBIT_RUN" ? debitCreditOf(row) : null })),
  );
  for (const [rowId, group] of groups) items.set(`DEBIT_RUN:${rowId}`, group);
  return rows.map((row) => ({
    ...row,
    target:
      row.targetType && row.targetId ? (items.get(row.targetType === "DEBIT_RUN" ? `DEBIT_RUN:${row.id}` : `${row.targetType}:${row.targetId}`) ?? null) : null,
    candidateItems: candidatesOf(row).flatMap((target) => items.get(targetKey(target)) ?? []),
  }));
}

// ---------------------------------------------------------------------------------------------
// Booking

/** The fees a direct-debit run collected in the same transaction as the fee `feeId` (by the
 *  end-to-end id that is their payment reference), the fee itself included; none for a fee not
 *  collected by a run. */
const returnedFeeIds = (feeId: number) =>
  sql`SELECT i.fee_id FROM ${directDebitItems} i JOIN ${fees} f ON f.id = i.fee_id AND f.payment_reference = i.end_to_end_id
    WHERE i.cancelled_on IS NULL AND i.end_to_end_id = (SELECT payment_reference FROM ${fees} WHERE id = ${feeId})`;

/** 'Bank 24.11.2026: 35,00 € Erika Muster ReNr 2026001' (the payment comment of a booking). */
function bankComment(entry: Pick<EntryRecord, "bookingDate" | "valueDate" | "amount" | "counterpartyName" | "remittance">): string {
  const text = [
    `Bank ${formatDate(entry.bookingDate ?? entry.valueDate)}:`,
    formatMoney(entry.amount),
    entry.counterpartyName ?? "",
    entry.remittance.slice(0, 140),
  ]
    .filter(Boolean)
    .join(" ");
  // Spaces of the bank text only: the non-breaking space of the amount stays.
  return text.replace(/[ \t\r\n]+/g, " ").trim();
}

const returnComment = (entry: Pick<EntryRecord, "bookingDate" | "valueDate" | "returnReason">) =>
  `Rücklastschrift ${formatDate(entry.bookingDate ?? entry.valueDate)} (${returnReasonLabel(entry.returnReason)})`;

/**
 * What the return's reason decides (issue 31 item 3, app/lib/return-reasons.ts), as statements
 * run before the returned items are cancelled: a blocking reason ends the mandate of the returned
 * transaction on the return's day, with why; a stopping reason (or insufficient funds a second
 * time for the same fee) takes the fees out of the next runs, with why. Their fees are then
 * reminded like any open fee (reminders.server.ts: no debit pending).
 */
function returnConsequenceStatements(entry: EntryRecord, feeId: number, returned: SQL, day: string, actor: Actor, nowIso: string): Statement[] {
  const why = returnComment(entry);
  const audit = sql`last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1`;
  const { consequence } = returnReasonOf(entry.returnReason);
  if (consequence === "BLOCK_MANDATE")
    return [
      render(sql`UPDATE ${sepaMandates} SET revoked_on = ${day}, revocation_reason = ${why}, ${audit}
        WHERE (revoked_on IS NULL OR revoked_on > ${day}) AND id IN (SELECT i.mandate_id FROM ${directDebitItems} i WHERE i.cancelled_on IS NULL AND i.fee_id IN (${returned}))`),
    ];
  // Insufficient funds may be presented once more: stopped only when the fee came back before.
  const cameBackBefore = sql`EXISTS (SELECT 1 FROM ${directDebitItems} pi JOIN ${directDebitRuns} pr ON pr.id = pi.run_id
      WHERE pi.fee_id = ${fees.id} AND pi.cancelled_on IS NOT NULL AND pr.status <> 'CANCELLED')`;
  return [
    render(sql`UPDATE ${fees} SET collection_stop = ${why}, ${audit}
      WHERE collection_stop IS NULL AND (id = ${feeId} OR id IN (${returned}))${consequence === "PRESENT_AGAIN" ? sql` AND ${cameBackBefore}` : sql``}`),
  ];
}

/**
 * The bank's return charge passed on to the person (Einstellungen 'Rücklastschriftgebühr', 0: not
 * at all): a fee collected directly like the returned one, due in 14 days, for a return the debtor
 * caused (isChargeableReturn). The return's batch books it once (it stops unless the entry was
 * still open), so importing or booking again charges nothing twice.
 */
function returnChargeStatements(entry: EntryRecord, feeId: number, day: string, actor: Actor, nowIso: string): Statement[] {
  if (!isChargeableReturn(entry.returnReason)) return [];
  return [
    render(sql`INSERT INTO ${fees} (person_id, date, due_date, text, amount, open_amount, send_invoice, kind, payment_comments, created_by, created_on)
      SELECT f.person_id, ${day}, date(${day}, '+14 days'), ${`Rücklastschriftgebühr ${formatDate(day)} (${returnReasonLabel(entry.returnReason)})`},
        c.return_charge, c.return_charge, 0, 'OTHER', ${`Bankgebühr der ${returnComment(entry)} zu Posten ${feeId}`}, ${actor.name}, ${nowIso}
      FROM ${fees} f JOIN ${configuration} c ON c.id = 1 WHERE f.id = ${feeId} AND c.return_charge > 0`),
  ];
}

/**
 * A returned direct debit (Rücklastschrift): counter-entries undo the journal entries it returns,
 * those of every fee its transaction collected (a run's fees share its end-to-end id), or, for a
 * fee no run collected, the fee's last entry; what they paid is open again. The returned
 * transaction's items are cancelled, so the next run may collect the fees once more where the
 * return's reason allows it (returnConsequenceStatements).
 */
function returnStatements(entry: EntryRecord, feeId: number, actor: Actor, nowIso: string): Statement[] {
  const returned = returnedFeeIds(feeId);
  const day = entry.bookingDate ?? entry.valueDate ?? nowIso.slice(0, 10);
  const originals = sql`SELECT y.id FROM ${payments} y JOIN ${directDebitItems} i ON y.entry_key = 'debit:' || i.id
      WHERE i.cancelled_on IS NULL AND i.fee_id IN (${returned})
    UNION SELECT * FROM (SELECT y.id FROM ${payments} y JOIN ${paymentAllocations} a ON a.payment_id = y.id
      WHERE a.fee_id = ${feeId} AND ${feeId} NOT IN (${returned}) AND y.source <> 'REVERSAL'
        AND NOT EXISTS (SELECT 1 FROM ${payments} r WHERE r.reverses_payment_id = y.id) ORDER BY y.id DESC LIMIT 1)`;
  return [
    render(sql`UPDATE ${bankStatementEntries} SET status = 'BOOKED', target_type = 'FEE', target_id = ${feeId},
        applied = (SELECT coalesce(sum(y.amount), 0) FROM ${payments} y WHERE y.id IN (${originals})
          AND NOT EXISTS (SELECT 1 FROM ${payments} r WHERE r.reverses_payment_id = y.id)),
        booked_by = ${actor.name}, booked_on = ${nowIso}
      WHERE id = ${entry.id} AND status = 'OPEN'`),
    ABORT_UNLESS_CHANGED,
    render(sql`UPDATE ${fees} SET due_date = coalesce(due_date, ${day}), ${appendPaymentComment(returnComment(entry))},
        last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
      WHERE id = ${feeId} OR id IN (${returned})`),
    ...reversalStatements(originals, { date: day, text: returnComment(entry), sourceRef: entry.bankReference }, actor, nowIso),
    ...returnConsequenceStatements(entry, feeId, returned, day, actor, nowIso),
    ...returnChargeStatements(entry, feeId, day, actor, nowIso),
    // The returned transaction's items are cancelled (cancelled_on = the booking's instant, in a
    // run that is not CANCELLED: 'zurückgegeben'), so its fees are free for the next run; the
    // partial unique index (items not cancelled) lets the next run take them once.
    render(sql`UPDATE ${directDebitItems} SET cancelled_on = ${nowIso}
      WHERE cancelled_on IS NULL AND end_to_end_id = (SELECT payment_reference FROM ${fees} WHERE id = ${feeId})
        AND EXISTS (SELECT 1 FROM ${fees} f WHERE f.id = ${directDebitItems.feeId} AND f.payment_reference = ${directDebitItems.endToEndId})`),
    // A returned FRST: the mandate is FRST again unless another collection under it since its
    // first one still stands; then that one's day is its first collection.
    render(sql`UPDATE ${sepaMandates} SET
        first_collection_on = (SELECT min(i.collection_date) FROM ${directDebitItems} i
          WHERE i.mandate_id = ${sepaMandates.id} AND i.cancelled_on IS NULL AND i.collection_date >= ${sepaMandates.firstCollectionOn}),
        last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
      WHERE first_collection_on IS NOT NULL AND id IN (SELECT mandate_id FROM ${directDebitItems}
        WHERE cancelled_on = ${nowIso} AND sequence_type = 'FRST' AND end_to_end_id = (SELECT payment_reference FROM ${fees} WHERE id = ${feeId}))`),
  ];
}

/**
 * A Lastschriftlauf's credit: the submitted debits it names are paid on its value date (journal
 * entries 'debit:{item}', debit-settlements.server.ts); the booking applied what they came to.
 * Debits paid or returned before are left as they are.
 */
function creditStatements(entry: EntryRecord, actor: Actor, nowIso: string): Statement[] {
  const credit = debitCreditOf(entry);
  if (!credit) throw new Error(`Buchung ${entry.id} nennt keinen Lastschriftlauf`);
  const items = itemsOfCredit(credit);
  return [
    render(sql`UPDATE ${bankStatementEntries} SET status = 'BOOKED', target_type = 'DEBIT_RUN', target_id = ${entry.targetId},
        applied = (SELECT coalesce(sum(amount), 0) FROM ${directDebitItems} WHERE id IN (${submittedAmong(items)})),
        booked_by = ${actor.name}, booked_on = ${nowIso}
      WHERE id = ${entry.id} AND status = 'OPEN'`),
    ABORT_UNLESS_CHANGED,
    ...settlementStatements(items, { date: sql`${entry.valueDate ?? entry.bookingDate ?? nowIso.slice(0, 10)}`, comment: bankComment(entry) }, actor, nowIso),
  ];
}

/** The treasurer's choice for one booking: a target (the proposal, a candidate, an invoice typed
 *  in), every item the statement names (`split`: one payment to several, in their order), or none. */
export type Choice = { entryId: number; target: Target | null; invoiceNumber?: number | null; split?: boolean };

export type BookOutcome =
  | { status: "booked"; count: number; sum: number; overpaid: { label: string; excess: number }[] }
  | { status: "refused"; message: string }
  | { status: "stale" };

/**
 * Books the chosen bookings of an import in ONE batch: each entry goes from OPEN to BOOKED
 * (guarded: an entry booked meanwhile aborts the whole batch), with what it applied, and its
 * invoice or fee is paid (or, for a returned direct debit, opened again) as the shared payment
 * updates do it. A booking's target is checked against what the import proposed.
 */
export async function bookEntries(db: Db, importId: number, choices: Choice[], actor: Actor, now = new Date()): Promise<BookOutcome> {
  const entries = new Map((await db.select().from(bankStatementEntries).where(eq(bankStatementEntries.importId, importId))).map((row) => [row.id, row]));
  const manualNumbers = choices.flatMap((choice) => (choice.invoiceNumber ? [choice.invoiceNumber] : []));
  const manualInvoices = new Map((await invoicesByNumbers(db, manualNumbers)).map((item) => [item.invoiceNumber!, item]));

  const planned: { entry: EntryRecord; target: Target; targets: Target[] }[] = [];
  for (const choice of choices) {
    const entry = entries.get(choice.entryId);
    if (!entry) return { status: "refused", message: "Diese Buchung gehört nicht zu diesem Kontoauszug." };
    if (entry.status !== "OPEN") continue;
    if (choice.split) {
      const named = candidatesOf(entry);
      if (entry.direction !== "CRDT" || entry.isReturn || named.length < 2) {
        return { status: "refused", message: "Verteilen geht nur bei einem Zahlungseingang, der mehrere Rechnungen oder Posten nennt." };
      }
      planned.push({ entry, target: named[0], targets: named });
      continue;
    }
    let target = choice.target;
    if (choice.invoiceNumber) {
      const invoice = manualInvoices.get(choice.invoiceNumber);
      if (!invoice) return { status: "refused", message: `Die Rechnung ${choice.invoiceNumber} gibt es nicht.` };
      target = { type: "INVOICE", id: invoice.id };
    }
    if (!target) continue;
    if (entry.direction === "DBIT" && !entry.isReturn) return { status: "refused", message: "Eine Belastung wird nicht gebucht." };
    if (entry.isReturn && (target.type !== "FEE" || choice.invoiceNumber))
      return { status: "refused", message: "Eine Rücklastschrift öffnet nur den Posten, den sie zurückgibt." };
    const allowed =
      choice.invoiceNumber ||
      (entry.targetType === target.type && entry.targetId === target.id) ||
      candidatesOf(entry).some((item) => targetKey(item) === targetKey(target));
    if (!allowed) return { status: "refused", message: "Diese Zuordnung wurde nicht vorgeschlagen: bitte eine Rechnungsnummer eintragen." };
    planned.push({ entry, target, targets: [target] });
  }
  if (planned.length === 0) return { status: "refused", message: "Keine Buchung ausgewählt: Es wurde nichts gebucht." };

  const targets = planned.flatMap((plan) => plan.targets);
  const items = await openItemsOf(db, targets);
  const reminderFees = await openReminderFeesOf(db, targets);
  // What is open as the batch goes on: two bookings of one item, or of its reminder fees, share it.
  const openNow = new Map<string, number>();
  const nowIso = now.toISOString();
  const statements: Statement[] = [];
  for (const { entry, target, targets: paid } of planned) {
    if (target.type === "DEBIT_RUN") {
      statements.push(...creditStatements(entry, actor, nowIso));
      continue;
    }
    const item = items.get(targetKey(target));
    if (!item) return { status: "refused", message: "Die zugeordnete Rechnung bzw. der Posten ist nicht mehr da." };
    if (entry.isReturn) {
      statements.push(...returnStatements(entry, target.id, actor, nowIso));
      continue;
    }
    // The payment is one journal entry: it pays its items in turn, each up to its open amount and
    // then its reminder fees (what a reminder's GiroCode asks for); the rest is the payer's credit.
    const entryKey = `bank:${entry.id}`;
    const allocations: Allocation[] = [];
    let rest = entry.amount;
    for (const each of paid) {
      const eachItem = items.get(targetKey(each));
      if (!eachItem) return { status: "refused", message: "Die zugeordnete Rechnung bzw. der Posten ist nicht mehr da." };
      const itemOpen = openNow.get(targetKey(each)) ?? eachItem.openAmount;
      if (itemOpen <= 0 && paid.length === 1)
        return { status: "refused", message: `${eachItem.label} ist bereits bezahlt: bitte eine andere Zuordnung wählen.` };
      const toItem = Math.min(rest, itemOpen);
      if (toItem > 0) {
        allocations.push(
          each.type === "INVOICE"
            ? { invoiceId: each.id, invoiceNumber: eachItem.invoiceNumber!, amount: toItem, expectedOpen: itemOpen }
            : { feeId: each.id, amount: toItem, expectedOpen: itemOpen },
        );
        openNow.set(targetKey(each), itemOpen - toItem);
        rest -= toItem;
      }
    }
    for (const each of paid) {
      for (const reminderFee of reminderFees.get(targetKey(each)) ?? []) {
        const key = `FEE:${reminderFee.id}`;
        const open = openNow.get(key) ?? reminderFee.openAmount;
        const amount = Math.min(rest, open);
        if (amount <= 0) continue;
        allocations.push({ feeId: reminderFee.id, amount, expectedOpen: open });
        openNow.set(key, open - amount);
        rest -= amount;
      }
    }
    const applied = entry.amount - rest;
    const comment = bankComment(entry);
    statements.push(
      render(sql`UPDATE ${bankStatementEntries} SET status = 'BOOKED', target_type = ${target.type}, target_id = ${target.id}, applied = ${applied},
          booked_by = ${actor.name}, booked_on = ${nowIso}
        WHERE id = ${entry.id} AND status = 'OPEN'`),
      ABORT_UNLESS_CHANGED,
      entryInsert(
        {
          entryKey,
          personId: item.personId,
          date: entry.valueDate ?? entry.bookingDate ?? nowIso.slice(0, 10),
          amount: entry.amount,
          method: "TRANSFER",
          source: "BANK_ENTRY",
          sourceRef: entry.bankReference,
          text: comment,
        },
        actor,
        nowIso,
      ),
      ...allocations.flatMap((allocation) => allocationStatements(entryKey, allocation, actor, nowIso)),
      // The payment comment on every item the payment went to.
      ...allocations.map((allocation) =>
        "invoiceId" in allocation
          ? render(sql`UPDATE ${invoiceHeaders} SET ${appendPaymentComment(comment)} WHERE id = ${allocation.invoiceId}`)
          : render(sql`UPDATE ${fees} SET ${appendPaymentComment(comment)} WHERE id = ${allocation.feeId}`),
      ),
    );
  }
  statements.push(render(sql`UPDATE ${bankStatementImports} SET last_booked_by = ${actor.name}, last_booked_on = ${nowIso} WHERE id = ${importId}`));
  try {
    await runAtomically(db, statements);
  } catch (error) {
    if (isAbortedAsUnchanged(error)) return { status: "stale" };
    throw error;
  }
  const booked = await db
    .select({
      id: bankStatementEntries.id,
      amount: bankStatementEntries.amount,
      applied: bankStatementEntries.applied,
      isReturn: bankStatementEntries.isReturn,
    })
    .from(bankStatementEntries)
    .where(
      inValues(
        bankStatementEntries.id,
        planned.map(({ entry }) => entry.id),
      ),
    );
  const overpaid = booked
    // A run's credit pays debits, not a person: what it did not apply was paid or returned before.
    .filter((row) => !row.isReturn && (row.applied ?? 0) < row.amount && planned.find(({ entry }) => entry.id === row.id)!.target.type !== "DEBIT_RUN")
    .map((row) => {
      const target = planned.find(({ entry }) => entry.id === row.id)!.target;
      return { label: items.get(targetKey(target))!.label, excess: row.amount - (row.applied ?? 0) };
    });
  // What came in: every credit is booked in full now (what no item took is the payer's credit).
  return { status: "booked", count: planned.length, sum: booked.reduce((total, row) => total + (row.isReturn ? 0 : row.amount), 0), overpaid };
}
