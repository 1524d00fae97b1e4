/**
 * Loads demo data into the local D1 database (the one `npm start` uses).
 *
 *   tsx scripts/seed.ts                 demo data, only if the database has no people yet
 *   tsx scripts/seed.ts --large --force benchmark data (5,000 people, 6,000 dogs, 300 courses,
 *                                       50,000 fees), replacing what is there
 *   --times N                           with --large: N times as much (npm run bench -- --scale)
 *   --persist-to DIR                    the wrangler state directory (default .wrangler/state)
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_SIZE, LARGE_SIZE, generateSeedData } from "../app/db/seed/generate";
import { TABLES_CHILDREN_FIRST, seedStatements } from "../app/db/seed/plan";
import { todayInBerlin } from "../app/lib/format";

const args = process.argv.slice(2);
const large = args.includes("--large");
const force = args.includes("--force");
const timesIndex = args.indexOf("--times");
const times = timesIndex >= 0 ? Number(args[timesIndex + 1]) : 1;
if (!Number.isInteger(times) || times < 1) throw new Error(`--times braucht eine ganze Zahl ≥ 1, nicht ${args[timesIndex + 1]}`);
const persistIndex = args.indexOf("--persist-to");
const persistTo = persistIndex >= 0 ? args[persistIndex + 1] : undefined;

const wranglerBin = join(process.cwd(), "node_modules", ".bin", "wrangler");
const locality = ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];

function wrangler(...wranglerArgs: string[]): string {
  const result = spawnSync(wranglerBin, ["d1", "execute", "DB", ...locality, "--yes", ...wranglerArgs], {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(`wrangler d1 execute fehlgeschlagen:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

function countPeople(): number {
  const output = wrangler("--json", "--command", "SELECT count(*) AS n FROM people");
  const [first] = JSON.parse(output) as { results: { n: number }[] }[];
  return first.results[0].n;
}

function executeFile(name: string, statements: string[]) {
  const directory = join(process.cwd(), ".wrangler", "seed");
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `${name}.sql`);
  writeFileSync(file, `${statements.join("\n")}\n`);
  wrangler("--file", file);
}

const existing = countPeople();
if (existing > 0 && !force) {
  console.log(`Datenbank enthält bereits ${existing} Personen: keine Demodaten geladen.`);
  process.exit(0);
}
if (existing > 0) {
  console.log("Vorhandene Daten werden ersetzt ...");
  // The wipe writes no history (ERASE), and the old history goes with the old data.
  executeFile("wipe", [
    "INSERT OR REPLACE INTO write_context (id, actor, action, source) VALUES (1, 'System', 'ERASE', 'Seed/Import');",
    // Rows the app writes that the seed does not (settled cards, refunds) first; the runs last,
    // as fees and card fees name them.
    ...[
      "deleted_records",
      "change_history",
      "attendance_settlements",
      "card_refunds",
      "card_purchases",
      "notice_declarations",
      // The Kassenbuch's entries name payments; the Kasse itself (from the migration) stays.
      "cash_entries",
      // Donations name their fees and receipts; receipts name people.
      "donations",
      "donation_receipts",
      ...TABLES_CHILDREN_FIRST,
      "jobs",
    ].map((table) => `DELETE FROM "${table}";`),
    "DELETE FROM sqlite_sequence;",
    "DELETE FROM write_context;",
  ]);
}

const size = large
  ? { people: LARGE_SIZE.people * times, dogs: LARGE_SIZE.dogs * times, courses: LARGE_SIZE.courses * times, fees: LARGE_SIZE.fees * times }
  : DEMO_SIZE;
const data = generateSeedData({ today: todayInBerlin(), size });
executeFile(large ? "large" : "demo", seedStatements(data));
console.log(
  `${large ? "Benchmark" : "Demo"}daten geladen: ${data.people.length} Personen, ${data.dogs.length} Hunde, ` +
    `${data.courses.length} Kurse, ${data.fees.length} offene Posten, ${data.invoiceHeaders.length} Rechnungen.`,
);
