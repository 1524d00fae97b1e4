import { z } from "zod";

/**
 * Every message on the JOBS queue. Each kind does one bounded, idempotent slice of work, so a
 * retry never doubles anything. Later capabilities (invoices, PDFs, mailshots, birthday mails)
 * add their kinds here.
 */
export const jobMessageSchema = z.discriminatedUnion("type", [
  /** Sent by GET /api/public/test to prove the queue accepts messages; the consumer acks it. */
  z.object({ type: z.literal("health-probe"), sentOn: z.string() }),
]);

export type JobMessage = z.infer<typeof jobMessageSchema>;
