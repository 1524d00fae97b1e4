/**
 * The migrated database, built once per test run (Node side) and copied into each test file's D1.
 *
 * Every test file runs in its own Miniflare (a new workerd) with its own, empty D1. Applying the
 * 25+ migrations there (3.4 MB of SQL, history triggers recreated several times) took ~6 s per
 * file. Instead tests/vitest.config.ts applies the real migrations of migrations/ once per run, exactly as `applyD1Migrations` of cloudflare:test does (one batch
 * per migration plus its row in d1_migrations), to a D1 of the worker of wrangler.toml persisted to
 * a temporary directory; and each test file's setup (tests/integration/migrated-database.ts) asks
 * the service binding D1_TEMPLATE, before it touches env.DB, to copy that SQLite file into its own
 * Miniflare's D1 directory. The copies live in Miniflare's temporary directory, which Miniflare
 * removes with the instance; the template directory goes when the vitest process exits.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { D1Migration } from "@cloudflare/vitest-pool-workers";
import { getPlatformProxy } from "wrangler";

/** Where Miniflare keeps the SQLite files of D1 databases, below its D1 persist path. */
const OBJECT_DIR = "miniflare-D1DatabaseObject";

/**
 * Applies `migrations` (readD1Migrations of migrations/) to a fresh D1 of the worker in
 * `configPath`, persisted below a new temporary directory, which it returns; the directory is
 * removed when this process exits. Called from tests/vitest.config.ts, where wrangler is already
 * loaded (in a global setup, vitest would transform all of wrangler first: about a minute).
 */
export async function buildD1Template(configPath: string, migrations: D1Migration[]): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), "wuff-d1-template-"));
  process.once("exit", () => rmSync(root, { recursive: true, force: true }));
  const proxy = await getPlatformProxy<{ DB: D1Database }>({ configPath, persist: { path: root }, remoteBindings: false });
  try {
    const db = proxy.env.DB;
    // The same statements as applyD1Migrations (cloudflare:test), on an empty database.
    await db
      .prepare(
        `CREATE TABLE IF NOT EXISTS d1_migrations (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
	);`,
      )
      .run();
    const insert = db.prepare("INSERT INTO d1_migrations (name) VALUES (?);");
    for (const migration of migrations) {
      await db.batch([...migration.queries.map((query) => db.prepare(query)), insert.bind(migration.name)]);
    }
  } finally {
    await proxy.dispose();
  }
  const dir = findObjectDir(root);
  if (!dir || sqliteFiles(dir).length !== 1) throw new Error(`Keine migrierte D1-Datenbank unter ${root}`);
  return root;
}

function findObjectDir(dir: string): string | null {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name === OBJECT_DIR) return path;
    const found = findObjectDir(path);
    if (found) return found;
  }
  return null;
}

/** The database files of a D1 object directory (not workerd's metadata.sqlite). */
function sqliteFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
}

/** The part of Miniflare that D1_TEMPLATE uses: Miniflare hands itself to a function service. */
type MiniflareInstance = { unsafeGetPersistPaths(): Map<string, string> };

/**
 * Node side of the service binding D1_TEMPLATE (tests/vitest.config.ts): copies the template into
 * the D1 directory of the calling test file's Miniflare. Must run before anything opens env.DB;
 * a second call (the database already exists, maybe open) answers 409 instead of overwriting it.
 */
export async function copyD1Template(_request: Request, mf: MiniflareInstance): Promise<Response> {
  const root = process.env.WUFF_TEST_D1_TEMPLATE;
  const templateDir = root && existsSync(root) ? findObjectDir(root) : null;
  if (!templateDir) return new Response(`Keine D1-Vorlage unter ${root}`, { status: 500 });
  const d1 = mf.unsafeGetPersistPaths().get("d1");
  if (!d1) return new Response("Miniflare nennt kein D1-Verzeichnis", { status: 500 });
  const target = join(d1, OBJECT_DIR);
  mkdirSync(target, { recursive: true });
  if (sqliteFiles(target).length > 0) return new Response(`D1 unter ${target} ist schon angelegt`, { status: 409 });
  // The database and its write-ahead log (the migrated rows may still be there: workerd does not
  // checkpoint on exit); the shared-memory index is rebuilt from them by the first connection.
  for (const name of readdirSync(templateDir)) {
    if (name.startsWith("metadata.sqlite") || name.endsWith("-shm")) continue;
    copyFileSync(join(templateDir, name), join(target, name));
  }
  return new Response(null, { status: 204 });
}
