/**
 * Payment links on fees and the Mollie payments booked against them (the webhook). A payment is
 * booked once: its id is the key of mollie_payments and of its journal entry ('mollie:{id}'),
 * written in the same batch as the allocation, so a second call of the webhook (or two at once)
 * changes nothing.
 */
import { eq, sql } from "drizzle-orm";
import { render, runAtomically, type Db } from "~/db/client.server";
import { fees, molliePayments } from "~/db/schema";
import { errorText, isAbortedAsUnchanged } from "./constraints.server";
import { appendPaymentComment } from "./payment-bookings.server";
import { allocationStatements, entryInsert } from "./payments.server";

/** Who the audit fields name for a change Mollie's webhook made (fees, and Mein Wuff's checkouts). */
export const MOLLIE_ACTOR = { name: "Mollie" };

/** Stores a fee's payment link. Not a change of the fee's money: rowVersion and audit stay, so an
 *  open fee dialog is not made stale by it. */
export async function storePaymentLink(db: Db, feeId: number, link: { id: string; url: string; amount: number }): Promise<void> {
  await db.update(fees).set({ paymentLinkId: link.id, paymentLinkUrl: link.url, paymentLinkAmount: link.amount }).where(eq(fees.id, feeId));
}

export type BookingInput = {
  paymentId: string;
  feeId: number;
  /** What was paid, in cents. */
  amount: number;
  paidAt: string | null;
  /** The day it was paid (Berlin): the journal entry's date. */
  paidOn: string;
  /** The payment comment added to the fee (date, 'Mollie', payment id, amount). */
  comment: string;
  now?: Date;
};

export type BookingOutcome = { status: "booked"; applied: number; openAmount: number } | { status: "already" } | { status: "missing" };

async function isPaymentBooked(db: Db, paymentId: string): Promise<boolean> {
  return (await db.$count(molliePayments, eq(molliePayments.paymentId, paymentId))) > 0;
}

const isUniqueViolation = (error: unknown) => /UNIQUE constraint failed/i.test(errorText(error));

/**
 * Books a paid Mollie payment against its fee through the payment journal: one entry 'Mollie' of
 * what was paid, allocated to the fee up to its open amount (a smaller payment leaves the rest
 * open, a larger one is the payer's credit); the due date goes once nothing is open, the payment
 * comment is added and the payment id becomes the payment reference. One atomic batch with the
 * payment's record.
 */
export async function bookMolliePayment(db: Db, input: BookingInput): Promise<BookingOutcome> {
  if (await isPaymentBooked(db, input.paymentId)) return { status: "already" };
  const now = (input.now ?? new Date()).toISOString();
  const { paymentId, feeId, amount, paidAt, paidOn, comment } = input;
  const [fee] = await db.select({ personId: fees.personId, openAmount: fees.openAmount }).from(fees).where(eq(fees.id, feeId));
  if (!fee) return { status: "missing" };
  const actor = MOLLIE_ACTOR;
  const entryKey = `mollie:${paymentId}`;
  const applied = Math.min(amount, fee.openAmount);
  try {
    await runAtomically(db, [
      render(sql`INSERT INTO ${molliePayments} (payment_id, fee_id, amount, applied, paid_at, processed_on)
        VALUES (${paymentId}, ${feeId}, ${amount}, ${applied}, ${paidAt}, ${now})`),
      entryInsert(
        { entryKey, personId: fee.personId, date: paidOn, amount, method: "MOLLIE", source: "MOLLIE", sourceRef: paymentId, text: comment },
        actor,
        now,
      ),
      ...(applied > 0 ? allocationStatements(entryKey, { feeId, amount: applied, expectedOpen: fee.openAmount }, actor, now) : []),
      // A payment link is paid once (Mollie's links are not reusable): spent, it is no longer the
      // fee's, so a fee open again (a payment undone) gets a new one.
      render(sql`UPDATE ${fees} SET ${appendPaymentComment(comment)}, payment_reference = ${paymentId},
          payment_link_id = NULL, payment_link_url = NULL, payment_link_amount = NULL WHERE id = ${feeId}`),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) return { status: "already" };
    // The fee's open amount changed between reading and booking: Mollie calls again.
    if (isAbortedAsUnchanged(error)) throw new Error("Mollie-Zahlung: Der Posten hat sich beim Buchen geändert.", { cause: error });
    throw error;
  }
  const [booked] = await db
    .select({ applied: molliePayments.applied, openAmount: fees.openAmount })
    .from(molliePayments)
    .innerJoin(fees, eq(fees.id, molliePayments.feeId))
    .where(eq(molliePayments.paymentId, paymentId));
  return { status: "booked", applied: booked?.applied ?? 0, openAmount: booked?.openAmount ?? 0 };
}
