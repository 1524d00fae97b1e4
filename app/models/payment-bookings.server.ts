/**
 * The payment comment (Zahlungsbemerkung) of fees and invoices: a line per booking that touched
 * them, beside the journal entries (app/models/payments.server.ts) that hold the money.
 */
import { sql } from "drizzle-orm";

/** SET fragment: adds a comment to payment_comments ('; ' between comments). */
export const appendPaymentComment = (comment: string) =>
  sql`payment_comments = CASE WHEN coalesce(payment_comments, '') = '' THEN ${comment} ELSE payment_comments || '; ' || ${comment} END`;
