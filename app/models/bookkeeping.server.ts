/**
 * Buchhaltung (issue 35 items 1 and 3): the chart of accounts and DATEV settings, the bookings of a
 * period as the tax adviser's programme takes them, and the log of DATEV exports.
 *
 * The bookings are derived from what Wuff already keeps, never typed twice:
 * - an issued invoice, Stornorechnung or Gutschrift: per row Debitor an Erlöskonto (a correction's
 *   rows below zero, so Haben on the Debitor), Belegfeld 1 the invoice number, the row's tax key;
 * - a fee collected directly (no invoice, e.g. a Jahresbeitrag by direct debit or a Mahngebühr):
 *   Debitor an Erlöskonto on the fee's date, Belegfeld 1 'P' and the fee's number;
 * - a journal entry that moved money (Überweisung, Lastschrift, Bar, Mollie): Geldkonto an Debitor
 *   on its date (a refund or a returned debit the other way round), Belegfeld 1 the item it paid
 *   when it paid exactly one, else 'Z' and the entry's number;
 * - a waiver booked as 'Verrechnung' (a course cancelled or withdrawn in Mein Wuff, a card
 *   withdrawn, a donation cancelled): Erlöskonto an Debitor, an Erlösminderung. The other 'Verrechnung' entries move no
 *   money and no income (a Storno's and a Gutschrift's are booked by their documents; using a
 *   credit stays on the same Debitor).
 * Income carries its account, sphere (KOST1 under SKR 42) and tax key as app/lib/ledger.ts
 * resolves them; money bookings and Debitoren carry neither sphere nor tax.
 */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { inValues } from "~/db/columns";
import type { Db } from "~/db/client.server";
import { ABORT_UNLESS_CHANGED, render, runAtomically } from "~/db/client.server";
import { configuration, datevExports, ledgerAccounts, people } from "~/db/schema";
import type { Actor } from "./audit.server";
import type { DatevBooking, DatevDebtor } from "~/lib/datev";
import {
  CHART_ACCOUNT_LENGTH,
  CHART_PRESETS,
  debtorAccount,
  firstSet,
  purposeOfFeeKind,
  purposeOfMethod,
  PURPOSES,
  SPHERE_COST_CENTRE,
  taxKeyOf,
  type Chart,
  type Purpose,
  type Sphere,
} from "~/lib/ledger";
import type { ClubTaxStatus, TaxCase } from "~/lib/tax";
import { isAbortedAsUnchanged } from "./constraints.server";
import { defaultTaxCaseOfFee } from "./tax.server";

type LedgerAccount = { purpose: Purpose; number: string; name: string; sphere: Sphere | null };

export type BookkeepingSettings = {
  chart: Chart;
  advisorNumber: number | null;
  clientNumber: number | null;
  fiscalYearStartMonth: number;
  accountLength: number;
  taxStatus: ClubTaxStatus;
  accounts: LedgerAccount[];
  rowVersion: number;
};

export async function bookkeepingSettings(db: Db): Promise<BookkeepingSettings> {
  const [[config], accounts] = await Promise.all([
    db
      .select({
        chart: configuration.chartOfAccounts,
        advisorNumber: configuration.datevAdvisorNumber,
        clientNumber: configuration.datevClientNumber,
        fiscalYearStartMonth: configuration.fiscalYearStartMonth,
        accountLength: configuration.accountLength,
        taxStatus: configuration.taxStatus,
        rowVersion: configuration.rowVersion,
      })
      .from(configuration)
      .where(eq(configuration.id, 1)),
    db
      .select({ purpose: ledgerAccounts.purpose, number: ledgerAccounts.number, name: ledgerAccounts.name, sphere: ledgerAccounts.sphere })
      .from(ledgerAccounts)
      .orderBy(asc(ledgerAccounts.id)),
  ]);
  return {
    chart: config?.chart ?? "SKR42",
    advisorNumber: config?.advisorNumber ?? null,
    clientNumber: config?.clientNumber ?? null,
    fiscalYearStartMonth: config?.fiscalYearStartMonth ?? 1,
    accountLength: config?.accountLength ?? CHART_ACCOUNT_LENGTH.SKR42,
    taxStatus: config?.taxStatus ?? "SMALL_BUSINESS",
    rowVersion: config?.rowVersion ?? 1,
    // In the order of the purposes (a purpose added later, such as Spenden, stands where it belongs).
    accounts: accounts.sort((a, b) => PURPOSES.indexOf(a.purpose) - PURPOSES.indexOf(b.purpose)),
  };
}

export type BookkeepingInput = {
  chart: Chart;
  advisorNumber: number | null;
  clientNumber: number | null;
  fiscalYearStartMonth: number;
  accountLength: number;
  accounts: LedgerAccount[];
  rowVersion: number;
};

/**
 * Saves Buchhaltung's settings in one batch. Another chart than before replaces every account by
 * that chart's presets (and its Sachkontenlänge): numbers of one chart mean nothing in another.
 * Returns false when someone saved in between (the row version moved).
 */
export async function saveBookkeepingSettings(db: Db, input: BookkeepingInput, actor: Actor, now = new Date()): Promise<boolean> {
  const iso = now.toISOString();
  const current = await bookkeepingSettings(db);
  const chartChanged = current.chart !== input.chart;
  const accounts = chartChanged ? CHART_PRESETS[input.chart] : input.accounts;
  const accountLength = chartChanged ? CHART_ACCOUNT_LENGTH[input.chart] : input.accountLength;
  return runAtomically(db, [
    render(sql`UPDATE ${configuration} SET chart_of_accounts = ${input.chart}, datev_advisor_number = ${input.advisorNumber},
      datev_client_number = ${input.clientNumber}, fiscal_year_start_month = ${input.fiscalYearStartMonth}, account_length = ${accountLength},
      last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
      WHERE id = 1 AND row_version = ${input.rowVersion}`),
    ABORT_UNLESS_CHANGED,
    ...accounts.map((account) =>
      render(sql`UPDATE ${ledgerAccounts} SET number = ${account.number}, name = ${account.name}, sphere = ${account.sphere},
        last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
        WHERE purpose = ${account.purpose} AND (number IS NOT ${account.number} OR name IS NOT ${account.name} OR sphere IS NOT ${account.sphere})`),
    ),
  ]).then(
    () => true,
    (error: unknown) => {
      if (isAbortedAsUnchanged(error)) return false;
      throw error;
    },
  );
}

/** What a fee says about its account: its own override, its course type's, its card product's, and its kind. */
export type FeeAccounting = {
  feeKind: string | null;
  feeAccount: string | null;
  feeSphere: Sphere | null;
  courseAccount: string | null;
  courseSphere: Sphere | null;
  productAccount: string | null;
  productSphere: Sphere | null;
  isCard: number;
  /** The fee books a donation (issue 35 item 5): the account 'Spenden'. */
  isDonation: number;
};

/** The columns of FeeAccounting for the fee aliased `f` (LEFT JOINed: a row without a fee gives NULLs). */
export const FEE_ACCOUNTING_COLUMNS = sql.raw(`f.kind AS feeKind, f.account_number AS feeAccount, f.sphere AS feeSphere,
  cm.account_number AS courseAccount, cm.sphere AS courseSphere, cp.account_number AS productAccount, cp.sphere AS productSphere,
  (cp.id IS NOT NULL) AS isCard, EXISTS (SELECT 1 FROM donations d WHERE d.fee_id = f.id) AS isDonation`);

/** The course type (through the booking, or the attendance a single visit was charged for) and the card product of the fee `f`. */
export const FEE_ACCOUNTING_JOINS = sql.raw(`
  LEFT JOIN course_masters cm ON cm.id = coalesce(
    (SELECT c.course_master_id FROM course_memberships m JOIN courses c ON c.id = m.course_id WHERE m.id = f.course_membership_id),
    (SELECT c.course_master_id FROM attendance_settlements s JOIN attendances a ON a.id = s.attendance_id
      JOIN course_memberships m ON m.id = a.course_membership_id JOIN courses c ON c.id = m.course_id WHERE s.fee_id = f.id))
  LEFT JOIN card_products cp ON cp.id = (SELECT k.product_id FROM card_fees cf JOIN cards k ON k.id = cf.card_id WHERE cf.fee_id = f.id)`);

type Accounts = Map<Purpose, LedgerAccount>;

/** An income booking's account and sphere: override first, then course type or product, then the kind's account. */
export function incomeAccountOf(row: FeeAccounting & { rowAccount?: string | null; rowSphere?: Sphere | null }, accounts: Accounts) {
  const purpose: Purpose = row.isDonation ? "DONATION" : row.isCard ? "CARD" : purposeOfFeeKind(row.feeKind);
  const preset = accounts.get(purpose);
  return {
    account: firstSet(row.rowAccount, row.feeAccount, row.productAccount, row.courseAccount, preset?.number) ?? "",
    sphere: firstSet<Sphere>(row.rowSphere, row.feeSphere, row.productSphere, row.courseSphere, preset?.sphere),
  };
}

export type PeriodBookings = { bookings: (DatevBooking & { personId: number | null })[]; personIds: number[] };

/** The account on the other side of a Kasse entry without a person: what the cash went to or came from. */
function cashCounterAccount(kind: string, account: string | null, accounts: Accounts): string | null {
  switch (kind) {
    case "EXPENSE":
      return account ?? accounts.get("EXPENSE")?.number ?? null;
    case "BANK_DEPOSIT":
      return accounts.get("BANK")?.number ?? null;
    case "DEPOSIT":
    case "WITHDRAWAL":
      return accounts.get("TRANSIT")?.number ?? null;
    default:
      return null;
  }
}

/** Every booking of the period [from, to] in date order (a stable order: the same data give the same file). */
export async function bookingsOfPeriod(db: Db, from: string, to: string): Promise<PeriodBookings> {
  const settings = await bookkeepingSettings(db);
  const accounts: Accounts = new Map(settings.accounts.map((account) => [account.purpose, account]));
  const spheres = settings.chart === "SKR42";
  const debtor = (personId: number) => debtorAccount(personId, settings.accountLength);
  const costCentre = (sphere: Sphere | null) => (spheres && sphere ? SPHERE_COST_CENTRE[sphere] : null);

  const [rows, directFees, entries, waivers, cash] = await Promise.all([
    // Issued invoice rows; a Storno's row reads its account from the row it negates, a Gutschrift's
    // from the first credited row of its tax case (their own rows name no fee).
    db.all<
      FeeAccounting & {
        invoiceNumber: number;
        date: string;
        personId: number;
        amount: number;
        taxCase: TaxCase;
        status: ClubTaxStatus;
        text: string;
        serviceFrom: string | null;
        rowAccount: string | null;
        rowSphere: Sphere | null;
        lastName: string | null;
      }
    >(sql`SELECT h.invoice_number AS invoiceNumber, h.date, h.person_id AS personId, r.amount, r.tax_case AS taxCase,
        coalesce(h.issued_tax_status, 'SMALL_BUSINESS') AS status, r.text, r.service_from AS serviceFrom,
        coalesce(r.account_number, o.account_number) AS rowAccount, coalesce(r.sphere, o.sphere) AS rowSphere,
        h.issued_last_name AS lastName, ${FEE_ACCOUNTING_COLUMNS}
      FROM invoice_rows r JOIN invoice_headers h ON h.id = r.invoice_id
      LEFT JOIN invoice_rows o ON o.id = CASE h.kind
        WHEN 'STORNO' THEN (SELECT min(x.id) FROM invoice_rows x WHERE x.invoice_id = h.corrects_invoice_id AND x.line_number = r.line_number AND x.amount = -r.amount)
        WHEN 'CREDIT_NOTE' THEN (SELECT min(x.id) FROM invoice_rows x WHERE x.invoice_id = h.corrects_invoice_id AND x.tax_case = r.tax_case) END
      LEFT JOIN fees f ON f.id = coalesce(o.fee_id, r.fee_id)
      ${FEE_ACCOUNTING_JOINS}
      WHERE h.status = 'ISSUED' AND h.date BETWEEN ${from} AND ${to} AND r.amount <> 0
      ORDER BY h.date, h.invoice_number, r.line_number, r.id`),
    // Fees collected directly, not on an invoice: the fee is the document.
    db.all<FeeAccounting & { id: number; date: string; personId: number; amount: number; text: string; taxCase: TaxCase }>(sql`SELECT f.id, f.date,
        f.person_id AS personId, f.amount, f.text, ${defaultTaxCaseOfFee(sql`f`)} AS taxCase, ${FEE_ACCOUNTING_COLUMNS}
      FROM fees f ${FEE_ACCOUNTING_JOINS}
      WHERE f.send_invoice = 0 AND f.amount <> 0 AND f.date BETWEEN ${from} AND ${to}
        AND NOT EXISTS (SELECT 1 FROM invoice_rows r WHERE r.fee_id = f.id AND r.fee_released = 0)
      ORDER BY f.date, f.id`),
    // Journal entries that moved money; the item named when the entry paid exactly one as it was booked.
    db.all<{ id: number; date: string; personId: number; amount: number; method: string; text: string; document: string | null }>(sql`SELECT p.id, p.date,
        p.person_id AS personId, p.amount, p.method, p.text,
        (SELECT CASE WHEN count(*) = 1 THEN max(CASE WHEN a.invoice_id IS NOT NULL
            THEN (SELECT CAST(invoice_number AS TEXT) FROM invoice_headers WHERE id = a.invoice_id) ELSE 'P' || a.fee_id END) END
          FROM payment_allocations a WHERE a.payment_id = p.id AND a.created_on = p.created_on) AS document
      FROM payments p WHERE p.method <> 'OFFSET' AND p.date BETWEEN ${from} AND ${to}
      ORDER BY p.date, p.id`),
    // Waivers: what a cancellation or withdrawal in Mein Wuff took off a fee, and a cancelled donation's fee.
    db.all<FeeAccounting & { id: number; date: string; personId: number; amount: number; text: string; feeId: number; taxCase: TaxCase }>(sql`SELECT a.id,
        p.date, p.person_id AS personId, a.amount, p.text, f.id AS feeId, ${defaultTaxCaseOfFee(sql`f`)} AS taxCase, ${FEE_ACCOUNTING_COLUMNS}
      FROM payment_allocations a JOIN payments p ON p.id = a.payment_id JOIN fees f ON f.id = a.fee_id ${FEE_ACCOUNTING_JOINS}
      WHERE p.method = 'OFFSET' AND (p.entry_key LIKE 'portal-%' OR p.entry_key LIKE 'card-withdrawal:%' OR p.entry_key LIKE 'donation-cancel:%') AND p.date BETWEEN ${from} AND ${to}
      ORDER BY p.date, a.id`),
    // The Kasse's entries without a person (issue 35 item 2): expenses, bank deposits, Einlagen, Entnahmen.
    // (Its cash payments are the journal's; the Anfangsbestand is no booking.)
    db.all<{ date: string; kind: string; amount: number; text: string; account: string | null; sphere: Sphere | null; receipt: string }>(sql`SELECT e.date,
        e.kind, e.amount, e.text, e.account, e.sphere, e.receipt_number AS receipt
      FROM cash_entries e WHERE e.kind NOT IN ('PAYMENT', 'OPENING') AND e.date BETWEEN ${from} AND ${to}
      ORDER BY e.date, e.id`),
  ]);

  type Dated = DatevBooking & { personId: number | null; order: number };
  const bookings: Dated[] = [];
  for (const row of rows) {
    const income = incomeAccountOf(row, accounts);
    bookings.push({
      order: 0,
      personId: row.personId,
      amount: row.amount,
      account: debtor(row.personId),
      contraAccount: income.account,
      taxKey: taxKeyOf(row.status, row.taxCase),
      date: row.date,
      document: String(row.invoiceNumber),
      text: `Rechnung ${row.invoiceNumber} ${row.lastName ?? ""} ${row.text}`.replace(/\s+/g, " "),
      costCentre: costCentre(income.sphere),
      serviceDate: row.serviceFrom,
    });
  }
  for (const fee of directFees) {
    const income = incomeAccountOf(fee, accounts);
    bookings.push({
      order: 1,
      personId: fee.personId,
      amount: fee.amount,
      account: debtor(fee.personId),
      contraAccount: income.account,
      taxKey: taxKeyOf(settings.taxStatus, fee.taxCase),
      date: fee.date,
      document: `P${fee.id}`,
      text: fee.text,
      costCentre: costCentre(income.sphere),
      serviceDate: null,
    });
  }
  for (const entry of entries) {
    const purpose = purposeOfMethod(entry.method);
    const money = purpose ? accounts.get(purpose)?.number : undefined;
    if (!money) continue;
    bookings.push({
      order: 2,
      personId: entry.personId,
      amount: entry.amount,
      account: money,
      contraAccount: debtor(entry.personId),
      taxKey: "",
      date: entry.date,
      document: entry.document ?? `Z${entry.id}`,
      text: entry.text || "Zahlung",
      costCentre: null,
      serviceDate: null,
    });
  }
  for (const waiver of waivers) {
    const income = incomeAccountOf(waiver, accounts);
    bookings.push({
      order: 3,
      personId: waiver.personId,
      amount: -waiver.amount,
      account: debtor(waiver.personId),
      contraAccount: income.account,
      taxKey: taxKeyOf(settings.taxStatus, waiver.taxCase),
      date: waiver.date,
      document: `P${waiver.feeId}`,
      text: waiver.text,
      costCentre: costCentre(income.sphere),
      serviceDate: null,
    });
  }
  const cashAccount = accounts.get("CASH")?.number;
  for (const entry of cash) {
    const contra = cashCounterAccount(entry.kind, entry.account, accounts);
    if (!cashAccount || !contra) continue;
    bookings.push({
      order: 4,
      personId: null,
      amount: entry.amount,
      account: cashAccount,
      contraAccount: contra,
      taxKey: "",
      date: entry.date,
      document: entry.receipt,
      text: entry.text,
      costCentre: entry.kind === "EXPENSE" ? costCentre(entry.sphere ?? accounts.get("EXPENSE")?.sphere ?? null) : null,
      serviceDate: null,
    });
  }
  // Stable: by date, then by kind of document in the order above, then as each query ordered them.
  const sorted = bookings
    .map((booking, index) => ({ booking, index }))
    .sort((a, b) => a.booking.date.localeCompare(b.booking.date) || a.booking.order - b.booking.order || a.index - b.index);
  const result = sorted.map(({ booking: { order: _order, ...booking } }) => booking);
  const personIds = result.flatMap((booking) => (booking.personId === null ? [] : [booking.personId]));
  return { bookings: result, personIds: [...new Set(personIds)].sort((a, b) => a - b) };
}

/** The Debitoren of the given people: name and address only (Art. 5 Abs. 1 lit. c DSGVO: the adviser books, he needs no contact or bank data). */
export async function debtorsOf(db: Db, personIds: number[], accountLength: number): Promise<DatevDebtor[]> {
  if (personIds.length === 0) return [];
  const rows = await db
    .select({
      id: people.id,
      isBusiness: people.isBusiness,
      lastName: people.lastName,
      firstName: people.firstName,
      salutation: people.salutation,
      street: people.streetNumber,
      zip: people.zip,
      city: people.city,
    })
    .from(people)
    .where(inValues(people.id, personIds))
    .orderBy(asc(people.id));
  return rows.map((row) => ({
    account: debtorAccount(row.id, accountLength),
    isBusiness: row.isBusiness,
    lastName: row.lastName ?? "",
    firstName: row.firstName,
    salutation: row.salutation,
    street: row.street,
    zip: row.zip,
    city: row.city,
    customerNumber: String(row.id),
  }));
}

export type DatevExportRecord = {
  id: number;
  kind: "BOOKINGS" | "DEBTORS";
  dateFrom: string | null;
  dateTo: string | null;
  createdAt: string;
  records: number;
  createdBy: string;
  createdOn: string;
  changedSince: boolean;
};

/**
 * Records an export and returns its 'Erzeugt am'. The same records of the same period as the last
 * export of it give that export's time, so the file is the same byte for byte; otherwise a new
 * export is logged (the screen shows that the period changed after it was handed over).
 */
export async function recordDatevExport(
  db: Db,
  input: { kind: "BOOKINGS" | "DEBTORS"; from: string | null; to: string | null; recordsSha256: string; records: number },
  actor: Actor,
  now = new Date(),
): Promise<{ createdAt: string; repeated: boolean }> {
  const [last] = await db
    .select({ createdAt: datevExports.createdAt, recordsSha256: datevExports.recordsSha256 })
    .from(datevExports)
    .where(and(eq(datevExports.kind, input.kind), periodIs(input.from, input.to)))
    .orderBy(desc(datevExports.id))
    .limit(1);
  if (last && last.recordsSha256 === input.recordsSha256) return { createdAt: last.createdAt, repeated: true };
  const createdAt = datevTimestamp(now);
  await db.insert(datevExports).values({
    kind: input.kind,
    dateFrom: input.from,
    dateTo: input.to,
    createdAt,
    recordsSha256: input.recordsSha256,
    records: input.records,
    createdBy: actor.name,
    createdOn: now.toISOString(),
  });
  return { createdAt, repeated: false };
}

const periodIs = (from: string | null, to: string | null) =>
  and(
    from === null ? sql`${datevExports.dateFrom} IS NULL` : eq(datevExports.dateFrom, from),
    to === null ? sql`${datevExports.dateTo} IS NULL` : eq(datevExports.dateTo, to),
  );

/** The exports handed out, newest first; 'changedSince' when a later export of the same period had other records. */
export async function datevExportLog(db: Db, limit = 20): Promise<DatevExportRecord[]> {
  const rows = await db.all<Omit<DatevExportRecord, "changedSince"> & { changedSince: number }>(sql`SELECT e.id, e.kind, e.date_from AS dateFrom,
      e.date_to AS dateTo, e.created_at AS createdAt, e.records, e.created_by AS createdBy, e.created_on AS createdOn,
      EXISTS (SELECT 1 FROM datev_exports l WHERE l.kind = e.kind AND l.date_from IS e.date_from AND l.date_to IS e.date_to AND l.id < e.id) AS changedSince
    FROM datev_exports e ORDER BY e.id DESC LIMIT ${limit}`);
  return rows.map((row) => ({ ...row, changedSince: Boolean(row.changedSince) }));
}

/** DATEV's 'Erzeugt am': YYYYMMDDHHMMSSFFF in Berlin time. */
function datevTimestamp(now: Date): string {
  const parts = new Intl.DateTimeFormat("de-DE", {
    timeZone: "Europe/Berlin",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(now);
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? "00";
  return `${part("year")}${part("month")}${part("day")}${part("hour")}${part("minute")}${part("second")}${String(now.getMilliseconds()).padStart(3, "0")}`;
}
