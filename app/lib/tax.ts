/**
 * Value added tax (Umsatzsteuer) as a dog club or dog school charges it (issue 30): the club's tax
 * status, the tax case of an invoice row, and an invoice's sums per rate, exact to the cent.
 *
 * - Rates: 19 % (§ 12 Abs. 1 UStG), 7 % (§ 12 Abs. 2 UStG, e.g. a non-profit club's Zweckbetrieb,
 *   § 12 Abs. 2 Nr. 8a). A true membership fee is not taxable at all (echter Mitgliedsbeitrag: no
 *   supply for a consideration); a course may be exempt (e.g. § 4 Nr. 22 Buchst. a UStG), with
 *   the legal reason printed on the invoice (§ 14 Abs. 4 Satz 1 Nr. 8 UStG).
 * - A small business under § 19 UStG (since 2025: at most 25,000 EUR turnover in the previous
 *   year and 100,000 EUR in the current one, net) charges no tax on any row and prints the note
 *   instead; so does a club whose supplies are all exempt.
 * - Prices are entered gross, as Wuff has always kept them. The tax is worked out per rate on the
 *   invoice's total of that rate, not per row, so rounding happens once per rate: tax =
 *   gross × rate / (100 + rate), rounded half away from zero to the cent; net = gross − tax.
 *   A Storno negates every row, and its tax is exactly the negated tax.
 */

export const TAX_CASES = ["NOT_TAXABLE", "EXEMPT", "REDUCED", "STANDARD"] as const;
export type TaxCase = (typeof TAX_CASES)[number];

/** The rate in percent of each case (0 where no tax is charged). */
export const TAX_RATE_PERCENT: Record<TaxCase, number> = { NOT_TAXABLE: 0, EXEMPT: 0, REDUCED: 7, STANDARD: 19 };

export const CLUB_TAX_STATUSES = ["REGULAR", "SMALL_BUSINESS", "EXEMPT"] as const;
export type ClubTaxStatus = (typeof CLUB_TAX_STATUSES)[number];

export const CLUB_TAX_STATUS_LABELS: Record<ClubTaxStatus, string> = {
  REGULAR: "Regelbesteuerung",
  SMALL_BUSINESS: "Kleinunternehmer nach § 19 UStG",
  EXEMPT: "steuerbefreit",
};

/** The defaults of Einstellungen per kind of fee (configuration.tax_case_*): membership fees are not
 *  taxable (echter Mitgliedsbeitrag), everything else 19 % until the club says otherwise. */
export const DEFAULT_TAX_CASES = { annual: "NOT_TAXABLE", enrollment: "NOT_TAXABLE", course: "STANDARD", other: "STANDARD" } as const satisfies Record<
  string,
  TaxCase
>;
export type TaxDefault = keyof typeof DEFAULT_TAX_CASES;

/** Which of those defaults a fee's kind takes; any other kind (and a row without a fee): 'other'. */
export const TAX_DEFAULT_OF_KIND = { ANNUAL: "annual", ENROLLMENT: "enrollment", COURSE: "course" } as const satisfies Record<string, TaxDefault>;
export const taxDefaultOfKind = (kind: string): TaxDefault => TAX_DEFAULT_OF_KIND[kind as keyof typeof TAX_DEFAULT_OF_KIND] ?? "other";

/** What Einstellungen, the course types and the invoice rows offer. */
const TAX_CASE_LABELS: Record<TaxCase, string> = {
  NOT_TAXABLE: "nicht steuerbar (z. B. echter Mitgliedsbeitrag)",
  EXEMPT: "steuerfrei (Grund im Hinweis zur Umsatzsteuer)",
  REDUCED: "7 % Umsatzsteuer",
  STANDARD: "19 % Umsatzsteuer",
};
export const TAX_CASE_OPTIONS = TAX_CASES.map((taxCase) => ({ value: taxCase, label: TAX_CASE_LABELS[taxCase] }));

/** The case as the invoice prints it beside a row and in its sums ('19 %', 'steuerfrei'). */
export const TAX_CASE_SHORT: Record<TaxCase, string> = { NOT_TAXABLE: "nicht steuerbar", EXEMPT: "steuerfrei", REDUCED: "7 %", STANDARD: "19 %" };

/** The note a § 19 small business prints instead of tax (§ 34a UStDV asks for a reference to the exemption). */
export const SMALL_BUSINESS_NOTE = "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.";

/** § 19 Abs. 1 UStG since 1 January 2025, net turnover in cents. */
const SMALL_BUSINESS_PREVIOUS_YEAR_LIMIT = 2_500_000;
const SMALL_BUSINESS_CURRENT_YEAR_LIMIT = 10_000_000;

/** Whether the small-business rule may apply: previous year ≤ 25,000 EUR and this year so far ≤ 100,000 EUR (net cents). */
export function smallBusinessAllowed(previousYearNet: number, currentYearNet: number): boolean {
  return previousYearNet <= SMALL_BUSINESS_PREVIOUS_YEAR_LIMIT && currentYearNet <= SMALL_BUSINESS_CURRENT_YEAR_LIMIT;
}

/** The case a row is invoiced with: a small business or an exempt club charges tax on none. */
export function effectiveTaxCase(status: ClubTaxStatus, rowCase: TaxCase): TaxCase {
  if (status === "REGULAR" || rowCase === "NOT_TAXABLE") return rowCase;
  return "EXEMPT";
}

/** Integer division of a by b (b > 0) rounded half away from zero: the commercial rounding of cents. */
function divideRounded(a: number, b: number): number {
  const quotient = Math.floor(Math.abs(a) / b);
  const remainder = Math.abs(a) - quotient * b;
  const rounded = 2 * remainder >= b ? quotient + 1 : quotient;
  return a < 0 ? 0 - rounded : rounded; // never -0
}

/** The tax contained in a gross amount at a rate (whole percent), in cents. */
export function taxOfGross(grossCents: number, ratePercent: number): number {
  if (!Number.isSafeInteger(grossCents)) throw new RangeError("Betrag in Cent erwartet");
  return ratePercent === 0 ? 0 : divideRounded(grossCents * ratePercent, 100 + ratePercent);
}

/** One line of an invoice's tax summary: a case, the gross of its rows, and net and tax worked out from it. */
export type TaxLine = { taxCase: TaxCase; ratePercent: number; gross: number; net: number; tax: number };

/**
 * The invoice's sums per tax case, in the order of TAX_CASES (cases without rows left out): the
 * gross of a case's rows, its tax worked out once on that total, and the net. The lines add up to
 * the invoice: Σ gross = Σ row amounts, and net + tax = gross on every line.
 */
export function taxSummary(rows: readonly { amount: number; taxCase: TaxCase }[], status: ClubTaxStatus): TaxLine[] {
  const gross = new Map<TaxCase, number>();
  for (const row of rows) {
    const taxCase = effectiveTaxCase(status, row.taxCase);
    gross.set(taxCase, (gross.get(taxCase) ?? 0) + row.amount);
  }
  return TAX_CASES.filter((taxCase) => gross.has(taxCase)).map((taxCase) => {
    const total = gross.get(taxCase)!;
    const ratePercent = TAX_RATE_PERCENT[taxCase];
    const tax = taxOfGross(total, ratePercent);
    return { taxCase, ratePercent, gross: total, net: total - tax, tax };
  });
}

/** A USt-IdNr as it is stored and printed: without spaces, upper case ('DE123456788'). */
export const compactVatId = (value: string) => value.replace(/\s+/g, "").toUpperCase();

/**
 * A German USt-IdNr: 'DE' and nine digits, the last a check digit by ISO 7064 MOD 11,10 (the
 * method the Bundeszentralamt für Steuern uses). Spaces are ignored.
 */
export function isValidVatId(value: string): boolean {
  const match = /^DE(\d{9})$/.exec(compactVatId(value));
  if (!match) return false;
  const digits = match[1];
  let product = 10;
  for (const digit of digits.slice(0, 8)) {
    let sum = (Number(digit) + product) % 10;
    if (sum === 0) sum = 10;
    product = (2 * sum) % 11;
  }
  const check = (11 - product) % 10;
  return check === Number(digits[8]);
}

/**
 * A Steuernummer as the Finanzamt writes it (e.g. '21/815/08150', '181/815/08155') or in the
 * 13-digit federal form: 10 to 13 digits, with '/' or spaces between groups. The format differs
 * by federal state, so only its shape is checked.
 */
export function isValidTaxNumber(value: string): boolean {
  const trimmed = value.trim();
  if (!/^\d[\d/ ]*\d$/.test(trimmed)) return false;
  const digits = trimmed.replace(/[/ ]/g, "");
  return digits.length >= 10 && digits.length <= 13;
}
