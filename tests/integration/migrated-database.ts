import { env } from "cloudflare:test";
import type { TemplateStatement } from "../support/d1-template";
import { dropEverything } from "../support/migrations";

// Every test file starts from a database built by the real migrations: tests/vitest.config.ts migrated
// one and read it back as SQL (tests/support/d1-template.ts); here whatever this file's D1 holds (a
// file before it in the same workerd may have used it) is dropped and that script run, in one batch.
// This must come before anything opens env.DB.
const answer = await env.D1_TEMPLATE.fetch("http://d1-template/script");
if (!answer.ok) throw new Error(`D1-Vorlage nicht geladen (${answer.status}): ${await answer.text()}`);
const script = await answer.json<TemplateStatement[]>();

await env.DB.batch([...(await dropEverything()), ...script.map(({ sql, params }) => env.DB.prepare(sql).bind(...params))]);

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
