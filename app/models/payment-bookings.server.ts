/**
 * The one way a received payment lowers what a fee or an invoice still owes, shared by the Mollie
 * webhook (app/models/mollie-payments.server.ts) and the bank statement import
 * (app/models/bank-statements.server.ts). Each caller writes its own record of the payment (the
 * payment id, the booking's key) in the same batch, guarded so that a payment is booked once.
 */
import { sql } from "drizzle-orm";
import { render, type Statement } from "~/db/client.server";
import { fees, invoiceHeaders } from "~/db/schema";
import { invoiceFeesSettled, paymentReferenceOf } from "./invoices.server";

/** SET fragment: adds a comment to payment_comments ('; ' between comments). */
export const appendPaymentComment = (comment: string) =>
  sql`payment_comments = CASE WHEN coalesce(payment_comments, '') = '' THEN ${comment} ELSE payment_comments || '; ' || ${comment} END`;

export type PaymentBooking = {
  /** What was paid, in cents; the open amount goes down by it, never below 0. */
  amount: number;
  comment: string;
  /** The fee's new payment reference (Mollie: the payment id), or null to keep it. */
  reference?: string | null;
  actorName: string;
  nowIso: string;
  /** Only while the fee's open amount is still this (a booking planned from what was read). */
  expectedOpenAmount?: number;
};

/** A fee paid: open amount down (never below 0), due date gone once nothing is open, comment added. */
export function feePaymentUpdate(feeId: number, booking: PaymentBooking): Statement {
  const { amount, comment, reference, actorName, nowIso, expectedOpenAmount } = booking;
  // SQLite computes every SET from the row as it was: open_amount below is the old amount.
  return render(sql`UPDATE ${fees} SET
      open_amount = max(0, open_amount - ${amount}),
      due_date = CASE WHEN open_amount <= ${amount} THEN NULL ELSE due_date END,
      ${appendPaymentComment(comment)},
      payment_reference = ${reference ? sql`${reference}` : sql`payment_reference`},
      last_modified_by = ${actorName},
      last_modified_on = ${nowIso},
      row_version = row_version + 1
    WHERE id = ${feeId}${expectedOpenAmount === undefined ? sql`` : sql` AND open_amount = ${expectedOpenAmount}`}`);
}

/**
 * An invoice paid: open amount down (never below 0), comment added; once nothing is open, its
 * fees are settled as saving the invoice settles them (open amount 0, no due date, 'ReNr {n}').
 */
export function invoicePaymentUpdates(invoiceId: number, invoiceNumber: number, booking: PaymentBooking): Statement[] {
  const { amount, comment, actorName, nowIso } = booking;
  return [
    render(sql`UPDATE ${invoiceHeaders} SET
        open_amount = max(0, open_amount - ${amount}),
        ${appendPaymentComment(comment)},
        last_modified_by = ${actorName}, last_modified_on = ${nowIso}, row_version = row_version + 1
      WHERE id = ${invoiceId}`),
    // Only once nothing is open on the invoice, and only fees not settled already.
    invoiceFeesSettled(
      invoiceId,
      invoiceNumber,
      actorName,
      nowIso,
      sql`(open_amount > 0 OR payment_reference IS NOT ${paymentReferenceOf(invoiceNumber)})
        AND (SELECT open_amount FROM ${invoiceHeaders} WHERE id = ${invoiceId}) = 0`,
    ),
  ];
}
