/**
 * The migrated database, built once per test run (Node side) and laid into each test file's D1.
 *
 * Applying the 25+ migrations (3.4 MB of SQL, history triggers recreated several times) took ~6 s
 * per test file. Instead tests/vitest.config.ts applies the real migrations of migrations/ once per
 * run, exactly as `applyD1Migrations` of cloudflare:test does (one batch per migration plus its row
 * in d1_migrations), to an in-memory D1 in workerd (with the compatibility settings of
 * wrangler.toml), and reads the result back as SQL: every table, index, view and trigger as SQLite
 * stored it, every row, and the AUTOINCREMENT counters. Each test file's setup
 * (tests/integration/migrated-database.ts) fetches that script from the service binding
 * D1_TEMPLATE and runs it as one batch after dropping whatever the database holds: the same start
 * whether the file's workerd is new or was used by the file before (vitest's `isolate: false`,
 * which spares every file loading the app anew).
 */
import type { D1Migration } from "@cloudflare/vitest-pool-workers";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { NOT_INTERNAL } from "./d1-internal-names";

/** One statement of the script and its parameters. */
export type TemplateStatement = { sql: string; params: unknown[] };

let script: TemplateStatement[] | undefined;

type SchemaObject = { type: string; name: string; sql: string };
type MigratedDatabase = { objects: SchemaObject[]; rows: Record<string, Record<string, unknown>[]>; counters: { name: string; seq: number }[] };

/**
 * Applies the migrations inside workerd and answers the migrated database's schema objects, rows
 * and AUTOINCREMENT counters: one request, every D1 call asynchronous in the worker. (Through
 * wrangler's platform proxy each prepare() was a synchronous call across threads, and Miniflare's
 * synchronous fetcher once failed its own `message?.id === id` assertion under load, ending the
 * whole run before a test.) The statements are those of applyD1Migrations (cloudflare:test): one
 * batch per migration plus its row in d1_migrations, on an empty database.
 */
const TEMPLATE_WORKER = `
export default {
  async fetch(request, env) {
    const { migrations, notInternal } = await request.json();
    const db = env.DB;
    await db.prepare(\`CREATE TABLE IF NOT EXISTS d1_migrations (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
	);\`).run();
    const insert = db.prepare("INSERT INTO d1_migrations (name) VALUES (?);");
    for (const migration of migrations) {
      await db.batch([...migration.queries.map((query) => db.prepare(query)), insert.bind(migration.name)]);
    }
    const objects = (await db.prepare(\`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND \${notInternal} ORDER BY rowid\`).all()).results;
    const rows = {};
    for (const { type, name } of objects) if (type === "table") rows[name] = (await db.prepare(\`SELECT * FROM "\${name}"\`).all()).results;
    const counters = (await db.prepare("SELECT name, seq FROM sqlite_sequence").all()).results;
    return Response.json({ objects, rows, counters });
  },
};
`;

/**
 * Applies `migrations` (readD1Migrations of migrations/) to a fresh, in-memory D1 in workerd, with
 * the compatibility settings of the worker in `configPath`, and keeps the migrated database as a
 * script for serveD1TemplateScript. Called from tests/vitest.config.ts, where wrangler is already
 * loaded (in a global setup, vitest would transform all of wrangler first). Returns the number of
 * statements.
 */
export async function buildD1Template(configPath: string, migrations: D1Migration[]): Promise<number> {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(configPath);
  const miniflare = new Miniflare({
    modules: true,
    script: TEMPLATE_WORKER,
    compatibilityDate: workerOptions.compatibilityDate,
    compatibilityFlags: workerOptions.compatibilityFlags,
    d1Databases: { DB: "d1-template" },
  });
  try {
    const response = await miniflare.dispatchFetch("http://d1-template.invalid/", {
      method: "POST",
      body: JSON.stringify({ migrations, notInternal: NOT_INTERNAL }),
    });
    if (!response.ok) throw new Error(`D1-Vorlage: die Migrationen schlugen fehl (${response.status}): ${await response.text()}`);
    script = statementsOf((await response.json()) as MigratedDatabase);
    return script.length;
  } finally {
    await miniflare.dispose();
  }
}

/** The database as statements that build it again on an empty one: tables, rows, counters, then indexes, views and triggers (no trigger fires while the rows go in). */
function statementsOf({ objects, rows, counters }: MigratedDatabase): TemplateStatement[] {
  const ofType = (type: string) => objects.filter((object) => object.type === type);
  const statements: TemplateStatement[] = ofType("table").map(({ sql }) => ({ sql, params: [] }));
  for (const { name } of ofType("table")) {
    for (const row of rows[name] ?? []) {
      const columns = Object.keys(row);
      statements.push({
        sql: `INSERT INTO "${name}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
        params: columns.map((column) => row[column]),
      });
    }
  }
  // The counters of AUTOINCREMENT tables as the migrations left them (they may be above the highest id).
  for (const { name, seq } of counters) {
    statements.push({ sql: "DELETE FROM sqlite_sequence WHERE name = ?", params: [name] });
    statements.push({ sql: "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", params: [name, seq] });
  }
  for (const type of ["index", "view", "trigger"]) statements.push(...ofType(type).map(({ sql }) => ({ sql, params: [] })));
  return statements;
}

/** Node side of the service binding D1_TEMPLATE (tests/vitest.config.ts): the script of the migrated database, as JSON. */
export async function serveD1TemplateScript(): Promise<Response> {
  if (!script) return new Response("Keine D1-Vorlage: tests/vitest.config.ts hat sie nicht gebaut", { status: 500 });
  return Response.json(script);
}
