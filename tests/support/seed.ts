import { env } from "cloudflare:test";
import { generateSeedData } from "~/db/seed/generate";
import { seedStatements } from "~/db/seed/plan";

/** Loads the demo data (as of a fixed day) into the test D1. */
export async function loadDemoData(today = "2026-11-22") {
  const data = generateSeedData({ today });
  await env.DB.batch(seedStatements(data).map((statement) => env.DB.prepare(statement)));
  return data;
}
