/**
 * Payment links on fees and the Mollie payments booked against them (the webhook). A payment is
 * booked once: its id is the key of mollie_payments, written in the same batch as the fee's
 * update, so a second call of the webhook (or two at once) changes nothing.
 */
import { eq, sql } from "drizzle-orm";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db } from "~/db/client.server";
import { fees, molliePayments } from "~/db/schema";
import { errorText, isAbortedAsUnchanged } from "./constraints.server";
import { feePaymentUpdate } from "./payment-bookings.server";

/** Who the audit fields name for a change Mollie's webhook made. */
const MOLLIE_ACTOR = "Mollie";

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
 * Books a paid Mollie payment against its fee: the open amount goes down by what was paid (never
 * below 0; a smaller payment leaves the rest open), the due date goes once nothing is open, the
 * payment comment is added and the payment id becomes the payment reference; audit fields and
 * rowVersion change as for any edit. One atomic batch with the payment's record.
 */
export async function bookMolliePayment(db: Db, input: BookingInput): Promise<BookingOutcome> {
  if (await isPaymentBooked(db, input.paymentId)) return { status: "already" };
  const now = (input.now ?? new Date()).toISOString();
  const { paymentId, feeId, amount, paidAt, comment } = input;
  try {
    await runAtomically(db, [
      // Inserts nothing when the fee is gone: the guard after it then aborts the batch.
      render(sql`INSERT INTO ${molliePayments} (payment_id, fee_id, amount, applied, paid_at, processed_on)
        SELECT ${paymentId}, id, ${amount}, min(${amount}, open_amount), ${paidAt}, ${now} FROM ${fees} WHERE id = ${feeId}`),
      ABORT_UNLESS_CHANGED,
      feePaymentUpdate(feeId, { amount, comment, reference: paymentId, actorName: MOLLIE_ACTOR, nowIso: now }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) return { status: "already" };
    if (isAbortedAsUnchanged(error)) return { status: "missing" };
    throw error;
  }
  const [booked] = await db
    .select({ applied: molliePayments.applied, openAmount: fees.openAmount })
    .from(molliePayments)
    .innerJoin(fees, eq(fees.id, molliePayments.feeId))
    .where(eq(molliePayments.paymentId, paymentId));
  return { status: "booked", applied: booked?.applied ?? 0, openAmount: booked?.openAmount ?? 0 };
}
