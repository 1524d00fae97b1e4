/**
 * Default interest (Verzugszinsen, issue 31 item 5), pure.
 *
 * The law it follows:
 * - § 288 Abs. 1 BGB: a debt of money bears interest during default at 5 percentage points above
 *   the base rate; § 288 Abs. 2 BGB: 9 points where no consumer is party (an Unternehmer, § 14 BGB).
 * - § 247 BGB: the base rate changes on 1 January and 1 July; each day bears the rate of its
 *   half-year, so a stretch across a change is split there.
 * - § 286 Abs. 1 BGB: default begins with a reminder after the due date; a reminder that sets a
 *   deadline puts the debtor in default only when the deadline has passed, so interest runs from
 *   the day after the first reminder's new due date (§ 187 Abs. 1 BGB: that day does not count).
 * - § 289 Satz 1 BGB: no interest on interest; interest is charged on the open amount of the item
 *   only, never on reminder fees or earlier interest.
 *
 * Computed to the cent: every day's share is kept exact (principal in cents x rate in hundredths of a
 * percent, per day of a 365-day year, the usual count of German courts and the Bundesbank's
 * calculator), summed as integers, and rounded once, half up.
 */
import { addDaysToDate, daysBetween, formatDate } from "./format";

/** A half-year's base rate: valid from 1 January or 1 July, in hundredths of a percent (1,27 % = 127). */
export type BaseRate = { validFrom: string; rate: number };

/** Percentage points above the base rate, in hundredths (§ 288 Abs. 1 and 2 BGB). */
export const CONSUMER_SURCHARGE = 500;
export const BUSINESS_SURCHARGE = 900;

/** A payment (or its counter-entry) on the item: it lowers what bears interest from the day after its date. */
export type DatedPayment = { date: string; amount: number };

/** A stretch of days with one principal and one rate: how the interest was computed. */
export type InterestStretch = { from: string; to: string; days: number; principal: number; rate: number };

export type InterestOutcome =
  | { status: "computed"; amount: number; from: string; to: string; surcharge: number; stretches: InterestStretch[] }
  | { status: "none" }
  /** The base rate of the half-year starting `halfYear` is not known (Einstellungen). */
  | { status: "missingRate"; halfYear: string };

const YEAR_DAYS = 365;

/** Days from `from` to `to`, both counted. */
export const daysCounted = (from: string, to: string) => daysBetween(from, to) + 1;

/** The first day of the half-year of `date` ('2026-03-14' → '2026-01-01'). */
export const halfYearOf = (date: string) => `${date.slice(0, 4)}-${Number(date.slice(5, 7)) <= 6 ? "01" : "07"}-01`;

/** The first day of the next half-year. */
const nextHalfYear = (halfYear: string) => (halfYear.slice(5) === "01-01" ? `${halfYear.slice(0, 4)}-07-01` : `${Number(halfYear.slice(0, 4)) + 1}-01-01`);

/** The half-year starting `halfYear` as people name it: '1. Halbjahr 2026'. */
export const halfYearLabel = (halfYear: string) => `${halfYear.slice(5) === "01-01" ? "1." : "2."} Halbjahr ${halfYear.slice(0, 4)}`;

/**
 * The default interest owed for the days `from` to `to` (both counted) on an item whose open amount
 * is `openNow` after every payment in `payments` (those dated on or after `from` matter: each was
 * still owed before its day). `surcharge` is CONSUMER_SURCHARGE or BUSINESS_SURCHARGE.
 */
export function defaultInterest(input: {
  from: string;
  to: string;
  openNow: number;
  payments: readonly DatedPayment[];
  rates: readonly BaseRate[];
  surcharge: number;
}): InterestOutcome {
  const { from, to, surcharge } = input;
  if (from > to) return { status: "none" };
  const rateOf = new Map(input.rates.map((entry) => [entry.validFrom, entry.rate]));
  // Where the principal or the rate may change: each half-year's start and the day after each payment.
  const starts = new Set([from]);
  for (let half = nextHalfYear(halfYearOf(from)); half <= to; half = nextHalfYear(half)) starts.add(half);
  for (const payment of input.payments) {
    const next = addDaysToDate(payment.date, 1);
    if (next > from && next <= to) starts.add(next);
  }
  const ordered = [...starts].sort();
  const stretches: InterestStretch[] = [];
  let exact = 0;
  for (const [index, start] of ordered.entries()) {
    const end = index + 1 < ordered.length ? addDaysToDate(ordered[index + 1], -1) : to;
    const base = rateOf.get(halfYearOf(start));
    if (base === undefined) return { status: "missingRate", halfYear: halfYearOf(start) };
    // Owed on `start`: today's open amount plus what was paid on or after it.
    const principal = input.openNow + input.payments.filter((payment) => payment.date >= start).reduce((sum, payment) => sum + payment.amount, 0);
    const rate = base + surcharge;
    const days = daysCounted(start, end);
    if (principal <= 0 || rate <= 0) continue;
    exact += principal * rate * days;
    const last = stretches.at(-1);
    if (last && last.principal === principal && last.rate === rate && addDaysToDate(last.to, 1) === start) {
      last.to = end;
      last.days += days;
    } else stretches.push({ from: start, to: end, days, principal, rate });
  }
  if (stretches.length === 0) return { status: "none" };
  // cents x hundredths of a percent x days / (100 x 100 x 365), rounded once, half up.
  const amount = Math.floor((exact * 2 + 10_000 * YEAR_DAYS) / (2 * 10_000 * YEAR_DAYS));
  if (amount <= 0) return { status: "none" };
  return { status: "computed", amount, from, to, surcharge, stretches };
}

/** A rate in hundredths of a percent as Germans write it: '6,27 %'. */
export const formatRate = (rate: number) => `${(rate / 100).toLocaleString("de-DE", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} %`;

/** The period as the letter names it: '13.05.2026 bis 29.11.2026'. */
export const interestPeriodText = (from: string, to: string) => `${formatDate(from)} bis ${formatDate(to)}`;

/** The rate as the letter names it: '5 Prozentpunkte über dem Basiszinssatz (6,27 %)', each rate once. */
export function interestRateText(surcharge: number, stretches: readonly Pick<InterestStretch, "rate">[]): string {
  const rates = [...new Set(stretches.map((stretch) => stretch.rate))].map(formatRate);
  return `${surcharge / 100} Prozentpunkte über dem Basiszinssatz (${rates.join(", dann ")} p. a.)`;
}
