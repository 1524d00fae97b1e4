/** What a failed write says about the data: for mapping the database's refusals to German answers. */
import { FROZEN_INVOICE } from "~/db/frozen";

/**
 * Whether a write failed on a foreign key: it names a row that does not exist (any more), e.g. a
 * hand-made request with an unknown id, or a row deleted meanwhile. drizzle wraps D1's error.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof Error && /FOREIGN KEY constraint failed/i.test(current.message)) return true;
  }
  return false;
}

/** The message of a D1 error and of its cause (D1 wraps SQLite's). */
export const errorText = (error: unknown) => `${String(error)} ${String((error as { cause?: unknown })?.cause ?? "")}`;

/** The batch was aborted by ABORT_UNLESS_CHANGED (app/db/client.server.ts): a row was not as expected. */
export const isAbortedAsUnchanged = (error: unknown) => errorText(error).includes("malformed JSON");

/** A write the triggers of app/db/frozen.ts refused: the invoice is issued (perhaps just now). */
export const isFrozenInvoice = (error: unknown) => errorText(error).includes(FROZEN_INVOICE);
