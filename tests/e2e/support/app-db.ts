import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * SQL against the running app's local D1 (the state directory the Playwright web server started
 * it with), for data no screen makes, e.g. a reminder whose letter was not sent. Returns the rows
 * of the last statement.
 */
export function appSql<Row = Record<string, unknown>>(statements: string): Row[] {
  const output = execFileSync(
    `${root}node_modules/.bin/wrangler`,
    ["d1", "execute", "DB", "--local", "--persist-to", "tests/.artifacts/state", "--yes", "--json", "--command", statements],
    { cwd: root, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  const results = JSON.parse(output) as { results: Row[] }[];
  return results[results.length - 1]?.results ?? [];
}
