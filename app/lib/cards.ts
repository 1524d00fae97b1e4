/**
 * 10er-Karten and subscriptions (issue 34): the rules of validity, balance and notice, kept apart
 * from the database so they can be tested on their own. Periods of months end as § 188 Abs. 2 and
 * 3 BGB say (the day before the same-numbered day; a day the month lacks is its last day).
 */
import { addDaysToDate, addMonthsToDate } from "./format";

export type CardKind = "CARD" | "SUBSCRIPTION";
export type SubscriptionPeriod = "MONTHLY" | "QUARTERLY";

export const CARD_KIND_LABELS: Record<CardKind, string> = { CARD: "Karte", SUBSCRIPTION: "Abo" };
export const SUBSCRIPTION_PERIOD_LABELS: Record<SubscriptionPeriod, string> = { MONTHLY: "monatlich", QUARTERLY: "vierteljährlich" };

/** The last day of a card bought (valid) from `validFrom` for `months`: 30.11.2026 + 6 → 29.05.2027. */
export const cardValidUntil = (validFrom: string, months: number): string => addDaysToDate(addMonthsToDate(validFrom, months), -1);

/** A use or the return of one, as stored (card_uses). */
export type CardUse = { kind: "USE" | "RETURN"; units: number };

/** What is left on a card: its units, minus what was used, plus what was given back. */
export function cardBalance(units: number, uses: readonly CardUse[]): number {
  return uses.reduce((left, use) => (use.kind === "USE" ? left - use.units : left + use.units), units);
}

/** Whether a card or subscription may be used on `day` (Berlin): from its first to its last day. */
export const isValidOn = (card: { validFrom: string; validUntil: string | null }, day: string): boolean =>
  card.validFrom <= day && (card.validUntil === null || day <= card.validUntil);

/**
 * The card an attendance on `day` takes from, of those valid for its course: a subscription first
 * (it has no units to use up), else the card that runs out first with enough units left (earlier
 * sold first on the same day). Null: the attendance stays 'ohne Karte'.
 */
export function cardForAttendance<
  Card extends { id: number; kind: CardKind; validFrom: string; validUntil: string | null; balance: number | null; unitsPerAttendance: number },
>(cards: readonly Card[], day: string): Card | null {
  const usable = cards.filter((card) => isValidOn(card, day) && (card.kind === "SUBSCRIPTION" || (card.balance ?? 0) >= card.unitsPerAttendance));
  const order = (card: Card) => [card.kind === "SUBSCRIPTION" ? 0 : 1, card.validUntil ?? "9999-12-31", card.id] as const;
  return (
    [...usable].sort((a, b) => {
      const [x, y] = [order(a), order(b)];
      return x[0] - y[0] || x[1].localeCompare(y[1]) || x[2] - y[2];
    })[0] ?? null
  );
}

/**
 * The last day of a subscription whose notice was received on `noticeOn`: the notice period runs
 * from the receipt (an event: § 187 Abs. 1 BGB) to the same-numbered day of its last month
 * (§ 188 Abs. 2 BGB: notice on 20.11. with one month ends on 20.12.), but not before the minimum
 * term ends (it starts with its first day: § 187 Abs. 2, so it ends the day before). § 309 Nr. 9
 * BGB lets a consumer give notice at any time after the minimum term with at most one month's
 * notice, so the end is not pushed on to the end of a billing period.
 */
export function subscriptionEnd(subscription: { validFrom: string; minTermMonths: number; noticeMonths: number }, noticeOn: string): string {
  const noticeEnds = addMonthsToDate(noticeOn, subscription.noticeMonths);
  const minimumEnds =
    subscription.minTermMonths > 0 ? addDaysToDate(addMonthsToDate(subscription.validFrom, subscription.minTermMonths), -1) : subscription.validFrom;
  const end = noticeEnds > minimumEnds ? noticeEnds : minimumEnds;
  return end < noticeOn ? noticeOn : end;
}

/** What a participant has to attend with on a day: a subscription, or the units left on valid cards. */
export type CardStanding = { subscription: boolean; units: number };

/** The standing of each participant on `day`, from their cards (by membership id; a row without a card: none). */
export function cardStandings(
  cards: readonly { membershipId: number; kind: CardKind | null; validFrom: string | null; validUntil: string | null; balance: number | null }[],
  day: string,
) {
  const standings = new Map<number, CardStanding>();
  for (const card of cards) {
    const standing = standings.get(card.membershipId) ?? { subscription: false, units: 0 };
    if (card.validFrom !== null && isValidOn({ validFrom: card.validFrom, validUntil: card.validUntil }, day)) {
      if (card.kind === "SUBSCRIPTION") standing.subscription = true;
      else standing.units += card.balance ?? 0;
    }
    standings.set(card.membershipId, standing);
  }
  return standings;
}

const PERIOD_MONTHS: Record<SubscriptionPeriod, number> = { MONTHLY: 1, QUARTERLY: 3 };

/** One billing period of a subscription: its first and last day and what it costs. */
export type SubscriptionPeriodFee = { start: string; end: string; amount: number };

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;

/**
 * The periods of a subscription that have begun by `through` and are not in `billed` (their
 * starts): period n runs from `validFrom` + n periods (counted from the first day each time, so a
 * 31st stays the month's last day, § 188 Abs. 3 BGB) to the day before the next. A period the
 * subscription's end cuts short costs its share by days, rounded to the cent: after the end of the
 * contract nothing is owed.
 */
export function subscriptionPeriodsDue(
  subscription: { validFrom: string; validUntil: string | null; period: SubscriptionPeriod; price: number },
  through: string,
  billed: ReadonlySet<string> = new Set(),
): SubscriptionPeriodFee[] {
  const months = PERIOD_MONTHS[subscription.period];
  const due: SubscriptionPeriodFee[] = [];
  for (let n = 0; ; n++) {
    const start = addMonthsToDate(subscription.validFrom, n * months);
    if (start > through || (subscription.validUntil !== null && start > subscription.validUntil)) break;
    if (billed.has(start)) continue;
    const fullEnd = addDaysToDate(addMonthsToDate(subscription.validFrom, (n + 1) * months), -1);
    const end = subscription.validUntil !== null && subscription.validUntil < fullEnd ? subscription.validUntil : fullEnd;
    const amount = end === fullEnd ? subscription.price : Math.round((subscription.price * daysBetween(start, end)) / daysBetween(start, fullEnd));
    due.push({ start, end, amount });
  }
  return due;
}
