/**
 * The treasurer's reports (issue 35 item 4), pure: the Einnahmenüberschussrechnung of a year per
 * sphere and account, the open items at a key date, and the members' assembly report.
 *
 * The EÜR follows the cash principle (§ 4 Abs. 3, § 11 EStG: income when received, expenses when
 * paid): every journal entry that moved money in the year counts, on the accounts of what it paid.
 * An entry paying an invoice is divided over the invoice's rows in proportion to their amounts,
 * exact to the cent (the remainders go to the largest fractions), so the report's total is the
 * journal's total. What an entry did not pay (a credit kept, a refund of one) is shown apart.
 */
import type { Sphere } from "./ledger";

/**
 * Divides `amount` cents over `weights` in proportion, exact to the cent (largest remainder): each
 * share is its exact value rounded down, and the cents left go one by one to the largest
 * fractions (the first of equal ones). The shares always add up to `amount`, each within a cent of
 * its exact value, whatever the signs. Weights of zero in total give everything to the first.
 */
export function splitByWeights(amount: number, weights: number[]): number[] {
  if (weights.length === 0) return [];
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total === 0) return weights.map((_, index) => (index === 0 ? amount : 0));
  const exact = weights.map((weight) => (amount * weight) / total);
  const shares = exact.map((value) => Math.floor(value));
  const left = amount - shares.reduce((sum, share) => sum + share, 0);
  const order = exact.map((value, index) => ({ index, fraction: value - Math.floor(value) })).sort((a, b) => b.fraction - a.fraction || a.index - b.index);
  for (let given = 0; given < left; given++) shares[order[given % order.length].index] += 1;
  return shares;
}

export type IncomeLine = { account: string; name: string; sphere: Sphere | null; income: number; expense: number };

/** Adds `cents` to the line of the account and sphere (income above zero, a refund below). */
export function addToLines(
  lines: Map<string, IncomeLine>,
  account: string,
  name: string,
  sphere: Sphere | null,
  cents: number,
  side: "income" | "expense" = "income",
) {
  const key = `${sphere ?? ""}|${account}`;
  const line = lines.get(key) ?? { account, name, sphere, income: 0, expense: 0 };
  line[side] += cents;
  lines.set(key, line);
}

/** The lines in the report's order: by sphere (in the SKR 42 order, none last), then account. */
export function orderedLines(lines: Iterable<IncomeLine>, sphereOrder: readonly Sphere[]): IncomeLine[] {
  const rank = (sphere: Sphere | null) => (sphere === null ? sphereOrder.length : sphereOrder.indexOf(sphere));
  return [...lines]
    .filter((line) => line.income !== 0 || line.expense !== 0)
    .sort((a, b) => rank(a.sphere) - rank(b.sphere) || a.account.localeCompare(b.account));
}

export type SphereTotal = { sphere: Sphere | null; income: number; expense: number; result: number };

/** Income, expenses and their difference per sphere (null: lines without one). */
export function totalsBySphere(lines: IncomeLine[], sphereOrder: readonly Sphere[]): SphereTotal[] {
  const totals = new Map<Sphere | null, SphereTotal>();
  for (const line of lines) {
    const total = totals.get(line.sphere) ?? { sphere: line.sphere, income: 0, expense: 0, result: 0 };
    total.income += line.income;
    total.expense += line.expense;
    total.result = total.income - total.expense;
    totals.set(line.sphere, total);
  }
  const rank = (sphere: Sphere | null) => (sphere === null ? sphereOrder.length : sphereOrder.indexOf(sphere));
  return [...totals.values()].sort((a, b) => rank(a.sphere) - rank(b.sphere));
}
