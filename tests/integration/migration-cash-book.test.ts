/**
 * Migration 0067 (issue 35 item 2, the Kassenbuch) on a copy of the demo data as it stood before
 * it: the real migrations up to 0065, the demo data with its cash payments (no Kasse yet), and a
 * cash refund dated before any cash came in. Every cash payment becomes one Kasse entry in date
 * order with receipt numbers per year; the refund paid out before cash came in gets an
 * Anfangsbestand, so the balance never goes below zero; afterwards the triggers keep the rules.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { generateSeedData } from "~/db/seed/generate";
import { seedStatements } from "~/db/seed/plan";
import { NOT_INTERNAL } from "../support/d1-internal-names";
import { migratedUpTo } from "../support/migrations";

const all = async <T>(query: string) => (await env.DB.prepare(query).all<T>()).results;

let cashPayments: number;

beforeAll(async () => {
  const from67 = await migratedUpTo("0067_");
  expect(await all("SELECT name FROM sqlite_master WHERE name = 'cash_entries'")).toHaveLength(0);
  const data = generateSeedData({ today: "2026-11-22" });
  // Only the columns and tables there were then.
  const tables = (await all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND ${NOT_INTERNAL}`)).map((table) => table.name);
  const infos = await env.DB.batch<{ name: string }>(tables.map((table) => env.DB.prepare(`PRAGMA table_info("${table}")`)));
  const columnsOf = new Map(tables.map((table, index) => [table, new Set(infos[index].results.map((column) => column.name))]));
  await env.DB.batch(seedStatements(data, (table) => columnsOf.get(table)).map((statement) => env.DB.prepare(statement)));
  // A cash refund of 50,00 € on 02.01.2020, before the demo's first cash came in.
  await env.DB.prepare(
    `INSERT INTO payments (entry_key, person_id, date, amount, method, source, text, created_by, created_on)
     VALUES ('test:early-refund', 1, '2020-01-02', -5000, 'CASH', 'CASH_RECEIPT', 'Erstattung bar', 'Test', '2020-01-02T10:00:00.000Z')`,
  ).run();
  [{ n: cashPayments }] = await all<{ n: number }>("SELECT count(*) AS n FROM payments WHERE method = 'CASH'");
  expect(cashPayments).toBeGreaterThan(2);
  for (const migration of from67) await env.DB.batch(migration.queries.map((query) => env.DB.prepare(query)));
});

describe("migration 0067 on a copy of the demo data", () => {
  it("makes every cash payment one Kasse entry in date order, numbered per year, with an Anfangsbestand for cash paid out first", async () => {
    const entries = await all<{
      id: number;
      date: string;
      seq: number;
      receipt: string;
      kind: string;
      amount: number;
      balance: number;
      paymentId: number | null;
    }>("SELECT id, date, seq, receipt_number AS receipt, kind, amount, balance, payment_id AS paymentId FROM cash_entries ORDER BY id");
    expect(entries.filter((entry) => entry.paymentId !== null)).toHaveLength(cashPayments);
    expect(entries[0]).toMatchObject({ date: "2020-01-02", kind: "OPENING", amount: 5000, balance: 5000, receipt: "K-2020-0001" });
    expect(entries[1]).toMatchObject({ date: "2020-01-02", kind: "PAYMENT", amount: -5000, balance: 0, receipt: "K-2020-0002" });
    let balance = 0;
    for (const [index, entry] of entries.entries()) {
      balance += entry.amount;
      expect(entry.balance, entry.receipt).toBe(balance);
      expect(entry.balance, entry.receipt).toBeGreaterThanOrEqual(0);
      if (index > 0) expect(entry.date >= entries[index - 1].date, entry.receipt).toBe(true);
      const before = entries[index - 1];
      expect(entry.seq, entry.receipt).toBe(before && before.date.slice(0, 4) === entry.date.slice(0, 4) ? before.seq + 1 : 1);
    }
  });

  it("keeps the rules afterwards: the next cash payment follows, nothing earlier, nothing changed", async () => {
    const [last] = await all<{ date: string; balance: number }>("SELECT date, balance FROM cash_entries ORDER BY id DESC LIMIT 1");
    await env.DB.prepare(
      `INSERT INTO payments (entry_key, person_id, date, amount, method, source, text, created_by, created_on)
       VALUES ('test:after', 1, '${last.date}', 700, 'CASH', 'CASH_RECEIPT', 'Kurs bar', 'Test', '2026-11-22T10:00:00.000Z')`,
    ).run();
    const [entry] = await all<{ balance: number }>(
      "SELECT balance FROM cash_entries WHERE payment_id = (SELECT id FROM payments WHERE entry_key = 'test:after')",
    );
    expect(entry.balance).toBe(last.balance + 700);
    await expect(
      env.DB.prepare(
        `INSERT INTO payments (entry_key, person_id, date, amount, method, source, text, created_by, created_on)
         VALUES ('test:early', 1, '2026-01-01', 700, 'CASH', 'CASH_RECEIPT', 'zu früh', 'Test', '2026-11-22T10:00:00.000Z')`,
      ).run(),
    ).rejects.toThrow(/cash book: back-dated/);
    expect(await all("SELECT id FROM payments WHERE entry_key = 'test:early'")).toHaveLength(0);
    await expect(env.DB.prepare("UPDATE cash_entries SET amount = 1 WHERE id = 1").run()).rejects.toThrow(/frozen: cash book/);
  });
});
