/**
 * Mein Wuff, Meine Kurse (issue 32 item 5): the pure rules of cancelling a booking in the portal.
 *
 * Law: a consumer's course booking is a contract for a leisure service on a specific date, for
 * which §312g Abs. 2 Nr. 9 BGB excludes the right of withdrawal (Widerrufsrecht), also when booked
 * online. Whether and until when a booking can be cancelled is therefore the club's contractual
 * rule: per course type, 'Stornierung in Mein Wuff bis … Tage vor Kursbeginn' (empty: never in the
 * portal, the club decides case by case). Issue 33 item 4: the course type also says what share of
 * the fee stays owed after such a cancellation ('Stornogebühr', 0 %: none); the rest of what is
 * still open is cancelled through the payment journal (a correction entry naming the fee). A fee
 * already invoiced or paid stays the club's to settle (Gutschrift, refund; the home page says so).
 *
 * Where a course type gives a right of withdrawal (e.g. courses not tied to fixed dates), a
 * booking made online can be withdrawn for 14 days from its conclusion (§ 355 Abs. 2 BGB, the
 * period ending with the 14th day, § 187 Abs. 1, § 188 Abs. 1 BGB), never after the course is over
 * (§ 356 Abs. 4 BGB), with the button 'Vertrag widerrufen' and a confirmation step (§ 356a BGB,
 * from 19 June 2026); the fee is cancelled in full and what was paid is refunded (§ 357 BGB).
 */
import { addDaysToDate, berlinDateOf, formatCount, formatDate, formatMoney, todayInBerlin } from "./format";

/** The longest cut-off a course type may have: a year. */
export const MAX_PORTAL_CANCEL_DAYS = 365;

/** 'bis 7 Tage vor Kursbeginn', 'bis zum Kursbeginn' (the course types' grid). */
export const portalCancelText = (days: number) => (days === 0 ? "bis zum Kursbeginn" : `bis ${formatCount(days, "Tag", "Tage")} vor Kursbeginn`);

export type CancelInput = {
  /** The booking's status code (CONFIRMED, WAITLIST, CANCELLED, …). */
  statusCode: string;
  /** The course's status: a FINISHED course is over. */
  courseStatusCode: string;
  /** The course type's cut-off in days; null: not cancellable in the portal (also without a type). */
  cancelDays: number | null;
  /** When the course begins (its first date, else its planned start; UTC ISO), null when not known yet. */
  courseStart: string | null;
};

export type CancelState =
  | { state: "cancelled" }
  | { state: "open"; /** The last day (Berlin) it can be cancelled; null while the start is not known. */ until: string | null }
  | { state: "closed"; reason: string };

export const NOT_CANCELLABLE_HERE = "Diese Buchung kann nicht in Mein Wuff storniert werden. Bitte wende dich an den Verein.";
export const COURSE_OVER = "Der Kurs ist abgeschlossen.";

/**
 * Whether the booking can be cancelled in the portal now. The cut-off counts Berlin calendar days:
 * with 7 days and a course beginning on the 10th the 3rd is the last day; with 0 the day the course
 * begins, but never once its first date has started. A course whose start is not known yet has not
 * begun, so its deadline cannot have passed.
 */
export function cancelState(input: CancelInput, today: string, now: Date): CancelState {
  if (input.statusCode === "CANCELLED") return { state: "cancelled" };
  if (input.courseStatusCode === "FINISHED") return { state: "closed", reason: COURSE_OVER };
  if (input.cancelDays === null) return { state: "closed", reason: NOT_CANCELLABLE_HERE };
  if (input.courseStart === null) return { state: "open", until: null };
  const until = addDaysToDate(berlinDateOf(input.courseStart), -input.cancelDays);
  if (today > until || now.getTime() >= Date.parse(input.courseStart)) {
    return {
      state: "closed",
      reason: `Die Frist zum Stornieren in Mein Wuff ist abgelaufen (${portalCancelText(input.cancelDays)}, also bis ${formatDate(until)}). Bitte wende dich an den Verein.`,
    };
  }
  return { state: "open", until };
}

/** What a cancellation in Mein Wuff does to the course fee: the part still open that the terms
 *  waive (cancelled through the journal) and the part the terms keep owed. Cents. */
export type FeeWaiver = { waived: number; kept: number };

/**
 * The fee after a cancellation within the cut-off: `keptPercent` of its amount stays owed (cents
 * rounded half up), the rest of what is open is waived. An invoiced fee is left as it is (the
 * invoice is what is owed: a Gutschrift is the club's), and nothing paid is waived twice.
 */
export function cancellationWaiver(fee: { amount: number; openAmount: number; isInvoiced: boolean } | null, keptPercent: number): FeeWaiver {
  if (!fee || fee.isInvoiced) return { waived: 0, kept: fee?.amount ?? 0 };
  const kept = Math.round((fee.amount * keptPercent) / 100);
  return { waived: Math.max(0, Math.min(fee.openAmount, fee.amount - kept)), kept };
}

/** What the person is told about the fee after cancelling (the toast and the mail). */
export function cancelledFeeText(waiver: FeeWaiver, fee: { amount: number; openAmount: number; isInvoiced: boolean } | null): string {
  if (!fee) return "";
  if (fee.isInvoiced) return "Die Kursgebühr ist schon in Rechnung gestellt: Über eine Gutschrift entscheidet der Verein nach seinen Kursbedingungen.";
  const paid = fee.amount - fee.openAmount;
  const parts = [];
  if (waiver.waived > 0) parts.push(`Die Kursgebühr ist über ${formatMoney(waiver.waived)} storniert.`);
  if (waiver.kept > 0) parts.push(`Nach den Kursbedingungen bleiben ${formatMoney(waiver.kept)} zu zahlen.`);
  if (paid > waiver.kept) parts.push(`Zu viel Gezahltes (${formatMoney(paid - waiver.kept)}) erstattet der Verein.`);
  return parts.join(" ");
}

/** The days a withdrawal stands open after the contract (§ 355 Abs. 2 BGB). */
const WITHDRAWAL_DAYS = 14;

export type WithdrawalInput = {
  statusCode: string;
  courseStatusCode: string;
  /** When the contract was concluded online with a right of withdrawal (booked, or an offer taken); null: none. */
  contractOn: string | null;
  /** A withdrawal already received. */
  withdrawn: boolean;
};

/** Until which Berlin day the booking can be withdrawn, or null when it cannot (any more). */
export function withdrawalUntil(input: WithdrawalInput, now: Date): string | null {
  if (!input.contractOn || input.withdrawn || input.statusCode === "CANCELLED" || input.courseStatusCode === "FINISHED") return null;
  const until = addDaysToDate(berlinDateOf(input.contractOn), WITHDRAWAL_DAYS);
  return todayInBerlin(now) <= until ? until : null;
}
