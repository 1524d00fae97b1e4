/**
 * Buchhaltung and the DATEV export (issue 35 items 1 and 3), through the screen's route as the
 * treasurer uses it: the demo year's Buchungsstapel and Debitoren are checked field by field
 * against DATEV's published format description (tests/support/datev-format.ts, written apart from
 * Wuff's writer), the bookings add up per account to what the journal, the invoices and the fees
 * hold, a second export of the same period is the same file, and the settings are the ADMIN's.
 */
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { CHART_PRESETS, debtorAccount, INCOME_PURPOSES, PURPOSES } from "~/lib/ledger";
import { incomeAccountOf } from "~/models/bookkeeping.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { balancesOf, BOOKING_FORMAT, checkDatevFile, DEBTOR_FORMAT, splitFields } from "../support/datev-format";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const YEAR_FROM = "2026-01-01";
const YEAR_TO = "2026-12-31";

/** The settings form as the screen sends it, with the accounts as they are. */
async function settingsForm(overrides: Record<string, string> = {}) {
  const accounts = await db.select().from(schema.ledgerAccounts);
  const [config] = await db.select().from(schema.configuration).where(eq(schema.configuration.id, 1));
  const fields: Record<string, string> = {
    intent: "settings",
    chart: config.chartOfAccounts,
    advisorNumber: "29098",
    clientNumber: "55003",
    fiscalYearStartMonth: "1",
    accountLength: String(config.accountLength),
    rowVersion: String(config.rowVersion),
  };
  for (const account of accounts) {
    fields[`${account.purpose}.number`] = account.number;
    fields[`${account.purpose}.name`] = account.name;
    fields[`${account.purpose}.sphere`] = account.sphere ?? "";
  }
  return { ...fields, ...overrides };
}

const exportFile = async (intent: "bookings" | "debtors", from = "01.01.2026", to = "31.12.2026", who: "finance" | "admin" = "finance") =>
  postForm("/bookkeeping/datev", await loginCookie(who), { intent, from, to });

const decode = async (response: Response) => new TextDecoder("windows-1252").decode(await response.arrayBuffer());

beforeAll(async () => {
  await loadDemoData();
  await db.update(schema.configuration).set({ taxStatus: "REGULAR", taxNumber: "21/815/08150" }).where(eq(schema.configuration.id, 1));
  const saved = await postForm("/bookkeeping", await loginCookie("admin"), await settingsForm());
  expect(toastOf(saved)?.message).toBe("Kontenrahmen und DATEV-Daten gespeichert.");
});

describe("the Buchungsstapel of the demo year", () => {
  let text: string;
  beforeAll(async () => {
    const response = await exportFile("bookings");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="EXTF_Buchungsstapel_20260101_20261231.csv"');
    text = await decode(response);
  });

  it("keeps DATEV's format description in every field of every line", () => {
    expect(checkDatevFile(text, BOOKING_FORMAT)).toEqual([]);
    const header = splitFields(text.split("\r\n")[0]);
    expect(header.slice(10, 16)).toEqual(["29098", "55003", "20260101", "5", "20260101", "20261231"]);
    expect(header[26]).toBe('"42"');
    expect(text.split("\r\n").length - 3).toBeGreaterThan(100);
  });

  it("adds up per account to the journal's, the invoices' and the fees' totals", async () => {
    const balances = balancesOf(text);
    const accounts = new Map((await db.select().from(schema.ledgerAccounts)).map((account) => [account.purpose, account.number]));
    // Money accounts: the journal's entries that moved money, by method.
    const [money] = await db.all<{ bank: number; cash: number; transit: number }>(sql`SELECT
        coalesce(sum(CASE WHEN method IN ('TRANSFER', 'DIRECT_DEBIT') THEN amount END), 0) AS bank,
        coalesce(sum(CASE WHEN method = 'CASH' THEN amount END), 0) AS cash,
        coalesce(sum(CASE WHEN method = 'MOLLIE' THEN amount END), 0) AS transit
      FROM payments WHERE date BETWEEN ${YEAR_FROM} AND ${YEAR_TO}`);
    const [deposits] = await db.all<{ total: number }>(sql`SELECT coalesce(-sum(amount), 0) AS total FROM cash_entries
      WHERE kind = 'BANK_DEPOSIT' AND date BETWEEN ${YEAR_FROM} AND ${YEAR_TO}`);
    expect(balances.get(accounts.get("BANK")!) ?? 0).toBe(money.bank + deposits.total);
    // The Kasse: its cash payments are the journal's; its entries without a person (expenses, bank
    // deposits) are booked against their own accounts.
    const [cashBook] = await db.all<{ manual: number }>(sql`SELECT coalesce(sum(amount), 0) AS manual FROM cash_entries
      WHERE kind NOT IN ('PAYMENT', 'OPENING') AND date BETWEEN ${YEAR_FROM} AND ${YEAR_TO}`);
    expect(balances.get(accounts.get("CASH")!) ?? 0).toBe(money.cash + cashBook.manual);
    const [moved] = await db.all<{ total: number }>(sql`SELECT coalesce(sum(amount), 0) AS total FROM cash_entries
      WHERE kind IN ('DEPOSIT', 'WITHDRAWAL') AND date BETWEEN ${YEAR_FROM} AND ${YEAR_TO}`);
    expect(balances.get(accounts.get("TRANSIT")!) ?? 0).toBe(money.transit - moved.total);
    // Income: issued invoice rows, fees collected directly, less the waivers, all in Haben.
    const [income] = await db.all<{ rows: number; fees: number; waivers: number }>(sql`SELECT
        (SELECT coalesce(sum(r.amount), 0) FROM invoice_rows r JOIN invoice_headers h ON h.id = r.invoice_id
          WHERE h.status = 'ISSUED' AND h.date BETWEEN ${YEAR_FROM} AND ${YEAR_TO}) AS rows,
        (SELECT coalesce(sum(f.amount), 0) FROM fees f WHERE f.send_invoice = 0 AND f.date BETWEEN ${YEAR_FROM} AND ${YEAR_TO}
          AND NOT EXISTS (SELECT 1 FROM invoice_rows r WHERE r.fee_id = f.id AND r.fee_released = 0)) AS fees,
        (SELECT coalesce(sum(a.amount), 0) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id
          WHERE p.method = 'OFFSET' AND (p.entry_key LIKE 'portal-%' OR p.entry_key LIKE 'card-withdrawal:%') AND p.date BETWEEN ${YEAR_FROM} AND ${YEAR_TO}) AS waivers`);
    const incomeNumbers = new Set(INCOME_PURPOSES.map((purpose) => accounts.get(purpose)!));
    const incomeTotal = [...balances].filter(([account]) => incomeNumbers.has(account)).reduce((sum, [, cents]) => sum + cents, 0);
    expect(incomeTotal).toBe(-(income.rows + income.fees - income.waivers));
    expect(income.rows).toBeGreaterThan(0);
    // Debtors: what each person owes from the year's documents less what they paid.
    const debtorTotal = [...balances].filter(([account]) => account.length === 6).reduce((sum, [, cents]) => sum + cents, 0);
    expect(debtorTotal).toBe(income.rows + income.fees - income.waivers - money.bank - money.cash - money.transit);
    // The whole file balances: every booking is Soll on one account and Haben on the other.
    expect([...balances.values()].reduce((sum, cents) => sum + cents, 0)).toBe(0);
  });

  it("books a Storno's rows on the accounts of the rows it negates, with the tax keys of their cases", () => {
    const lines = text.split("\r\n").slice(2, -1).map(splitFields);
    const taxKeys = new Set(lines.map((fields) => fields[8]));
    expect(taxKeys.has('"3"')).toBe(true);
    for (const fields of lines.filter((line) => line[13].startsWith('"Rechnung'))) {
      expect(fields[36], fields.join(";")).toMatch(/^"[1-4]"$/);
    }
  });

  it("is the same file when the same period is exported again, and a changed period is a new export", async () => {
    const again = await decode(await exportFile("bookings"));
    expect(again).toBe(text);
    const logged = await db.select().from(schema.datevExports).where(eq(schema.datevExports.kind, "BOOKINGS"));
    expect(logged).toHaveLength(1);
    // A new cash payment in the period: another file, logged as a second export of the period.
    const [person] = await db.select({ id: schema.people.id }).from(schema.people).limit(1);
    await db.insert(schema.payments).values({
      entryKey: "test:datev",
      personId: person.id,
      date: "2026-11-25",
      amount: 1_234,
      method: "CASH",
      source: "CASH_RECEIPT",
      text: "Barzahlung",
      createdBy: "Test",
      createdOn: new Date().toISOString(),
    });
    const changed = await decode(await exportFile("bookings"));
    expect(changed).not.toBe(text);
    expect(changed).toContain('12,34;"S";"EUR";;;;16000;' + debtorAccount(person.id, 5));
    const page = await (await fetchApp("/bookkeeping", { cookie: await loginCookie("finance") })).text();
    expect(page).toContain("Zeitraum wurde nach einem früheren Export geändert");
  });
});

describe("the Debitoren", () => {
  it("lists the year's people with their account numbers in DATEV's format", async () => {
    const response = await exportFile("debtors");
    expect(response.status).toBe(200);
    const text = await decode(response);
    expect(checkDatevFile(text, DEBTOR_FORMAT)).toEqual([]);
    const bookings = await decode(await exportFile("bookings"));
    const debtorAccounts = new Set(
      bookings
        .split("\r\n")
        .slice(2, -1)
        .flatMap((line) => splitFields(line).slice(6, 8))
        .filter((account) => account.length === 6),
    );
    const listed = new Set(
      text
        .split("\r\n")
        .slice(2, -1)
        .map((line) => splitFields(line)[0]),
    );
    expect(listed).toEqual(debtorAccounts);
    // Names and addresses only (data minimisation): no e-mail address, no IBAN.
    expect(text).not.toMatch(/@|DE\d{20}/);
  });
});

describe("accounts and spheres", () => {
  it("takes the row's, the fee's, the product's, the course type's account before the kind's", () => {
    const accounts = new Map(CHART_PRESETS.SKR42.map((account) => [account.purpose, account]));
    const none = {
      feeKind: "COURSE",
      feeAccount: null,
      feeSphere: null,
      courseAccount: null,
      courseSphere: null,
      productAccount: null,
      productSphere: null,
      isCard: 0,
      isDonation: 0,
    };
    expect(incomeAccountOf(none, accounts)).toEqual({ account: "42000", sphere: "ZWECK" });
    expect(incomeAccountOf({ ...none, courseAccount: "42500", courseSphere: "WIRTSCHAFT" }, accounts)).toEqual({ account: "42500", sphere: "WIRTSCHAFT" });
    expect(incomeAccountOf({ ...none, courseAccount: "42500", feeAccount: "42600" }, accounts)).toEqual({ account: "42600", sphere: "ZWECK" });
    expect(incomeAccountOf({ ...none, courseAccount: "42500", rowAccount: "42700", rowSphere: "IDEELL" }, accounts)).toEqual({
      account: "42700",
      sphere: "IDEELL",
    });
    expect(incomeAccountOf({ ...none, feeKind: "OTHER", isCard: 1 }, accounts)).toEqual({ account: "42100", sphere: "ZWECK" });
    expect(incomeAccountOf({ ...none, feeKind: null }, accounts)).toEqual({ account: "44000", sphere: "WIRTSCHAFT" });
    expect(incomeAccountOf({ ...none, feeKind: "OTHER", isDonation: 1 }, accounts)).toEqual({ account: "41000", sphere: "IDEELL" });
  });

  it("ships the migration's accounts as the SKR 42 presets", async () => {
    // In the purposes' order (Spenden came with migration 0068, after the others).
    const stored = (await db.select().from(schema.ledgerAccounts)).sort((a, b) => PURPOSES.indexOf(a.purpose) - PURPOSES.indexOf(b.purpose));
    expect(stored.map(({ purpose, number, name, sphere }) => ({ purpose, number, name, sphere }))).toEqual(CHART_PRESETS.SKR42);
  });

  it("lets only an ADMIN change them, refuses a bad number in German, and resets them to another chart's presets", async () => {
    const refused = await postForm("/bookkeeping", await loginCookie("finance"), await settingsForm());
    expect(refused.status).toBe(403);
    const bad = await postForm("/bookkeeping", await loginCookie("admin"), await settingsForm({ "COURSE.number": "0420" }));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Kursgebühren: Die Kontonummer hat höchstens 5 Ziffern und beginnt nicht mit 0.");
    const stale = await postForm("/bookkeeping", await loginCookie("admin"), await settingsForm({ rowVersion: "1" }));
    expect(stale.status).toBe(409);
    const skr04 = await postForm("/bookkeeping", await loginCookie("admin"), await settingsForm({ chart: "SKR04" }));
    expect(toastOf(skr04)?.message).toBe("Kontenrahmen und DATEV-Daten gespeichert.");
    const stored = await db.select().from(schema.ledgerAccounts).orderBy(schema.ledgerAccounts.purpose);
    const byPurpose = (a: { purpose: string }, b: { purpose: string }) => a.purpose.localeCompare(b.purpose);
    expect(stored.map(({ purpose, number }) => ({ purpose, number })).sort(byPurpose)).toEqual(
      CHART_PRESETS.SKR04.map(({ purpose, number }) => ({ purpose, number })).sort(byPurpose),
    );
    const [config] = await db.select().from(schema.configuration).where(eq(schema.configuration.id, 1));
    expect(config.accountLength).toBe(4);
    // Under SKR 04 no sphere travels as KOST1, and debtors are five digits long.
    const text = await decode(await exportFile("bookings"));
    expect(checkDatevFile(text, BOOKING_FORMAT)).toEqual([]);
    expect(
      text
        .split("\r\n")
        .slice(2, -1)
        .every((line) => splitFields(line)[36] === ""),
    ).toBe(true);
    const back = await postForm("/bookkeeping", await loginCookie("admin"), await settingsForm({ chart: "SKR42" }));
    expect(toastOf(back)?.message).toBe("Kontenrahmen und DATEV-Daten gespeichert.");
  });

  it("refuses staff, a period across two fiscal years and dates that are none, in German", async () => {
    const staff = await postForm("/bookkeeping/datev", await loginCookie("staff"), { intent: "bookings", from: "01.01.2026", to: "31.12.2026" });
    expect(staff.status).toBe(302);
    expect(staff.headers.get("Content-Disposition")).toBeNull();
    const refusal = async (response: Response) => {
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/bookkeeping");
      return toastOf(response)?.message;
    };
    expect(await refusal(await exportFile("bookings", "01.12.2025", "31.01.2026"))).toBe(
      "Ein Buchungsstapel umfasst höchstens ein Wirtschaftsjahr: bitte den Zeitraum teilen.",
    );
    expect(await refusal(await exportFile("bookings", "31.02.2026", "31.12.2026"))).toBe("Bitte den Beginn des Zeitraums als Datum angeben (TT.MM.JJJJ).");
    expect(await refusal(await exportFile("debtors", "01.06.2026", "01.05.2026"))).toBe("Der Zeitraum endet vor seinem Beginn.");
    expect(await refusal(await postForm("/bookkeeping/datev", await loginCookie("finance"), { intent: "other" }))).toBe("Unbekannte Aktion.");
  });
});
