/**
 * 10er-Karten and subscriptions (issue 34): the rules of validity, balance and notice, kept apart
 * from the database so they can be tested on their own. Periods of months end as § 188 Abs. 2 and
 * 3 BGB say (the day before the same-numbered day; a day the month lacks is its last day).
 */
import { addDaysToDate, addMonthsToDate, formatDate } from "./format";

export type CardKind = "CARD" | "SUBSCRIPTION";
export type SubscriptionPeriod = "MONTHLY" | "QUARTERLY";

export const CARD_KIND_LABELS: Record<CardKind, string> = { CARD: "Karte", SUBSCRIPTION: "Abo" };
export const SUBSCRIPTION_PERIOD_LABELS: Record<SubscriptionPeriod, string> = { MONTHLY: "monatlich", QUARTERLY: "vierteljährlich" };

/** The last day of a card bought (valid) from `validFrom` for `months`: 30.11.2026 + 6 → 29.05.2027. */
export const cardValidUntil = (validFrom: string, months: number): string => addDaysToDate(addMonthsToDate(validFrom, months), -1);

/** The text of a card's fee (the sale, and the demo's): '10er-Karte Agility, gültig 30.11.2026 bis 29.05.2027'. */
export const cardSaleText = (name: string, validFrom: string, validUntil: string | null): string =>
  validUntil ? `${name}, gültig ${formatDate(validFrom)} bis ${formatDate(validUntil)}` : `${name}, ab ${formatDate(validFrom)}`;

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

export type NoticeKind = "ORDINARY" | "EXTRAORDINARY";
export const NOTICE_KIND_LABELS: Record<NoticeKind, string> = { ORDINARY: "ordentlich", EXTRAORDINARY: "außerordentlich (aus wichtigem Grund)" };

/**
 * The end a notice sets. Ordinary: the end the terms allow (subscriptionEnd), or the later day
 * wished; without a wish the earliest (§ 312k Abs. 5 BGB: in doubt the earliest possible time).
 * For cause (§ 314 BGB), once staff accept the cause: the day wished, but not before the receipt,
 * else the day of receipt.
 */
export function noticeEnd(
  subscription: { validFrom: string; minTermMonths: number; noticeMonths: number },
  notice: { on: string; kind: NoticeKind; wantedEnd: string | null },
): string {
  const earliest = notice.kind === "ORDINARY" ? subscriptionEnd(subscription, notice.on) : notice.on;
  return notice.wantedEnd && notice.wantedEnd > earliest ? notice.wantedEnd : earliest;
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

/** A card as the monthly report reads it: sold when, for what, until when, and what was refunded. */
export type ReportCard = {
  id: number;
  units: number;
  price: number;
  soldOn: string;
  validUntil: string;
  refundedUnits: number;
  refundedOn: string | null;
};

/** What a card's attendance took in a month ('2026-11'), net of what un-ticking gave back. */
export type ReportUse = { cardId: number; month: string; units: number };

/** One month of the report: units and their share of the price (per card, rounded to the cent). */
export type CardReportMonth = {
  month: string;
  soldUnits: number;
  soldValue: number;
  usedUnits: number;
  usedValue: number;
  expiredUnits: number;
  expiredValue: number;
  refundedUnits: number;
  refundedValue: number;
};

const emptyMonth = (month: string): CardReportMonth => ({
  month,
  soldUnits: 0,
  soldValue: 0,
  usedUnits: 0,
  usedValue: 0,
  expiredUnits: 0,
  expiredValue: 0,
  refundedUnits: 0,
  refundedValue: 0,
});

/**
 * Sold, used, expired and refunded units of 10er-Karten per month (issue 34 item 5: a card's price
 * is earned as it is used or expires). A card's expired units are what is left after its last day
 * (counted in the month of that day, once it has passed `today`). Per card, sold = used + expired +
 * refunded + still open. The value of a card's units is its price shared out in the order they
 * went (month by month: used, refunded, expired), each share the difference of the rounded
 * cumulative values, so the shares of a card add up to its price to the cent.
 */
export function cardReport(cards: readonly ReportCard[], uses: readonly ReportUse[], months: readonly string[], today: string): CardReportMonth[] {
  const rows = new Map(months.map((month) => [month, emptyMonth(month)]));
  const usesOf = new Map<number, ReportUse[]>();
  for (const use of uses) usesOf.set(use.cardId, [...(usesOf.get(use.cardId) ?? []), use]);
  for (const card of cards) {
    const sold = rows.get(card.soldOn.slice(0, 7));
    if (sold) {
      sold.soldUnits += card.units;
      sold.soldValue += card.price;
    }
    const cardUses = usesOf.get(card.id) ?? [];
    const used = cardUses.reduce((sum, use) => sum + use.units, 0);
    const left = card.units - used - card.refundedUnits;
    type Part = { month: string; order: number; units: number; kind: "used" | "refunded" | "expired" };
    const parts: Part[] = [
      ...cardUses.map((use): Part => ({ month: use.month, order: 0, units: use.units, kind: "used" })),
      ...(card.refundedOn && card.refundedUnits > 0
        ? [{ month: card.refundedOn.slice(0, 7), order: 1, units: card.refundedUnits, kind: "refunded" as const }]
        : []),
      ...(card.validUntil < today && left > 0 ? [{ month: card.validUntil.slice(0, 7), order: 2, units: left, kind: "expired" as const }] : []),
    ].sort((a, b) => a.month.localeCompare(b.month) || a.order - b.order);
    let gone = 0;
    for (const part of parts) {
      const value = Math.round((card.price * (gone + part.units)) / card.units) - Math.round((card.price * gone) / card.units);
      gone += part.units;
      const row = rows.get(part.month);
      if (!row) continue;
      row[`${part.kind}Units`] += part.units;
      row[`${part.kind}Value`] += value;
    }
  }
  return [...rows.values()];
}

/** The days a contract made online may be withdrawn from (§ 355 Abs. 2 BGB): 14 from its conclusion. */
export const WITHDRAWAL_DAYS = 14;

/**
 * What a card or Abo bought online still costs after a withdrawal received on `withdrawnOn`
 * (§ 357a Abs. 2 BGB): nothing, unless the buyer asked for the service to begin within the
 * withdrawal period; then the share of the price for what was provided up to the withdrawal - a
 * card's units used, an Abo's days (by days of each period, as a cut period is billed).
 */
export function withdrawalValue(
  card: { kind: CardKind; price: number; units: number | null; validFrom: string; period: SubscriptionPeriod | null },
  use: { earlyStart: boolean; usedUnits: number; withdrawnOn: string },
): number {
  if (!use.earlyStart) return 0;
  if (card.kind === "CARD") return Math.min(card.price, Math.round((card.price * use.usedUnits) / (card.units ?? 1)));
  if (use.withdrawnOn < card.validFrom) return 0;
  return subscriptionPeriodsDue({ validFrom: card.validFrom, validUntil: use.withdrawnOn, period: card.period!, price: card.price }, use.withdrawnOn).reduce(
    (sum, period) => sum + period.amount,
    0,
  );
}
