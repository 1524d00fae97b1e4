/**
 * When a direct debit is paid (issue 31 item 2). Writing a run's file hands its items to the bank:
 * they are 'eingereicht', their fees stay open (and are neither collected again nor reminded, as
 * they are in a collection). An item becomes paid, a journal entry of method Lastschrift
 * ('debit:{item}', allocated to its fee), when
 * - the bank statement books its credit: the run's total, one PmtInf block of it (one sequence
 *   type and collection date) or the item's transaction (bank-statements.server.ts), or
 * - the club chose so (Einstellungen 'Lastschriften automatisch als bezahlt buchen'), on its
 *   settlement day, two TARGET2 business days after the collection date (settleDueDebits, daily
 *   cron), for runs handed to the bank.
 * A return books a counter-entry for what was paid (nothing, when it came first). Everything here
 * is idempotent: an item's entry is keyed by the item, so settling twice books once.
 */
import { eq, sql, type SQL } from "drizzle-orm";
import { render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { configuration, directDebitItems, directDebitRuns, fees, paymentAllocations, payments } from "~/db/schema";
import { formatDate } from "~/lib/format";
import { latestSettledCollection } from "~/lib/pain008";
import type { Actor } from "./audit.server";
import { appendPaymentComment } from "./payment-bookings.server";

/** The ids of the submitted items among `items` (SQL selecting item ids): not cancelled or returned,
 *  in a run that is not cancelled and whose file is written, not paid yet. */
export const submittedAmong = (items: SQL) =>
  sql`SELECT si.id FROM ${directDebitItems} si JOIN ${directDebitRuns} sr ON sr.id = si.run_id
    WHERE si.id IN (${items}) AND si.cancelled_on IS NULL AND sr.status <> 'CANCELLED' AND sr.file_key IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM ${payments} sy WHERE sy.entry_key = 'debit:' || si.id)`;

/** An item's SQL condition: it is paid (its entry exists and is not undone). `item` names the item's id. */
export const itemPaidSql = (item: SQL) =>
  sql`EXISTS (SELECT 1 FROM ${payments} py WHERE py.entry_key = 'debit:' || ${item}
    AND NOT EXISTS (SELECT 1 FROM ${payments} pr WHERE pr.reverses_payment_id = py.id))`;

/**
 * The statements that make the submitted items among `items` paid: the fee's payment comment,
 * then one journal entry per item on `date` (SQL: the credit's value date, or the item's
 * collection date), allocated to its fee up to what is still open there (paid otherwise
 * meanwhile: the rest is the person's credit).
 */
export function settlementStatements(items: SQL, paid: { date: SQL; comment: string; sourceRef?: string | null }, actor: Actor, nowIso: string): Statement[] {
  const settled = submittedAmong(items);
  return [
    render(sql`UPDATE ${fees} SET ${appendPaymentComment(paid.comment)},
        last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
      WHERE id IN (SELECT fee_id FROM ${directDebitItems} WHERE id IN (${settled}))`),
    render(sql`INSERT INTO ${payments} (entry_key, person_id, date, amount, method, source, source_ref, text, created_by, created_on)
      SELECT 'debit:' || i.id, i.person_id, ${paid.date}, i.amount, 'DIRECT_DEBIT', 'DIRECT_DEBIT', coalesce(${paid.sourceRef ?? null}, i.end_to_end_id),
        'Lastschriftlauf ' || i.run_id || ', Mandat ' || i.mandate_reference, ${actor.name}, ${nowIso}
      FROM ${directDebitItems} i WHERE i.id IN (${settled})
      ON CONFLICT DO NOTHING`),
    render(sql`INSERT INTO ${paymentAllocations} (payment_id, fee_id, amount, created_by, created_on)
      SELECT y.id, i.fee_id, min(i.amount, f.open_amount), ${actor.name}, ${nowIso}
      FROM ${directDebitItems} i JOIN ${payments} y ON y.entry_key = 'debit:' || i.id JOIN ${fees} f ON f.id = i.fee_id
      WHERE i.id IN (${items}) AND y.created_on = ${nowIso} AND y.created_by = ${actor.name} AND f.open_amount > 0
        AND NOT EXISTS (SELECT 1 FROM ${paymentAllocations} a WHERE a.payment_id = y.id)`),
  ];
}

/**
 * The daily settlement of the club that books direct debits without waiting for the bank
 * statement: every submitted item of a run handed to the bank whose settlement day has come
 * (settlementDayOf) is paid on its collection date. Returns how many were settled.
 */
export async function settleDueDebits(db: Db, today: string, actor: Actor, now = new Date()): Promise<number> {
  const [club] = await db.select({ auto: configuration.debitAutoSettle }).from(configuration).where(eq(configuration.id, 1));
  if (!club?.auto) return 0;
  const due = sql`SELECT i.id FROM ${directDebitItems} i JOIN ${directDebitRuns} r ON r.id = i.run_id
    WHERE r.status = 'SUBMITTED' AND i.cancelled_on IS NULL AND i.collection_date <= ${latestSettledCollection(today)}`;
  const [{ count }] = await db
    .select({ count: sql<number>`count(*)` })
    .from(directDebitItems)
    .where(sql`${directDebitItems.id} IN (${submittedAmong(due)})`);
  if (count === 0) return 0;
  const comment = `Lastschrift als bezahlt gebucht am ${formatDate(today)} (2 Bankarbeitstage nach dem Einzug)`;
  await runAtomically(db, settlementStatements(due, { date: sql`i.collection_date`, comment }, actor, now.toISOString()));
  return count;
}
