/**
 * Migrations that rebuild a table keep what refers to it. SQLite changes a CHECK only by copying
 * the table, and dropping the old copy deletes its rows first, which fires the ON DELETE actions of
 * the tables that reference it. Here the rebuild of `fees` (0023_reminders) runs again on a
 * database full of demo data plus a Lastschrift item, and everything that referred to a fee must
 * still do so afterwards.
 */
import { env } from "cloudflare:test";
import { reminderStandingTriggers } from "~/db/derived";
import { paymentJournalTriggers } from "~/db/frozen";
import { donationTriggers } from "~/db/donations";
import { beforeAll, describe, expect, it } from "vitest";
import { fetchApp } from "../support/app";
import { loadDemoData } from "../support/seed";

/** The statements of migration 0023 from the fee copy on, without its data (the part that may
 *  run again: the copy, the indexes, the history triggers). */
function feeRebuild(): string[] {
  const migration = env.TEST_MIGRATIONS.find((candidate) => candidate.name.startsWith("0023_"));
  if (!migration) throw new Error("Migration 0023 fehlt");
  const start = migration.queries.findIndex((query) => query.includes("INSERT OR REPLACE INTO write_context"));
  expect(start).toBeGreaterThan(0);
  // The triggers of later migrations that name fees (the journal's, 0033; the reminder standing's,
  // 0034; the donations', 0068): a rebuild of fees drops them first, and the migration's generated block (history-triggers)
  // writes them again, as every later rebuild must (app/db/frozen.ts, app/db/derived.ts).
  const naming = [
    ...paymentJournalTriggers().filter((trigger) => trigger.name === "payment_allocations_apply"),
    ...reminderStandingTriggers(),
    // Spenden (0068): a donation's fee is checked on insert (its trigger on fees goes with the
    // table and needs columns 0023 did not have yet).
    ...donationTriggers().filter((trigger) => trigger.name === "donations_fee_is_donation"),
  ];
  return [
    ...naming.map((trigger) => `DROP TRIGGER IF EXISTS ${trigger.name}`),
    ...migration.queries.slice(start).filter((query) => !/^\s*INSERT INTO `(templates|reminder_levels)`/.test(query)),
    ...naming.map((trigger) => trigger.sql),
  ];
}

type Snapshot = { fees: unknown[]; links: unknown[]; debits: unknown[]; history: number; sequence: unknown };

async function snapshot(): Promise<Snapshot> {
  const all = async (query: string) => (await env.DB.prepare(query).all()).results;
  return {
    fees: await all("SELECT * FROM fees ORDER BY id"),
    links: await all("SELECT id, fee_id FROM course_memberships ORDER BY id"),
    debits: await all("SELECT * FROM direct_debit_items ORDER BY id"),
    history: (await env.DB.prepare("SELECT count(*) AS n FROM change_history").first<{ n: number }>())!.n,
    sequence: await env.DB.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'fees'").first(),
  };
}

beforeAll(async () => {
  await loadDemoData();
  const fee = await env.DB.prepare("SELECT id, person_id FROM fees WHERE send_invoice = 0 ORDER BY id LIMIT 1").first<{ id: number; person_id: number }>();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO jobs (id, type, status) VALUES (9001, 'DIRECT_DEBIT', 'DONE')"),
    env.DB.prepare("INSERT INTO direct_debit_runs (id, message_id, created_by, created_on) VALUES (9001, 'WUFF-9001', 'Test', '2026-11-20T10:00:00Z')"),
    env.DB.prepare(
      `INSERT INTO direct_debit_items (run_id, fee_id, person_id, mandate_id, mandate_reference, mandate_date, account_holder, iban, end_to_end_id, sequence_type, due_date, collection_date, amount)
       VALUES (9001, ?1, ?2, 1, 'WUFF-1-1', '2026-01-10', 'Test', 'DE02120300000000202051', 'WUFF-9001-1', 'FRST', '2026-11-20', '2026-11-23', 100)`,
    ).bind(fee!.id, fee!.person_id),
  ]);
});

describe("0023_reminders: the rebuild of fees", () => {
  it("keeps every fee, the participations' fee links, the Lastschrift items and the id counter, and writes no history", async () => {
    const before = await snapshot();
    expect(before.links.filter((row) => (row as { fee_id: number | null }).fee_id !== null).length).toBeGreaterThan(0);
    expect(before.debits).toHaveLength(1);
    await env.DB.batch(feeRebuild().map((query) => env.DB.prepare(query)));
    // The copy has the columns of 0023: every fee keeps each of them (columns added later are not in it).
    const after = await snapshot();
    const columnsOf0023 = Object.keys(after.fees[0] as object);
    const projected = before.fees.map((fee) => Object.fromEntries(columnsOf0023.map((column) => [column, (fee as Record<string, unknown>)[column]])));
    expect(after).toEqual({ ...before, fees: projected });
    // The history triggers of fees exist again after the copy.
    const triggers = await env.DB.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'fees'").first<{ n: number }>();
    expect(triggers!.n).toBe(3);
  });
});

describe("0024_mail_kind_reminder: the rebuild of mail_log", () => {
  it("keeps every entry and the id counter, turns the Mahnlauf's MAILSHOT entries into REMINDER and claims them once per run and person", async () => {
    const migration = env.TEST_MIGRATIONS.find((candidate) => candidate.name.startsWith("0024_"));
    if (!migration) throw new Error("Migration 0024 fehlt");
    const insert = (kind: string, jobId: number | null, personId: number | null, subject: string) =>
      env.DB.prepare(
        "INSERT INTO mail_log (kind, status, recipient, intended_recipient, subject, sent_by, person_id, job_id, birthday_year, created_on) VALUES (?1, 'SENT', 't@wuff.example', 'p@wuff.example', ?4, 'Test', ?3, ?2, ?5, '2026-11-20T10:00:00Z')",
      ).bind(kind, jobId, personId, subject, kind === "BIRTHDAY" ? 2026 : null);
    await env.DB.batch([
      env.DB.prepare("INSERT INTO jobs (id, type, status) VALUES (9101, 'REMINDERS', 'DONE')"),
      env.DB.prepare("INSERT INTO jobs (id, type, status) VALUES (9102, 'MAILSHOT', 'DONE')"),
      insert("MAILSHOT", 9101, 1, "Zahlungserinnerung: Rechnung 1"),
      insert("MAILSHOT", 9102, 1, "Rundschreiben"),
      insert("SINGLE", null, 1, "Hallo"),
    ]);
    const rows = async () => (await env.DB.prepare("SELECT * FROM mail_log ORDER BY id").all<Record<string, unknown>>()).results;
    const before = await rows();
    const sequence = await env.DB.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'mail_log'").first();
    await env.DB.batch(migration.queries.map((query) => env.DB.prepare(query)));
    const after = await rows();
    expect(after.map((row) => ({ ...row, kind: before.find((old) => old.id === row.id)!.kind }))).toEqual(before);
    expect(after.filter((row) => row.kind === "REMINDER").map((row) => row.subject)).toEqual(["Zahlungserinnerung: Rechnung 1"]);
    expect(after.find((row) => row.subject === "Rundschreiben")!.kind).toBe("MAILSHOT");
    expect(await env.DB.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'mail_log'").first()).toEqual(sequence);
    // A second reminder mail of the same run and person is refused by the claim.
    await expect(insert("REMINDER", 9101, 1, "noch einmal").run()).rejects.toThrow(/UNIQUE/);
  });
});

describe("0025_feed_token_hash: calendar feeds keep only the token's hash", () => {
  it("drops the stored tokens, and a feed handed out before keeps working by its hash", async () => {
    const migration = env.TEST_MIGRATIONS.find((candidate) => candidate.name.startsWith("0025_"));
    if (!migration) throw new Error("Migration 0025 fehlt");
    // The table as 0007 made it, with a feed whose token is stored in plain text beside its hash.
    const original = env.TEST_MIGRATIONS.find((candidate) => candidate.name.startsWith("0007_"))!;
    const token = "Abcdefghijklmnopqrstuvwxyz0123456789-_ABCDE";
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
    const hash = btoa(String.fromCharCode(...digest))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "");
    const course = await env.DB.prepare("SELECT id FROM courses ORDER BY id LIMIT 1").first<{ id: number }>();
    await env.DB.batch([
      env.DB.prepare("DROP TABLE calendar_feeds"),
      ...original.queries.map((query) => env.DB.prepare(query)),
      env.DB.prepare("INSERT INTO calendar_feeds (id, kind, subject_id, token, token_hash, created_by) VALUES (7, 'COURSE', ?1, ?2, ?3, 'Anna Admin')").bind(
        course!.id,
        token,
        hash,
      ),
    ]);
    expect((await fetchApp(`/feeds/${token}.ics`)).status).toBe(200);

    await env.DB.batch(migration.queries.map((query) => env.DB.prepare(query)));
    const columns = (await env.DB.prepare("SELECT name FROM pragma_table_info('calendar_feeds')").all<{ name: string }>()).results.map((row) => row.name);
    expect(columns).not.toContain("token");
    expect(columns).toContain("token_hash");
    const rows = (await env.DB.prepare("SELECT * FROM calendar_feeds").all<Record<string, unknown>>()).results;
    expect(rows).toEqual([expect.objectContaining({ id: 7, kind: "COURSE", subject_id: course!.id, token_hash: hash, created_by: "Anna Admin" })]);
    expect(JSON.stringify(rows)).not.toContain(token);
    // The subscribed calendar goes on working: the address was handed out before, the hash still opens it.
    expect((await fetchApp(`/feeds/${token}.ics`)).status).toBe(200);
  });
});
