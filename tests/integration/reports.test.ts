/**
 * The reports of Buchhaltung (issue 35 item 4) over the demo data: the EÜR's totals per sphere add
 * up to the journal's money of the year, a payment on an invoice is divided over its rows to the
 * cent, the open items at today are the open amounts Wuff keeps, the members' report counts the
 * members, and each report comes as a screen, an Excel file and a PDF.
 */
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { todayInBerlin } from "~/lib/format";
import { splitByWeights } from "~/lib/reports";
import { assemblyReport, incomeStatement, openItemsAt } from "~/models/reports.server";
import { fetchApp } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const YEAR = 2026;

beforeAll(async () => {
  await loadDemoData();
});

describe("splitByWeights", () => {
  it("divides any amount over any weights exactly, each share within a cent of its exact value", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.array(fc.integer({ min: -50_000, max: 500_000 }), { minLength: 1, maxLength: 12 }),
        (amount, weights) => {
          const shares = splitByWeights(amount, weights);
          expect(shares.reduce((sum, share) => sum + share, 0)).toBe(amount);
          const total = weights.reduce((sum, weight) => sum + weight, 0);
          if (total !== 0)
            shares.forEach((share, index) => expect(Math.abs(share - (amount * weights[index]) / total)).toBeLessThan(1 + 1e-9 * Math.abs(amount)));
        },
      ),
      { seed: 20261130, numRuns: 300 },
    );
    expect(splitByWeights(10_001, [7_000, 3_000])).toEqual([7_001, 3_000]);
    expect(splitByWeights(-100, [1, 1, 1])).toEqual([-33, -33, -34]);
  });
});

describe("the EÜR of the demo year", () => {
  it("adds up per sphere to the money the journal received and paid out in the year", async () => {
    const statement = await incomeStatement(db, YEAR);
    const [journal] = await db.all<{ total: number; unassigned: number }>(sql`SELECT coalesce(sum(p.amount), 0) AS total,
        coalesce(sum(p.amount - coalesce((SELECT sum(a.amount) FROM payment_allocations a WHERE a.payment_id = p.id), 0)), 0) AS unassigned
      FROM payments p WHERE p.method <> 'OFFSET' AND p.date BETWEEN '2026-01-01' AND '2026-12-31'`);
    expect(journal.total).toBeGreaterThan(0);
    expect(statement.journalTotal).toBe(journal.total);
    expect(statement.unassigned).toBe(journal.unassigned);
    const [cash] = await db.all<{ expenses: number }>(sql`SELECT coalesce(-sum(amount), 0) AS expenses FROM cash_entries
      WHERE kind = 'EXPENSE' AND date BETWEEN '2026-01-01' AND '2026-12-31'`);
    expect(statement.totals.reduce((sum, total) => sum + total.income, 0)).toBe(journal.total);
    expect(statement.totals.reduce((sum, total) => sum + total.expense, 0)).toBe(cash.expenses);
    expect(statement.totals.reduce((sum, total) => sum + total.result, 0)).toBe(journal.total - cash.expenses);
    for (const total of statement.totals) {
      const lines = statement.lines.filter((line) => line.sphere === total.sphere);
      expect(total.income).toBe(lines.reduce((sum, line) => sum + line.income, 0));
    }
    // SKR 42: the club's income lies in its spheres, the course fees in the Zweckbetrieb.
    expect(statement.spheres).toBe(true);
    expect(statement.totals.find((total) => total.sphere === "ZWECK")?.income).toBeGreaterThan(0);
  });

  it("divides a payment on an invoice over its rows' accounts and spheres to the cent", async () => {
    const [person] = await db.insert(schema.people).values({ firstName: "Erna", lastName: "Einnahme", memberTypeId: 1 }).returning({ id: schema.people.id });
    const now = new Date().toISOString();
    const [invoice] = await db
      .insert(schema.invoiceHeaders)
      .values({ personId: person.id, date: "2026-03-01", amount: 10_000, openAmount: 0, createdBy: "Test", createdOn: now })
      .returning({ id: schema.invoiceHeaders.id });
    await db.insert(schema.invoiceRows).values([
      {
        invoiceId: invoice.id,
        lineNumber: 1,
        text: "Agility-Seminar",
        amount: 7_000,
        accountNumber: "44100",
        sphere: "WIRTSCHAFT",
        createdBy: "Test",
        createdOn: now,
      },
      {
        invoiceId: invoice.id,
        lineNumber: 2,
        text: "Spende Hundeplatz",
        amount: 3_000,
        accountNumber: "40500",
        sphere: "IDEELL",
        createdBy: "Test",
        createdOn: now,
      },
    ]);
    await db
      .update(schema.invoiceHeaders)
      .set({ status: "ISSUED", invoiceNumber: 990_001, issuedOn: "2026-03-01", openAmount: 10_000, issuedTaxStatus: "SMALL_BUSINESS" })
      .where(eq(schema.invoiceHeaders.id, invoice.id));
    const before = await incomeStatement(db, YEAR);
    const [payment] = await db
      .insert(schema.payments)
      .values({
        entryKey: "test:eur",
        personId: person.id,
        date: "2026-03-05",
        amount: 10_001,
        method: "TRANSFER",
        source: "MANUAL",
        text: "Überweisung",
        createdBy: "Test",
        createdOn: now,
      })
      .returning({ id: schema.payments.id });
    await db.insert(schema.paymentAllocations).values({ paymentId: payment.id, invoiceId: invoice.id, amount: 10_000, createdBy: "Test", createdOn: now });
    const after = await incomeStatement(db, YEAR);
    const line = (statement: typeof after, account: string) => statement.lines.find((entry) => entry.account === account)?.income ?? 0;
    expect(line(after, "44100") - line(before, "44100")).toBe(7_000);
    expect(line(after, "40500") - line(before, "40500")).toBe(3_000);
    expect(after.unassigned - before.unassigned).toBe(1);
    expect(after.lines.find((entry) => entry.account === "44100")?.sphere).toBe("WIRTSCHAFT");
    expect(after.journalTotal - before.journalTotal).toBe(10_001);
  });
});

describe("the open items at a key date", () => {
  it("at today are the open amounts Wuff keeps on issued invoices and fees collected directly", async () => {
    const items = await openItemsAt(db, todayInBerlin());
    const [kept] = await db.all<{ open: number }>(sql`SELECT
        (SELECT coalesce(sum(open_amount), 0) FROM invoice_headers WHERE status = 'ISSUED' AND kind = 'INVOICE' AND date <= ${todayInBerlin()})
      + (SELECT coalesce(sum(open_amount), 0) FROM fees f WHERE send_invoice = 0 AND amount > 0 AND date <= ${todayInBerlin()}
          AND NOT EXISTS (SELECT 1 FROM invoice_rows r WHERE r.fee_id = f.id AND r.fee_released = 0)) AS open`);
    expect(items.reduce((sum, item) => sum + item.open, 0)).toBe(kept.open);
    expect(items.length).toBeGreaterThan(0);
  });

  it("before a payment, shows the item open by what that payment paid later", async () => {
    const [allocation] = await db.all<{
      invoiceNumber: number;
      amount: number;
      paid: string;
    }>(sql`SELECT h.invoice_number AS invoiceNumber, a.amount, p.date AS paid
      FROM payment_allocations a JOIN payments p ON p.id = a.payment_id JOIN invoice_headers h ON h.id = a.invoice_id
      WHERE p.method <> 'OFFSET' AND a.amount > 0 AND h.date < p.date ORDER BY a.id LIMIT 1`);
    const dayBefore = new Date(Date.parse(`${allocation.paid}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const earlier = (await openItemsAt(db, dayBefore)).find((item) => item.document === `Rechnung ${allocation.invoiceNumber}`);
    const later = (await openItemsAt(db, allocation.paid)).find((item) => item.document === `Rechnung ${allocation.invoiceNumber}`);
    expect((earlier?.open ?? 0) - (later?.open ?? 0)).toBe(allocation.amount);
  });
});

describe("the members' assembly report", () => {
  it("counts the members by type at the year's end and shows the year's income by kind", async () => {
    const report = await assemblyReport(db, YEAR);
    const [members] = await db.all<{ count: number }>(sql`SELECT count(*) AS count FROM people p JOIN member_types t ON t.id = p.member_type_id
      WHERE t.code <> 'NONE' AND p.erased_on IS NULL AND p.is_member = 1 AND coalesce(p.member_since, '0000') <= '2026-12-31' AND (p.member_until IS NULL OR p.member_until > '2026-12-31')`);
    expect(report.membersByType.reduce((sum, row) => sum + row.members, 0)).toBe(members.count);
    expect(report.incomeByPurpose.reduce((sum, row) => sum + row.income, 0)).toBe(report.statement.lines.reduce((sum, line) => sum + line.income, 0));
  });
});

describe("the screen and its downloads", () => {
  it("shows each report to ADMIN and FINANCE, with Excel and PDF, and sends staff away", async () => {
    const finance = await loginCookie("finance");
    const page = await fetchApp("/bookkeeping/reports?report=eur&year=2026", { cookie: finance });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Einnahmenüberschussrechnung 2026");
    expect(html).toContain("Zweckbetrieb");
    for (const report of ["open", "assembly"]) {
      expect((await fetchApp(`/bookkeeping/reports?report=${report}&year=2026&date=31.12.2026`, { cookie: finance })).status).toBe(200);
    }
    const staff = await fetchApp("/bookkeeping/reports", { cookie: await loginCookie("staff") });
    expect(staff.status).toBe(302);
    const excel = await fetchApp("/bookkeeping/reports/file?report=eur&year=2026&format=xlsx", { cookie: finance });
    expect(excel.status).toBe(200);
    expect(new Uint8Array(await excel.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
    const nonsense = await fetchApp("/bookkeeping/reports?report=%3Cx%3E&year=abc&date=99.99.9999", { cookie: finance });
    expect(nonsense.status).toBe(200);
  });

  it("renders the EÜR as a PDF with its title, spheres and totals", async () => {
    const response = await fetchApp("/bookkeeping/reports/file?report=eur&year=2026&format=pdf", { cookie: await loginCookie("admin") });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    const pdf = await getDocumentProxy(new Uint8Array(await response.arrayBuffer()));
    const { text } = await extractText(pdf, { mergePages: true });
    expect(text).toContain("Einnahmenüberschussrechnung 2026");
    expect(text).toContain("Ergebnis je Sphäre");
    expect(text).toContain("Zweckbetrieb");
  });
});

describe("the configuration", () => {
  it("starts with SKR 42, so a club's report has its spheres", async () => {
    const [config] = await db.select().from(schema.configuration).where(eq(schema.configuration.id, 1));
    expect(config.chartOfAccounts).toBe("SKR42");
  });
});
