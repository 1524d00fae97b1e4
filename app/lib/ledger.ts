/**
 * The books for the tax adviser (issue 35 item 1): the chart of accounts Wuff books to, a club's
 * four spheres, and how a fee, an invoice row or a journal entry finds its account, sphere and
 * DATEV tax key. Pure: the models read the data, this decides.
 *
 * - Charts (Kontenrahmen): DATEV's SKR 42 (Vereine, Stiftungen, gGmbH, § 4 Abs. 3 EStG; since
 *   2025, five-digit accounts) for clubs, SKR 03 and SKR 04 for businesses. Wuff presets only the
 *   accounts it books to (its "purposes"); every number and name stays editable, as the tax
 *   adviser's Kontenplan decides.
 * - Spheres (§§ 14, 64, 65 AO; a non-profit club separates its income and expenses into the
 *   ideeller Bereich, the Vermögensverwaltung, Zweckbetriebe and wirtschaftliche
 *   Geschäftsbetriebe): under SKR 42 they travel as the first cost centre (KOST1 1 to 4), so a
 *   Wuff booking carries its sphere as KOST1.
 * - Resolution: an override on the invoice row, then on the fee, then the course type or card
 *   product, then the account of the fee's kind; the sphere likewise, ending at the account's.
 */
import type { ClubTaxStatus, TaxCase } from "./tax";

export const CHARTS = ["SKR42", "SKR03", "SKR04"] as const;
export type Chart = (typeof CHARTS)[number];

export const CHART_LABELS: Record<Chart, string> = {
  SKR42: "SKR 42 (Vereine, Stiftungen, gGmbH)",
  SKR03: "SKR 03 (Unternehmen, Prozessgliederung)",
  SKR04: "SKR 04 (Unternehmen, Abschlussgliederung)",
};

/** Sachkontenlänge of each chart's presets: DATEV reads a person account one digit longer. */
export const CHART_ACCOUNT_LENGTH: Record<Chart, number> = { SKR42: 5, SKR03: 4, SKR04: 4 };

/** The four spheres and their SKR 42 cost centre (KOST1). */
export const SPHERES = ["IDEELL", "VERMOEGEN", "ZWECK", "WIRTSCHAFT"] as const;
export type Sphere = (typeof SPHERES)[number];

const SPHERE_LABELS: Record<Sphere, string> = {
  IDEELL: "Ideeller Bereich",
  VERMOEGEN: "Vermögensverwaltung",
  ZWECK: "Zweckbetrieb",
  WIRTSCHAFT: "Wirtschaftlicher Geschäftsbetrieb",
};

export const SPHERE_COST_CENTRE: Record<Sphere, string> = { IDEELL: "1", VERMOEGEN: "2", ZWECK: "3", WIRTSCHAFT: "4" };

export const SPHERE_OPTIONS = SPHERES.map((sphere) => ({ value: sphere, label: `${SPHERE_COST_CENTRE[sphere]} ${SPHERE_LABELS[sphere]}` }));

/** The account and sphere staff may set on a course type, card product, fee or invoice row; null: the default. */
export type BookingOverride = { accountNumber: string | null; sphere: Sphere | null };

/** What Wuff books to. Income by kind of fee, the money accounts by payment method, and what a
 *  payment or the cash book needs besides. */
export const PURPOSES = ["ANNUAL", "ENROLLMENT", "COURSE", "CARD", "OTHER", "REMINDER", "DONATION", "BANK", "CASH", "TRANSIT", "BANK_FEES", "EXPENSE"] as const;
export type Purpose = (typeof PURPOSES)[number];

export const PURPOSE_LABELS: Record<Purpose, string> = {
  ANNUAL: "Mitgliedsbeiträge (Jahresbeiträge)",
  ENROLLMENT: "Aufnahmegebühren",
  COURSE: "Kursgebühren",
  CARD: "10er-Karten und Abos",
  OTHER: "Sonstige Posten",
  REMINDER: "Mahngebühren und Verzugszinsen",
  DONATION: "Spenden (Geldzuwendungen)",
  BANK: "Bank (Überweisungen, Lastschriften)",
  CASH: "Kasse (Barzahlungen)",
  TRANSIT: "Geldtransit (Mollie)",
  BANK_FEES: "Nebenkosten des Geldverkehrs",
  EXPENSE: "Ausgaben aus der Kasse (ohne eigenes Konto)",
};

/** Income accounts carry a sphere; money and expense accounts too where they are results. */
export const INCOME_PURPOSES: readonly Purpose[] = ["ANNUAL", "ENROLLMENT", "COURSE", "CARD", "OTHER", "REMINDER", "DONATION"];

export type PresetAccount = { purpose: Purpose; number: string; name: string; sphere: Sphere | null };

/**
 * The presets. SKR 03 and SKR 04 are DATEV's standard accounts without an automatic tax function
 * (Erlöse 8200 / 4200 take the tax key of each booking, so one account carries 19 %, 7 % and
 * exempt rows). SKR 42: Wuff's proposal inside the chart's classes (1 Umlaufvermögen, 4
 * Einnahmen, 6 Ausgaben); the screen asks to compare them with the tax adviser's Kontenplan before
 * the first export.
 */
export const CHART_PRESETS: Record<Chart, readonly PresetAccount[]> = {
  SKR42: [
    { purpose: "ANNUAL", number: "40000", name: "Mitgliedsbeiträge", sphere: "IDEELL" },
    { purpose: "ENROLLMENT", number: "40100", name: "Aufnahmegebühren", sphere: "IDEELL" },
    { purpose: "COURSE", number: "42000", name: "Kursgebühren", sphere: "ZWECK" },
    { purpose: "CARD", number: "42100", name: "Erlöse 10er-Karten und Abos", sphere: "ZWECK" },
    { purpose: "OTHER", number: "44000", name: "Sonstige Erlöse", sphere: "WIRTSCHAFT" },
    { purpose: "REMINDER", number: "48300", name: "Mahngebühren und Verzugszinsen", sphere: "IDEELL" },
    { purpose: "DONATION", number: "41000", name: "Spenden", sphere: "IDEELL" },
    { purpose: "BANK", number: "18000", name: "Bank", sphere: null },
    { purpose: "CASH", number: "16000", name: "Kasse", sphere: null },
    { purpose: "TRANSIT", number: "14600", name: "Geldtransit", sphere: null },
    { purpose: "BANK_FEES", number: "68550", name: "Nebenkosten des Geldverkehrs", sphere: "IDEELL" },
    { purpose: "EXPENSE", number: "69000", name: "Sonstige Ausgaben", sphere: "IDEELL" },
  ],
  SKR03: [
    { purpose: "ANNUAL", number: "8200", name: "Erlöse (Mitgliedsbeiträge)", sphere: null },
    { purpose: "ENROLLMENT", number: "8200", name: "Erlöse (Aufnahmegebühren)", sphere: null },
    { purpose: "COURSE", number: "8200", name: "Erlöse", sphere: null },
    { purpose: "CARD", number: "8200", name: "Erlöse", sphere: null },
    { purpose: "OTHER", number: "8200", name: "Erlöse", sphere: null },
    { purpose: "REMINDER", number: "2700", name: "Sonstige Erträge", sphere: null },
    { purpose: "DONATION", number: "2700", name: "Sonstige Erträge (Spenden)", sphere: null },
    { purpose: "BANK", number: "1200", name: "Bank", sphere: null },
    { purpose: "CASH", number: "1000", name: "Kasse", sphere: null },
    { purpose: "TRANSIT", number: "1360", name: "Geldtransit", sphere: null },
    { purpose: "BANK_FEES", number: "4970", name: "Nebenkosten des Geldverkehrs", sphere: null },
    { purpose: "EXPENSE", number: "4900", name: "Sonstige betriebliche Aufwendungen", sphere: null },
  ],
  SKR04: [
    { purpose: "ANNUAL", number: "4200", name: "Erlöse (Mitgliedsbeiträge)", sphere: null },
    { purpose: "ENROLLMENT", number: "4200", name: "Erlöse (Aufnahmegebühren)", sphere: null },
    { purpose: "COURSE", number: "4200", name: "Erlöse", sphere: null },
    { purpose: "CARD", number: "4200", name: "Erlöse", sphere: null },
    { purpose: "OTHER", number: "4200", name: "Erlöse", sphere: null },
    { purpose: "REMINDER", number: "4830", name: "Sonstige betriebliche Erträge", sphere: null },
    { purpose: "DONATION", number: "4830", name: "Sonstige betriebliche Erträge (Spenden)", sphere: null },
    { purpose: "BANK", number: "1800", name: "Bank", sphere: null },
    { purpose: "CASH", number: "1600", name: "Kasse", sphere: null },
    { purpose: "TRANSIT", number: "1460", name: "Geldtransit", sphere: null },
    { purpose: "BANK_FEES", number: "6855", name: "Nebenkosten des Geldverkehrs", sphere: null },
    { purpose: "EXPENSE", number: "6300", name: "Sonstige betriebliche Aufwendungen", sphere: null },
  ],
};

/** The income purpose of a fee's kind (a row without a fee: sonstige Posten). */
export function purposeOfFeeKind(kind: string | null): Purpose {
  switch (kind) {
    case "ANNUAL":
    case "ENROLLMENT":
    case "COURSE":
    case "REMINDER":
      return kind;
    default:
      return "OTHER";
  }
}

/** The money account of a journal entry's method (a Verrechnung moves no money). */
export function purposeOfMethod(method: string): Purpose | null {
  switch (method) {
    case "TRANSFER":
    case "DIRECT_DEBIT":
      return "BANK";
    case "CASH":
      return "CASH";
    case "MOLLIE":
      return "TRANSIT";
    default:
      return null;
  }
}

/** An account number as DATEV takes it: digits only, as long as the Sachkontenlänge allows. */
export function isAccountNumber(value: string, accountLength: number): boolean {
  return new RegExp(`^[1-9][0-9]{0,${accountLength - 1}}$`).test(value);
}

/**
 * A person's debtor account (Debitor): DATEV's person accounts are one digit longer than the
 * Sachkonten and debtors run from 1 followed by zeros (10000 with four-digit accounts) to 69999…;
 * Wuff numbers them from the person's id, so the number never changes and never repeats.
 */
export function debtorAccount(personId: number, accountLength: number): string {
  const base = 10 ** accountLength;
  const number = base + personId;
  if (number >= 7 * base) throw new Error(`Person ${personId} hat keine Debitorennummer unter ${7 * base}.`);
  return String(number);
}

/**
 * The DATEV tax key (BU-Schlüssel) of an income booking: 3 for 19 % and 2 for 7 % Umsatzsteuer
 * on an account without automatic tax (DATEV's standard keys in SKR 03, 04 and 42). Exempt and
 * not taxable income carries no key: the account decides; a small business (§ 19 UStG) and an
 * exempt club charge no tax at all.
 */
export function taxKeyOf(status: ClubTaxStatus, taxCase: TaxCase): string {
  if (status !== "REGULAR") return "";
  if (taxCase === "STANDARD") return "3";
  if (taxCase === "REDUCED") return "2";
  return "";
}

/** The first of the given values that is set: how an override beats a default. */
export const firstSet = <T>(...values: (T | null | undefined)[]): T | null =>
  values.find((value) => value !== null && value !== undefined && value !== "") ?? null;
