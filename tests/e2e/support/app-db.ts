import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * SQL against the running app's local D1 (the state directory the Playwright web server started
 * it with), for data no screen makes, e.g. a reminder whose letter was not sent. Returns the rows
 * of the last statement. Asynchronous on purpose: blocking the test's event loop for the seconds
 * wrangler takes kept it from seeing the servers close idle keep-alive connections, and the next
 * fetch (the login) took a dead one ("other side closed").
 */
export async function appSql<Row = Record<string, unknown>>(statements: string): Promise<Row[]> {
  const run = () =>
    promisify(execFile)(
      `${root}node_modules/.bin/wrangler`,
      ["d1", "execute", "DB", "--local", "--persist-to", "tests/.artifacts/state", "--yes", "--json", "--command", statements],
      { cwd: root, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
  // The app (another process) may hold SQLite's write lock at this moment: wrangler then fails at
  // once with SQLITE_BUSY instead of waiting. Its statements ran in one transaction that rolled
  // back, so running them again is safe; anything else fails the test with wrangler's own words.
  for (let attempt = 1; ; attempt++) {
    try {
      const { stdout } = await run();
      const results = JSON.parse(stdout) as { results: Row[] }[];
      return results[results.length - 1]?.results ?? [];
    } catch (error) {
      const output = `${(error as { stdout?: string }).stdout ?? ""}${(error as { stderr?: string }).stderr ?? ""}`;
      if (attempt < 5 && /SQLITE_BUSY|database is locked/i.test(output)) continue;
      throw new Error(`wrangler d1 execute schlug fehl: ${output || String(error)}`);
    }
  }
}
