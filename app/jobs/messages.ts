import { z } from "zod";

/** Queue messages are small: a slice names at most this many items. */
const MAX_SLICE_ITEMS = 500;

/**
 * Every message on the JOBS queue. Each kind does one bounded, idempotent slice of work, so a
 * retry never doubles anything. Later capabilities (PDFs, mailshots, birthday mails) add their
 * kinds here.
 */
export const jobMessageSchema = z.discriminatedUnion("type", [
  /** Sent by GET /api/public/test to prove the queue accepts messages; the consumer acks it. */
  z.object({ type: z.literal("health-probe"), sentOn: z.string() }),
  /** One slice of a bulk run (jobs row `jobId`): its items (people) are worked on in one batch. */
  z.object({
    type: z.literal("slice"),
    jobId: z.number().int().positive(),
    slice: z.number().int().nonnegative(),
    items: z.array(z.number().int().positive()).min(1).max(MAX_SLICE_ITEMS),
  }),
]);

export type JobMessage = z.infer<typeof jobMessageSchema>;
export type SliceMessage = Extract<JobMessage, { type: "slice" }>;
