import { env } from "cloudflare:test";
import { generateSeedData } from "~/db/seed/generate";
import { seedStatements } from "~/db/seed/plan";
import type { Db } from "~/db/client.server";
import * as schema from "~/db/schema";

/** Loads the demo data (as of a fixed day) into the test D1. */
export async function loadDemoData(today = "2026-11-22") {
  const data = generateSeedData({ today });
  await env.DB.batch(seedStatements(data).map((statement) => env.DB.prepare(statement)));
  return data;
}

/** People inserted a few rows per statement (D1 binds at most 100 values per statement, and every
 *  column with a default binds one per row), returning id and last name in order. */
export async function insertPeople(db: Db, rows: (typeof schema.people.$inferInsert)[]): Promise<{ id: number; lastName: string }[]> {
  const inserted: { id: number; lastName: string }[] = [];
  for (let start = 0; start < rows.length; start += 5) {
    inserted.push(
      ...(await db
        .insert(schema.people)
        .values(rows.slice(start, start + 5))
        .returning({ id: schema.people.id, lastName: schema.people.lastName })),
    );
  }
  return inserted;
}
