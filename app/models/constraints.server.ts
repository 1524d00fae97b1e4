/** What a failed write says about the data: for mapping the database's refusals to German answers. */

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
