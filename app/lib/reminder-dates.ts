/**
 * The date rules of the Mahnwesen (issue 17), in one place.
 *
 * §193 BGB: a payment due on a Saturday, a Sunday or a nationwide German public holiday is in time
 * on the next working day. So a due date (the invoice's or fee's, or the new payment term of a
 * reminder) is first moved to its effective date, the next working day on or after it; an item is
 * overdue from the day after that; a reminder level becomes due `days` calendar days after it.
 *
 * Calendar dates are 'YYYY-MM-DD' text (as stored); arithmetic is on UTC days (`addDaysToDate` of
 * app/lib/format.ts), so the host's time zone never shifts a day. "Today" is the Berlin day
 * (`todayInBerlin`).
 */
import { easterSunday } from "./easter";
import { addDaysToDate, daysBetween } from "./format";

const holidayCache = new Map<number, ReadonlySet<string>>();

/**
 * The public holidays of all German states (gesetzliche Feiertage, bundesweit): Neujahr,
 * Karfreitag, Ostermontag, Tag der Arbeit, Christi Himmelfahrt, Pfingstmontag, Tag der Deutschen
 * Einheit, 1. und 2. Weihnachtstag. State holidays (e.g. Fronleichnam) are not counted.
 */
export function nationwideHolidays(year: number): ReadonlySet<string> {
  const cached = holidayCache.get(year);
  if (cached) return cached;
  const easter = easterSunday(year);
  const set = new Set([
    `${year}-01-01`,
    addDaysToDate(easter, -2),
    addDaysToDate(easter, 1),
    `${year}-05-01`,
    addDaysToDate(easter, 39),
    addDaysToDate(easter, 50),
    `${year}-10-03`,
    `${year}-12-25`,
    `${year}-12-26`,
  ]);
  holidayCache.set(year, set);
  return set;
}

/** 0 = Sunday ... 6 = Saturday of a calendar date. */
const weekday = (isoDate: string) => new Date(`${isoDate}T00:00:00Z`).getUTCDay();

/** Not a Saturday, Sunday or nationwide public holiday. */
export function isWorkingDay(isoDate: string): boolean {
  const day = weekday(isoDate);
  return day !== 0 && day !== 6 && !nationwideHolidays(Number(isoDate.slice(0, 4))).has(isoDate);
}

/** §193 BGB: the date itself if it is a working day, else the next working day. */
export function effectiveDueDate(isoDate: string): string {
  let date = isoDate;
  while (!isWorkingDay(date)) date = addDaysToDate(date, 1);
  return date;
}

/** The date itself if it is a working day, else the last working day before it. */
function previousWorkingDay(isoDate: string): string {
  let date = isoDate;
  while (!isWorkingDay(date)) date = addDaysToDate(date, -1);
  return date;
}

/** The day a reminder level becomes due: `days` calendar days after the effective due date. */
export function levelDueOn(dueDate: string, days: number): string {
  return addDaysToDate(effectiveDueDate(dueDate), days);
}

/** Overdue on `today`: the effective due date has passed (payment on it is still in time). */
export function isOverdue(dueDate: string, today: string): boolean {
  return effectiveDueDate(dueDate) < today;
}

/**
 * The latest due date whose level (`days` after it) is due on `today`: a level is due exactly for
 * the due dates <= this one. As the effective date never decreases with the due date, the set is a
 * prefix; its end is the last working day on or before `today - days` (a later date would be moved
 * past it). This lets SQL compare stored dates with one parameter per level. With days = 1 it is
 * the latest due date that is overdue on `today`.
 */
export function latestDueDateFor(days: number, today: string): string {
  return previousWorkingDay(addDaysToDate(today, -days));
}

/** The most days a level may wait (Einstellungen and the table's check reminder_levels_days_range). */
export const MAX_REMINDER_DAYS = 365;

/** workingDayStepsBack's last answer: a day's requests all ask for the same. */
let stepsBack: { today: string; steps: string } | undefined;

/**
 * latestDueDateFor for every `days` a level may have, as SQL can look it up: character `days` (1-based)
 * is how many days before `today - days` its last working day lies (0 on a working day; at most 4,
 * Karfreitag to Ostermontag). With it a query computes the cut-off from the stored levels itself:
 * `date(today, '-' || (days + substr(steps, days, 1)) || ' days')`.
 */
export function workingDayStepsBack(today: string): string {
  if (stepsBack?.today === today) return stepsBack.steps;
  let steps = "";
  for (let days = 1; days <= MAX_REMINDER_DAYS; days++) steps += String(daysBetween(latestDueDateFor(days, today), addDaysToDate(today, -days)));
  stepsBack = { today, steps };
  return steps;
}

/** The new due date a reminder sent on `date` names: `termDays` later, moved to a working day. */
export function newDueDateOf(date: string, termDays: number): string {
  return effectiveDueDate(addDaysToDate(date, termDays));
}
