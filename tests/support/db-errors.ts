import { expect } from "vitest";

/** Awaits a write that must fail and returns the database's own message (drizzle wraps it as
 *  "Failed query: ..." with the D1 error as `cause`). */
export async function databaseErrorOf(write: PromiseLike<unknown>): Promise<string> {
  try {
    await write;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : String((error as Error).message ?? error);
  }
  expect.fail("Der Schreibvorgang hätte abgelehnt werden müssen");
}
