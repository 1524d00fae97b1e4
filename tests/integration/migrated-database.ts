import { env } from "cloudflare:test";
import type { TemplateStatement } from "../support/d1-template";
import { NOT_INTERNAL } from "../support/d1-internal-names";

// Every test file starts from a database built by the real migrations: tests/vitest.config.ts migrated
// one and read it back as SQL (tests/support/d1-template.ts); here whatever this file's D1 holds (a
// file before it in the same workerd may have used it) is dropped and that script run, in one batch.
// This must come before anything opens env.DB.
const answer = await env.D1_TEMPLATE.fetch("http://d1-template/script");
if (!answer.ok) throw new Error(`D1-Vorlage nicht geladen (${answer.status}): ${await answer.text()}`);
const script = await answer.json<TemplateStatement[]>();

const existing = (
  await env.DB.prepare(`SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger') AND ${NOT_INTERNAL}`).all<{
    type: string;
    name: string;
  }>()
).results;
// Triggers and views first, so that no trigger fires while the tables go.
const order = ["trigger", "view", "table"];
const drops = existing.sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type)).map(({ type, name }) => `DROP ${type.toUpperCase()} IF EXISTS "${name}"`);
await env.DB.batch([
  // Dropping a referenced table deletes its rows first: checked at the end of the batch, when the
  // tables referring to it are gone too.
  env.DB.prepare("PRAGMA defer_foreign_keys = ON"),
  ...drops.map((sql) => env.DB.prepare(sql)),
  ...script.map(({ sql, params }) => env.DB.prepare(sql).bind(...params)),
]);

// A cheap check that the database is at the latest migration of migrations/.
const applied = (await env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>()).results.map(({ name }) => name);
const expected = env.TEST_MIGRATIONS.map(({ name }) => name);
if (JSON.stringify(applied) !== JSON.stringify(expected)) {
  throw new Error(`Die Datenbank steht nicht auf den Migrationen in migrations/: angewandt ${applied.join(", ")}; erwartet ${expected.join(", ")}`);
}

// What a file before this one in the same workerd left in R2.
for (let listed = await env.INVOICES.list(); listed.objects.length > 0; listed = await env.INVOICES.list()) {
  await env.INVOICES.delete(listed.objects.map(({ key }) => key));
}
