import { env } from "cloudflare:test";
import { NOT_INTERNAL } from "./d1-internal-names";

/**
 * The statements that empty this file's D1: every table, view and trigger dropped, triggers and
 * views first (so no trigger fires while the tables go), foreign keys checked only at the end of
 * the batch (a referenced table is dropped with the tables referring to it).
 */
export async function dropEverything(): Promise<D1PreparedStatement[]> {
  const existing = (
    await env.DB.prepare(`SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger') AND ${NOT_INTERNAL}`).all<{
      type: string;
      name: string;
    }>()
  ).results;
  const order = ["trigger", "view", "table"];
  return [
    env.DB.prepare("PRAGMA defer_foreign_keys = ON"),
    ...existing
      .sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type))
      .map(({ type, name }) => env.DB.prepare(`DROP ${type.toUpperCase()} IF EXISTS "${name}"`)),
  ];
}

/**
 * A migration test's start: the database as it stood before migration `next` (e.g. '0033_'): emptied,
 * then the real migrations before it applied. Returns the migrations from `next` on, to apply after
 * the test wrote its data the old way.
 */
export async function migratedUpTo(next: string) {
  await env.DB.batch(await dropEverything());
  for (const migration of env.TEST_MIGRATIONS.filter((candidate) => candidate.name < next)) {
    await env.DB.batch(migration.queries.map((query) => env.DB.prepare(query)));
  }
  return env.TEST_MIGRATIONS.filter((migration) => migration.name >= next);
}
