/**
 * Migration 0030 (issue 30, the invoice life cycle) on a database as it stood before it: built here
 * by the real migrations up to 0029, filled with invoices as Wuff wrote them then (open, partly
 * paid, paid, with a PDF, one in the Papierkorb), then migrated to today. Every invoice is issued
 * and keeps its number, amount and open amount; its recipient and its rows' dates of service are
 * set; the fees are untouched; the Papierkorb's invoice comes back as a draft.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { migratedUpTo } from "../support/migrations";

let from30: Awaited<ReturnType<typeof migratedUpTo>>;

const all = async <T>(query: string) => (await env.DB.prepare(query).all<T>()).results;

beforeAll(async () => {
  // The database of this file, back to nothing, then migrated up to 0029.
  from30 = await migratedUpTo("0030_");
  expect(await all("SELECT name FROM sqlite_master WHERE name = 'invoice_headers'")).toHaveLength(1);

  // Invoices as they were written before 0030 (no status, numbers from the start).
  await env.DB.batch(
    [
      "INSERT INTO member_types (id, code, name) VALUES (1, 'NONE', 'Kein Mitglied')",
      "INSERT INTO people (id, first_name, last_name, member_type_id, street_number, zip, city) VALUES (1, 'Erika', 'Muster', 1, 'Feldweg 1', '35390', 'Gießen'), (2, 'Otto', 'Alt', 1, NULL, NULL, NULL)",
      `INSERT INTO fees (id, person_id, date, text, amount, open_amount, send_invoice, is_invoiced, kind, period_year, payment_reference) VALUES
        (1, 1, '2025-01-10', 'Jahresbeitrag 2025', 6000, 0, 1, 1, 'ANNUAL', 2025, 'ReNr 2025001'),
        (2, 1, '2025-03-05', 'Einzelstunde', 4000, 0, 1, 1, 'OTHER', NULL, 'ReNr 2025001'),
        (3, 2, '2025-04-01', 'Platzmiete', 1500, 0, 1, 1, 'OTHER', NULL, 'ReNr 2025002'),
        (4, 2, '2025-05-01', 'Leine', 900, 900, 1, 0, 'OTHER', NULL, NULL)`,
      `INSERT INTO invoice_headers (id, person_id, invoice_number, date, sent_date, due_date, amount, open_amount, pdf_file_path, created_by, created_on) VALUES
        (1, 1, 2025001, '2025-03-10', '2025-03-10', '2025-04-09', 10000, 10000, 'Rechnung_2025001_Muster_2025.pdf', 'Fritz Finanz', '2025-03-10T09:00:00.000Z'),
        (2, 2, 2025002, '2025-04-02', NULL, '2025-05-02', 1500, 500, NULL, 'Fritz Finanz', '2025-04-02T09:00:00.000Z'),
        (3, 2, 2025003, '2025-05-02', NULL, NULL, 2500, 0, NULL, 'Fritz Finanz', '2025-05-02T09:00:00.000Z')`,
      `INSERT INTO invoice_rows (id, invoice_id, fee_id, line_number, text, amount) VALUES
        (1, 1, 1, 1, 'Jahresbeitrag 2025', 6000), (2, 1, 2, 2, 'Einzelstunde', 4000), (3, 2, 3, 1, 'Platzmiete', 1500), (4, 3, NULL, 1, 'Sonstiges', 2500)`,
      `INSERT INTO deleted_records (transaction_id, deleted_on, deleted_by, table_name, identifier1, json) VALUES
        (1, '2025-06-01T10:00:00.000Z', 'Fritz Finanz', 'invoice_headers', '2025004',
         '[{"id":9,"person_id":2,"invoice_number":2025004,"date":"2025-06-01","amount":900,"open_amount":900,"created_by":"Fritz Finanz","created_on":"2025-06-01T09:00:00.000Z","row_version":1}]')`,
      "INSERT INTO sqlite_sequence (name, seq) SELECT 'invoice_headers', 9 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'invoice_headers')",
      "UPDATE sqlite_sequence SET seq = 9 WHERE name = 'invoice_headers'",
    ].map((query) => env.DB.prepare(query)),
  );
});

describe("migration 0030 on invoices written before it", () => {
  it("issues every invoice with its number, amount and open amount, freezes the recipient, dates the rows, leaves the fees alone", async () => {
    const invoicesBefore = await all("SELECT id, invoice_number, date, due_date, amount, open_amount, pdf_file_path FROM invoice_headers ORDER BY id");
    const feesBefore = await all("SELECT * FROM fees ORDER BY id");
    const historyBefore = await all("SELECT id FROM change_history ORDER BY id");
    for (const migration of from30) await env.DB.batch(migration.queries.map((query) => env.DB.prepare(query)));

    expect(await all("SELECT id, invoice_number, date, due_date, amount, open_amount, pdf_file_path FROM invoice_headers ORDER BY id")).toEqual(invoicesBefore);
    // Every column a fee had keeps its value (later migrations add columns of their own).
    expect(await all("SELECT * FROM fees ORDER BY id")).toMatchObject(feesBefore);
    expect(await all("SELECT id, status, kind, issued_on, issued_by, issued_last_name, issued_city, pdf_sha256 FROM invoice_headers ORDER BY id")).toEqual([
      {
        id: 1,
        status: "ISSUED",
        kind: "INVOICE",
        issued_on: "2025-03-10T09:00:00.000Z",
        issued_by: "Fritz Finanz",
        issued_last_name: "Muster",
        issued_city: "Gießen",
        pdf_sha256: null,
      },
      {
        id: 2,
        status: "ISSUED",
        kind: "INVOICE",
        issued_on: "2025-04-02T09:00:00.000Z",
        issued_by: "Fritz Finanz",
        issued_last_name: "Alt",
        issued_city: null,
        pdf_sha256: null,
      },
      {
        id: 3,
        status: "ISSUED",
        kind: "INVOICE",
        issued_on: "2025-05-02T09:00:00.000Z",
        issued_by: "Fritz Finanz",
        issued_last_name: "Alt",
        issued_city: null,
        pdf_sha256: null,
      },
    ]);
    // The dates of service: a membership's year, a fee's date, the invoice's date without a fee.
    expect(await all("SELECT id, service_from, service_to, fee_released FROM invoice_rows ORDER BY id")).toEqual([
      { id: 1, service_from: "2025-01-01", service_to: "2025-12-31", fee_released: 0 },
      { id: 2, service_from: "2025-03-05", service_to: "2025-03-05", fee_released: 0 },
      { id: 3, service_from: "2025-04-01", service_to: "2025-04-01", fee_released: 0 },
      { id: 4, service_from: "2025-05-02", service_to: "2025-05-02", fee_released: 0 },
    ]);
    // The id counter stays past the binned invoice; that one comes back as a draft without its number.
    expect(await env.DB.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'invoice_headers'").first()).toEqual({ seq: 9 });
    const [binned] = await all<{ json: string }>("SELECT json FROM deleted_records WHERE table_name = 'invoice_headers'");
    expect(JSON.parse(binned.json)[0]).toMatchObject({ id: 9, invoice_number: null, status: "DRAFT", amount: 900 });
    // Frozen from now on, by the triggers the migration wrote; no history of the technical copy.
    await expect(env.DB.prepare("UPDATE invoice_headers SET amount = 1 WHERE id = 1").run()).rejects.toThrow("frozen: issued invoice");
    await expect(env.DB.prepare("DELETE FROM invoice_rows WHERE id = 4").run()).rejects.toThrow("frozen: issued invoice");
    expect(await all("SELECT id FROM change_history ORDER BY id")).toEqual(historyBefore);
    expect(await all("PRAGMA foreign_key_check")).toEqual([]);
  });
});
