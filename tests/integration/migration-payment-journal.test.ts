/**
 * Migration 0033 (issue 30 item 6, the payment journal) on a copy of the demo data as it stood
 * before it: the real migrations up to 0032, the demo data with its paid and partly paid fees and
 * invoices written as Wuff wrote them then (open amounts only, no journal), a Mollie payment, a
 * booked bank credit and a Stornorechnung; then 0033. Every open amount stays exactly what it was
 * and is from then on what the journal's allocations leave.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { generateSeedData } from "~/db/seed/generate";
import { seedStatements } from "~/db/seed/plan";
import { NOT_INTERNAL } from "../support/d1-internal-names";
import { migratedUpTo } from "../support/migrations";

let from33: Awaited<ReturnType<typeof migratedUpTo>>;

const all = async <T>(query: string) => (await env.DB.prepare(query).all<T>()).results;
const run = (...queries: string[]) => env.DB.batch(queries.map((query) => env.DB.prepare(query)));

let mollieFee: number;
let bankFee: number;
let partlyPaid: number;
let cancelled: number;
let storno: number;

beforeAll(async () => {
  from33 = await migratedUpTo("0033_");
  expect(await all("SELECT name FROM sqlite_master WHERE name = 'payments'")).toHaveLength(0);

  // The demo data without the journal: its paid amounts are only the lowered open amounts.
  // Without the Gutschrift: its kind came with 0036.
  const generated = generateSeedData({ today: "2026-11-22" });
  const creditNotes = new Set(generated.invoiceHeaders.filter((header) => header.kind === "CREDIT_NOTE").map((header) => header.id));
  const data = {
    ...generated,
    invoiceHeaders: generated.invoiceHeaders.filter((header) => !creditNotes.has(header.id)),
    invoiceRows: generated.invoiceRows.filter((row) => !creditNotes.has(row.invoiceId)),
  };
  // Only the columns the tables had then (later migrations add their own).
  const tables = (await all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND ${NOT_INTERNAL}`)).map((table) => table.name);
  const infos = await env.DB.batch<{ name: string }>(tables.map((table) => env.DB.prepare(`PRAGMA table_info("${table}")`)));
  const columnsOf = new Map(tables.map((table, index) => [table, new Set(infos[index].results.map((column) => column.name))]));
  const existing = (table: string) => columnsOf.get(table);
  // Without the texts for Mein Wuff and Karten & Abos: their tables came with 0047 and 0062 (the cards' fees stay, paid).
  const later = { legalTexts: [], cardProducts: [], cardProductScopes: [], cards: [], cardFees: [], cardUses: [] };
  await env.DB.batch(seedStatements({ ...data, payments: [], paymentAllocations: [], ...later }, existing).map((statement) => env.DB.prepare(statement)));

  const paidFees = data.fees.filter((fee) => !fee.isInvoiced && fee.openAmount === 0 && fee.amount! > 0);
  mollieFee = paidFees[0].id!;
  bankFee = paidFees[1].id!;
  const open = data.invoiceHeaders.filter((header) => header.status === "ISSUED" && header.openAmount! > 0);
  partlyPaid = open[0].id!;
  cancelled = open[1].id!;
  const [{ amount: cancelledAmount, invoiceNumber: cancelledNumber }] = await all<{ amount: number; invoiceNumber: number }>(
    `SELECT amount, invoice_number AS invoiceNumber FROM invoice_headers WHERE id = ${cancelled}`,
  );
  await run(
    `INSERT INTO mollie_payments (payment_id, fee_id, amount, applied, paid_at, processed_on) VALUES ('tr_migration', ${mollieFee}, 99999, ${paidFees[0].amount}, '2026-11-03T10:00:00+00:00', '2026-11-03T10:00:05.000Z')`,
    "INSERT INTO bank_statement_imports (id, file_name, format, imported_by, imported_on) VALUES (1, 'alt.xml', 'CAMT053', 'Fritz Finanz', '2026-11-04T10:00:00.000Z')",
    `INSERT INTO bank_statement_entries (import_id, entry_key, position, direction, amount, booking_date, value_date, bank_reference, remittance, proposal, target_type, target_id, status, applied, booked_by, booked_on)
      VALUES (1, 'k-1', 1, 'CRDT', ${paidFees[1].amount}, '2026-11-04', '2026-11-04', 'BANKREF-1', 'Posten ${bankFee}', 'MATCHED', 'FEE', ${bankFee}, 'BOOKED', ${paidFees[1].amount}, 'Fritz Finanz', '2026-11-04T10:00:00.000Z')`,
    `UPDATE invoice_headers SET open_amount = open_amount - 1234 WHERE id = ${partlyPaid}`,
    // A Stornorechnung as issue 30's Storno wrote it before the journal: the invoice settled by setting its open amount to 0.
    `UPDATE invoice_headers SET open_amount = 0 WHERE id = ${cancelled}`,
    `INSERT INTO invoice_headers (person_id, status, kind, corrects_invoice_id, date, amount, open_amount, created_by, created_on)
      SELECT person_id, 'DRAFT', 'STORNO', id, '2026-11-20', -amount, 0, 'Fritz Finanz', '2026-11-20T10:00:00.000Z' FROM invoice_headers WHERE id = ${cancelled}`,
    `UPDATE invoice_headers SET status = 'ISSUED', invoice_number = (SELECT max(invoice_number) + 1 FROM invoice_headers), issued_on = '2026-11-20T10:00:00.000Z'
      WHERE corrects_invoice_id = ${cancelled}`,
  );
  [{ id: storno }] = await all<{ id: number }>(`SELECT id FROM invoice_headers WHERE corrects_invoice_id = ${cancelled}`);
  expect(cancelledAmount).toBeGreaterThan(0);
  expect(cancelledNumber).toBeGreaterThan(0);
});

describe("migration 0033 on a copy of the demo data", () => {
  it("keeps every open amount, and open = amount - allocations from then on", async () => {
    const openBefore = await all(
      "SELECT 'invoice' AS kind, id, open_amount FROM invoice_headers UNION ALL SELECT 'fee', id, open_amount FROM fees ORDER BY 1, 2",
    );
    for (const migration of from33) await env.DB.batch(migration.queries.map((query) => env.DB.prepare(query)));
    expect(await all("SELECT 'invoice' AS kind, id, open_amount FROM invoice_headers UNION ALL SELECT 'fee', id, open_amount FROM fees ORDER BY 1, 2")).toEqual(
      openBefore,
    );

    // Every issued invoice and every fee not settled by an issued invoice: open = amount - allocations.
    expect(
      await all(`SELECT h.id, h.amount, h.open_amount, coalesce((SELECT sum(a.amount) FROM payment_allocations a WHERE a.invoice_id = h.id), 0) AS allocated
        FROM invoice_headers h WHERE h.status = 'ISSUED' AND h.kind = 'INVOICE' AND h.open_amount <> h.amount - coalesce((SELECT sum(a.amount) FROM payment_allocations a WHERE a.invoice_id = h.id), 0)`),
    ).toEqual([]);
    expect(
      await all(`SELECT f.id FROM fees f WHERE f.is_invoiced = 0 AND NOT EXISTS (SELECT 1 FROM invoice_rows r WHERE r.fee_id = f.id AND r.fee_released = 0)
        AND f.open_amount <> f.amount - coalesce((SELECT sum(a.amount) FROM payment_allocations a WHERE a.fee_id = f.id), 0)`),
    ).toEqual([]);
    // Nobody has a credit they did not have (the migration allocates every entry in full).
    expect(await all("SELECT y.id FROM payments y WHERE y.amount <> (SELECT sum(a.amount) FROM payment_allocations a WHERE a.payment_id = y.id)")).toEqual([]);

    // The traces name the entries: the Mollie payment, the bank credit, the rest 'übernommen', the Storno as 'Verrechnung'.
    const entryOf = async (key: string) =>
      (await all<Record<string, unknown>>(`SELECT method, source, source_ref, date FROM payments WHERE entry_key = '${key}'`))[0];
    expect(await entryOf("mollie:tr_migration")).toEqual({ method: "MOLLIE", source: "MOLLIE", source_ref: "tr_migration", date: "2026-11-03" });
    expect(await entryOf(`bank:${(await all<{ id: number }>("SELECT id FROM bank_statement_entries"))[0].id}`)).toEqual({
      method: "TRANSFER",
      source: "BANK_ENTRY",
      source_ref: "BANKREF-1",
      date: "2026-11-04",
    });
    expect(await entryOf(`migration:fee:${mollieFee}`)).toBeUndefined();
    expect(await all(`SELECT y.amount, y.method, y.source FROM payments y WHERE y.entry_key = 'migration:invoice:${partlyPaid}'`)).toEqual([
      { amount: 1234, method: "TRANSFER", source: "MIGRATION" },
    ]);
    const [offset] = await all<{ id: number; method: string; source: string }>(
      `SELECT id, method, source FROM payments WHERE entry_key = 'correction:${storno}'`,
    );
    expect(offset).toMatchObject({ method: "OFFSET", source: "CORRECTION" });
    expect(await all(`SELECT invoice_id, amount FROM payment_allocations WHERE payment_id = ${offset.id}`)).toEqual([
      { invoice_id: cancelled, amount: (await all<{ amount: number }>(`SELECT amount FROM invoice_headers WHERE id = ${cancelled}`))[0].amount },
    ]);
    expect(await all("SELECT name FROM sqlite_master WHERE name = '_paid_before_journal'")).toEqual([]);
    expect(await all("PRAGMA foreign_key_check")).toEqual([]);

    // From now on the journal is kept: an entry cannot be changed, an allocation lowers the open amount.
    await expect(env.DB.prepare("UPDATE payments SET amount = 1").run()).rejects.toThrow("frozen: payment journal");
    await expect(env.DB.prepare("DELETE FROM payment_allocations").run()).rejects.toThrow("frozen: payment journal");
  });
});
