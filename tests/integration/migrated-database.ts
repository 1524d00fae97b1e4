import { env } from "cloudflare:test";

// Every test file starts from a database built by the real migrations: tests/vitest.config.ts migrated
// one (tests/support/d1-template.ts), D1_TEMPLATE copies it into this file's own D1.
// This must come before anything opens env.DB.
const copied = await env.D1_TEMPLATE.fetch("http://d1-template/copy", { method: "POST" });
if (copied.status !== 204) throw new Error(`D1-Vorlage nicht kopiert (${copied.status}): ${await copied.text()}`);

// A cheap check that the copy is there and at the latest migration of migrations/.
const applied = (await env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>()).results.map(({ name }) => name);
const expected = env.TEST_MIGRATIONS.map(({ name }) => name);
if (JSON.stringify(applied) !== JSON.stringify(expected)) {
  throw new Error(`Die Datenbank steht nicht auf den Migrationen in migrations/: angewandt ${applied.join(", ")}; erwartet ${expected.join(", ")}`);
}
