/**
 * The treasurer's reports (issue 35 item 4): the EÜR of a year per sphere and account, the open
 * items at a key date, and the members' assembly report. The rules are app/lib/reports.ts's; the
 * accounts are resolved as the DATEV export resolves them (app/models/bookkeeping.server.ts).
 */
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { addDaysToDate } from "~/lib/format";
import { SPHERES, type Sphere } from "~/lib/ledger";
import { addToLines, orderedLines, splitByWeights, totalsBySphere, type IncomeLine, type SphereTotal } from "~/lib/reports";
import { bookkeepingSettings, FEE_ACCOUNTING_COLUMNS, FEE_ACCOUNTING_JOINS, incomeAccountOf, type FeeAccounting } from "./bookkeeping.server";

/** What an entry did not pay on an item: kept as the person's credit, or a credit paid back. */
const UNASSIGNED = "Ohne Zuordnung (Guthaben und Erstattungen)";

export type IncomeStatement = {
  year: number;
  from: string;
  to: string;
  spheres: boolean;
  lines: IncomeLine[];
  totals: SphereTotal[];
  /** Money received less money paid out in the year: the journal's total. */
  journalTotal: number;
  unassigned: number;
};

/** The EÜR of the fiscal year beginning in `year` (cash principle, § 11 EStG). */
export async function incomeStatement(db: Db, year: number): Promise<IncomeStatement> {
  const settings = await bookkeepingSettings(db);
  const month = String(settings.fiscalYearStartMonth).padStart(2, "0");
  const from = `${year}-${month}-01`;
  const until = addDaysToDate(`${year + 1}-${month}-01`, -1);
  const accounts = new Map(settings.accounts.map((account) => [account.purpose, account]));
  const nameOf = (number: string) => settings.accounts.find((account) => account.number === number)?.name ?? `Konto ${number}`;
  const spheres = settings.chart === "SKR42";

  const [entries, invoiceShares, feeShares, expenses] = await Promise.all([
    db.all<{ amount: number; allocated: number }>(sql`SELECT p.amount,
        coalesce((SELECT sum(a.amount) FROM payment_allocations a WHERE a.payment_id = p.id), 0) AS allocated
      FROM payments p WHERE p.method <> 'OFFSET' AND p.date BETWEEN ${from} AND ${until}`),
    // Each allocation to an invoice with the invoice's rows (the allocation repeated per row).
    db.all<FeeAccounting & { allocationId: number; allocated: number; rowAmount: number; rowAccount: string | null; rowSphere: Sphere | null }>(sql`SELECT
        a.id AS allocationId, a.amount AS allocated, r.amount AS rowAmount, r.account_number AS rowAccount, r.sphere AS rowSphere, ${FEE_ACCOUNTING_COLUMNS}
      FROM payment_allocations a JOIN payments p ON p.id = a.payment_id
      JOIN invoice_rows r ON r.invoice_id = a.invoice_id
      LEFT JOIN fees f ON f.id = r.fee_id
      ${FEE_ACCOUNTING_JOINS}
      WHERE p.method <> 'OFFSET' AND p.date BETWEEN ${from} AND ${until} AND a.invoice_id IS NOT NULL
      ORDER BY a.id, r.line_number, r.id`),
    db.all<FeeAccounting & { allocated: number }>(sql`SELECT a.amount AS allocated, ${FEE_ACCOUNTING_COLUMNS}
      FROM payment_allocations a JOIN payments p ON p.id = a.payment_id JOIN fees f ON f.id = a.fee_id
      ${FEE_ACCOUNTING_JOINS}
      WHERE p.method <> 'OFFSET' AND p.date BETWEEN ${from} AND ${until}`),
    // Expenses paid from the Kasse (a cancelled one below zero).
    db.all<{ amount: number; account: string | null; sphere: Sphere | null }>(sql`SELECT -amount AS amount, account, sphere
      FROM cash_entries WHERE kind = 'EXPENSE' AND date BETWEEN ${from} AND ${until}`),
  ]);

  const lines = new Map<string, IncomeLine>();
  const book = (row: Parameters<typeof incomeAccountOf>[0], cents: number) => {
    const income = incomeAccountOf(row, accounts);
    addToLines(lines, income.account, nameOf(income.account), spheres ? income.sphere : null, cents);
  };
  for (const fee of feeShares) book(fee, fee.allocated);
  const byAllocation = new Map<number, typeof invoiceShares>();
  for (const row of invoiceShares) {
    const rows = byAllocation.get(row.allocationId);
    if (rows) rows.push(row);
    else byAllocation.set(row.allocationId, [row]);
  }
  for (const rows of byAllocation.values()) {
    const shares = splitByWeights(
      rows[0].allocated,
      rows.map((row) => row.rowAmount),
    );
    rows.forEach((row, index) => book(row, shares[index]));
  }
  const expensePreset = accounts.get("EXPENSE");
  for (const expense of expenses) {
    const account = expense.account ?? expensePreset?.number ?? "";
    addToLines(lines, account, nameOf(account), spheres ? (expense.sphere ?? expensePreset?.sphere ?? null) : null, expense.amount, "expense");
  }
  const unassigned = entries.reduce((sum, entry) => sum + entry.amount - entry.allocated, 0);
  if (unassigned !== 0) addToLines(lines, "", UNASSIGNED, null, unassigned);

  const ordered = orderedLines(lines.values(), SPHERES);
  return {
    year,
    from,
    to: until,
    spheres,
    lines: ordered,
    totals: totalsBySphere(ordered, SPHERES),
    journalTotal: entries.reduce((sum, entry) => sum + entry.amount, 0),
    unassigned,
  };
}

export type OpenItem = { personId: number; name: string; document: string; date: string; dueDate: string | null; amount: number; open: number };

/**
 * The open items at the end of a key date: issued invoices and fees collected directly dated up
 * to then, less what the journal allocated to them up to then (payments, and the 'Verrechnung' of a
 * Storno or Gutschrift; an allocation made later than its entry, e.g. a credit used, counts from
 * the day it was made). Open is amount less allocations, as everywhere in Wuff.
 */
export async function openItemsAt(db: Db, keyDate: string): Promise<OpenItem[]> {
  const paidBy = (target: "invoice_id" | "fee_id", id: string) =>
    sql`coalesce((SELECT sum(a.amount) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id
      WHERE a.${sql.raw(target)} = ${sql.raw(id)} AND max(p.date, substr(a.created_on, 1, 10)) <= ${keyDate}), 0)`;
  return db.all<OpenItem>(sql`SELECT * FROM (
      SELECT h.person_id AS personId, pe.last_name || ', ' || pe.first_name AS name, 'Rechnung ' || h.invoice_number AS document,
        h.date, h.due_date AS dueDate, h.amount, h.amount - ${paidBy("invoice_id", "h.id")} AS open
      FROM invoice_headers h JOIN people pe ON pe.id = h.person_id
      WHERE h.status = 'ISSUED' AND h.kind = 'INVOICE' AND h.date <= ${keyDate}
      UNION ALL
      SELECT f.person_id, pe.last_name || ', ' || pe.first_name, f.text, f.date, f.due_date, f.amount, f.amount - ${paidBy("fee_id", "f.id")}
      FROM fees f JOIN people pe ON pe.id = f.person_id
      WHERE f.send_invoice = 0 AND f.amount > 0 AND f.date <= ${keyDate}
        AND NOT EXISTS (SELECT 1 FROM invoice_rows r WHERE r.fee_id = f.id AND r.fee_released = 0)
    ) WHERE open > 0 ORDER BY name, date`);
}

export type AssemblyReport = {
  year: number;
  keyDate: string;
  membersByType: { type: string; members: number; joined: number; left: number }[];
  incomeByPurpose: { label: string; income: number }[];
  statement: IncomeStatement;
};

/** The members' assembly report: members by type at the end of the year, who joined and left, and the year's income by kind. */
export async function assemblyReport(db: Db, year: number): Promise<AssemblyReport> {
  const statement = await incomeStatement(db, year);
  const keyDate = statement.to;
  const [membersByType] = await Promise.all([
    db.all<{ type: string; members: number; joined: number; left: number }>(sql`SELECT t.name AS type,
        sum(p.is_member AND coalesce(p.member_since, '0000') <= ${keyDate} AND (p.member_until IS NULL OR p.member_until > ${keyDate})) AS members,
        sum(p.member_since BETWEEN ${statement.from} AND ${keyDate}) AS joined,
        sum(p.member_until BETWEEN ${statement.from} AND ${keyDate}) AS left
      FROM member_types t LEFT JOIN people p ON p.member_type_id = t.id AND p.erased_on IS NULL
      WHERE t.code <> 'NONE' GROUP BY t.id ORDER BY t.name`),
  ]);
  // Income by kind: the statement's lines by account name, whatever their sphere.
  const byPurpose = new Map<string, { label: string; income: number }>();
  for (const line of statement.lines) {
    const entry = byPurpose.get(line.name) ?? { label: line.name, income: 0 };
    entry.income += line.income;
    byPurpose.set(line.name, entry);
  }
  return {
    year,
    keyDate,
    membersByType: membersByType.map((row) => ({ ...row, members: Number(row.members ?? 0), joined: Number(row.joined ?? 0), left: Number(row.left ?? 0) })),
    incomeByPurpose: [...byPurpose.values()],
    statement,
  };
}
