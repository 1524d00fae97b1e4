/**
 * Mein Wuff, Meine Kurse (issue 32 item 5): the pure rules of cancelling a booking in the portal.
 *
 * Law: a consumer's course booking is a contract for a leisure service on a specific date, for
 * which §312g Abs. 2 Nr. 9 BGB excludes the right of withdrawal (Widerrufsrecht), also when booked
 * online. Whether and until when a booking can be cancelled is therefore the club's contractual
 * rule: per course type, 'Stornierung in Mein Wuff bis … Tage vor Kursbeginn' (empty: never in the
 * portal, the club decides case by case). What happens to money already charged is the club's
 * decision too: the portal never changes a fee (staff see the cancellation on the home page).
 */
import { addDaysToDate, berlinDateOf, formatCount, formatDate } from "./format";

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
