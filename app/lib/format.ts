/**
 * The one place where Wuff turns values into German text and German input back into values.
 *
 * - Calendar dates are stored as 'YYYY-MM-DD' and shown as dd.MM.yyyy; they carry no time zone.
 * - Instants are stored as UTC ISO strings and shown in Europe/Berlin.
 * - Money is integer cents and shown as 1.234,56 €.
 */
import { tzOffset } from "@date-fns/tz";
import { addMonths, format as formatWithPattern } from "date-fns";
import { formatNumber } from "./locale";

export { formatNumber } from "./locale";

export const TIME_ZONE = "Europe/Berlin";
const LOCALE = "de-DE";

/** The largest amount Wuff accepts anywhere: 999.999,99 €. Also enforced by the database. */
export const MAX_CENTS = 99_999_999;

export type ParseResult<T> = { success: true; value: T } | { success: false; error: string };

const ok = <T>(value: T): ParseResult<T> => ({ success: true, value });
const fail = <T>(error: string): ParseResult<T> => ({ success: false, error });

// ---------------------------------------------------------------------------------------------
// Calendar dates

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const GERMAN_DATE = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;

function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this month (UTC avoids DST surprises).
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** '2026-04-30' -> '30.04.2026'. Also accepts an instant, shown as its Berlin calendar day. */
export function formatDate(value: string | Date | null | undefined): string {
  if (value == null || value === "") return "";
  if (typeof value === "string") {
    const match = ISO_DATE.exec(value);
    if (match) return `${match[3]}.${match[2]}.${match[1]}`;
  }
  return formatInstant(value, dayMonthYear);
}

/**
 * Typed German date -> 'YYYY-MM-DD'. Accepts one- or two-digit day and month and a four-digit
 * year ('1.4.2026', '01.04.2026'); rejects impossible dates such as 31.04.2026 or 29.02.2025.
 */
export function parseGermanDate(input: string): ParseResult<string> {
  const text = input.trim();
  const match = GERMAN_DATE.exec(text);
  if (!match) return fail("Bitte ein Datum im Format TT.MM.JJJJ eingeben");
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!isRealDate(year, month, day)) return fail(`Das Datum ${text} gibt es nicht`);
  return ok(`${year}-${pad2(month)}-${pad2(day)}`);
}

/** True for a stored calendar date that exists ('2025-02-29' is false). */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  return match !== null && isRealDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

let lastToday: { minute: number; date: string } | undefined;

/** Today's calendar date in Berlin as 'YYYY-MM-DD'. */
export function todayInBerlin(now: Date = new Date()): string {
  // Asked many times per request (a zoned date costs Intl work each time); Berlin's offset
  // changes only on whole hours, so one minute of UTC lies within one Berlin day.
  const minute = Math.floor(now.getTime() / 60_000);
  if (lastToday?.minute !== minute) lastToday = { minute, date: berlinDateOf(now) };
  return lastToday.date;
}

/** The current year in Berlin (2026). */
export const currentYearInBerlin = (now: Date = new Date()): number => Number(todayInBerlin(now).slice(0, 4));

/** Adds days to a calendar date ('2026-01-30', 30) -> '2026-03-01'. */
export function addDaysToDate(isoDate: string, days: number): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  const shifted = new Date(Date.UTC(year, month - 1, day + days));
  return shifted.toISOString().slice(0, 10);
}

/** 'YYYY-MM-DD' plus whole months (date-fns): a day the month lacks becomes its last day, as a
 *  period of months ends by § 188 Abs. 3 BGB (31.01. + 1 month = 28.02.). */
export function addMonthsToDate(isoDate: string, months: number): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return formatWithPattern(addMonths(new Date(year, month - 1, day), months), "yyyy-MM-dd");
}

// ---------------------------------------------------------------------------------------------
// Instants (points in time), shown in Europe/Berlin

const HOUR_MS = 3_600_000;
const berlinOffsets = new Map<number, number>();

/**
 * Berlin's offset from UTC in minutes at an instant. Asking Intl costs about 10 µs, and a page shows
 * hundreds of instants; the offset only changes on a whole UTC hour (01:00 UTC since 1980), so it
 * is kept per hour once both ends of the hour agree (in 1893 Berlin left its local mean time at
 * 22:53:28 UTC: that hour is asked each time).
 */
export function berlinOffsetMinutes(instantMs: number): number {
  const hour = Math.floor(instantMs / HOUR_MS);
  const known = berlinOffsets.get(hour);
  if (known !== undefined) return known;
  const offset = tzOffset(TIME_ZONE, new Date(hour * HOUR_MS));
  if (tzOffset(TIME_ZONE, new Date(hour * HOUR_MS + HOUR_MS - 1)) !== offset) return tzOffset(TIME_ZONE, new Date(instantMs));
  // A bound, not an eviction policy: a year of hours is about 9,000 entries.
  if (berlinOffsets.size >= 50_000) berlinOffsets.clear();
  berlinOffsets.set(hour, offset);
  return offset;
}

/** An instant's Berlin wall-clock time as the UTC fields of a Date (read it with getUTC…). */
function berlinWallClock(value: string | Date): Date | null {
  const instantMs = typeof value === "string" ? Date.parse(value) : value.getTime();
  if (Number.isNaN(instantMs)) return null;
  return new Date(instantMs + berlinOffsetMinutes(instantMs) * 60_000);
}

// The German names as date-fns' de locale writes them (tests/integration/format.test.ts compares).
const WEEKDAYS_SHORT = ["So.", "Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa."];
const MONTHS = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"];

const year4 = (wall: Date) => String(wall.getUTCFullYear()).padStart(4, "0");
const dayMonthYear = (wall: Date) => `${pad2(wall.getUTCDate())}.${pad2(wall.getUTCMonth() + 1)}.${year4(wall)}`;
const hourMinute = (wall: Date) => `${pad2(wall.getUTCHours())}:${pad2(wall.getUTCMinutes())}`;

/** Formats an instant's Berlin wall-clock time; '' for an invalid one. */
function formatInstant(value: string | Date, write: (wall: Date) => string): string {
  const wall = berlinWallClock(value);
  return wall ? write(wall) : "";
}

/** '2026-11-24T17:00:00.000Z' -> '18:00' (Berlin time). */
export function formatTime(value: string | Date | null | undefined): string {
  return value ? formatInstant(value, hourMinute) : "";
}

/** '2026-11-24T17:00:00.000Z' -> 'Di.': the abbreviated weekday in Berlin. */
export function formatWeekday(value: string | Date | null | undefined): string {
  return value ? formatInstant(value, (wall) => WEEKDAYS_SHORT[wall.getUTCDay()]) : "";
}

/** '2026-12-31T23:30:00.000Z' -> 'Januar 2027': the month and year in Berlin. */
export function formatMonthYear(value: string | Date): string {
  return formatInstant(value, (wall) => `${MONTHS[wall.getUTCMonth()]} ${year4(wall)}`);
}

/** '2026-12-05T23:30:00.000Z' -> 7: the ISO weekday (1 Monday … 7 Sunday) in Berlin. */
export function berlinWeekdayOf(value: string | Date): number {
  const wall = berlinWallClock(value);
  return wall ? wall.getUTCDay() || 7 : 0;
}

/** '2026-11-24T23:30:00.000Z' -> '2026-11-25': the Berlin calendar day of an instant. */
export function berlinDateOf(value: string | Date): string {
  return formatInstant(value, (wall) => `${year4(wall)}-${pad2(wall.getUTCMonth() + 1)}-${pad2(wall.getUTCDate())}`);
}

/** '2026-11-24T17:00:00.000Z' -> '24.11.2026 18:00' */
export function formatDateTime(value: string | Date | null | undefined): string {
  return value ? formatInstant(value, (wall) => `${dayMonthYear(wall)} ${hourMinute(wall)}`) : "";
}

/** '2026-11-24T17:00:00.000Z' -> '24.11.2026 18:00 (Di.)': course dates, next sessions. */
export function formatDateTimeWithWeekday(value: string | Date | null | undefined): string {
  return value ? formatInstant(value, (wall) => `${dayMonthYear(wall)} ${hourMinute(wall)} (${WEEKDAYS_SHORT[wall.getUTCDay()]})`) : "";
}

/** '2026-11-24T17:00:05.000Z' -> '24.11.2026 18:00:05': recycle bin, audit block. */
export function formatDateTimeWithSeconds(value: string | Date | null | undefined): string {
  return value ? formatInstant(value, (wall) => `${dayMonthYear(wall)} ${hourMinute(wall)}:${pad2(wall.getUTCSeconds())}`) : "";
}

const GERMAN_DATE_TIME = /^(\d{1,2})\.(\d{1,2})\.(\d{4})\s+(\d{1,2}):(\d{2})$/;

/** Typed Berlin wall-clock time '24.11.2026 18:00' -> UTC ISO instant. */
export function parseGermanDateTime(input: string): ParseResult<string> {
  const match = GERMAN_DATE_TIME.exec(input.trim());
  if (!match) return fail("Bitte Datum und Uhrzeit im Format TT.MM.JJJJ HH:MM eingeben");
  const [day, month, year, hour, minute] = match.slice(1).map(Number);
  if (!isRealDate(year, month, day)) return fail("Dieses Datum gibt es nicht");
  if (hour > 23 || minute > 59) return fail("Diese Uhrzeit gibt es nicht");
  return ok(berlinWallClockToInstant(year, month, day, hour, minute));
}

/**
 * The UTC instant of a Berlin wall-clock time (DST-aware). A time the spring change skips (02:30)
 * is read with winter time's offset (03:30 summer time), one the autumn change repeats as its
 * second, winter-time occurrence, as @date-fns/tz's TZDate does.
 */
export function berlinWallClockToInstant(year: number, month: number, day: number, hour: number, minute: number): string {
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute);
  const firstGuess = wallAsUtc - berlinOffsetMinutes(wallAsUtc) * 60_000;
  return new Date(wallAsUtc - berlinOffsetMinutes(firstGuess) * 60_000).toISOString();
}

/** '2026-11-23' -> the instant its day begins in Berlin ('2026-11-22T23:00:00.000Z'). */
export function berlinMidnight(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return berlinWallClockToInstant(year, month, day, 0, 0);
}

// ---------------------------------------------------------------------------------------------
// Money

// Made once: with a locale, `toLocaleString` and `localeCompare` build a new Intl object on every
// call, about 50 µs each in workerd (./locale.ts).
const germanCollator = new Intl.Collator("de");

/** German alphabetical order of two texts (as `a.localeCompare(b, "de")`). */
export const compareGerman = (a: string, b: string) => germanCollator.compare(a, b);

const moneyFormat = new Intl.NumberFormat(LOCALE, { style: "currency", currency: "EUR" });
const amountFormat = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 123456 -> '1.234,56 €' (with a non-breaking space before the euro sign, as de-DE writes it). */
export function formatMoney(cents: number | null | undefined): string {
  if (cents == null) return "";
  return moneyFormat.format(cents / 100);
}

/** 123456 -> '1.234,56': the value of a money input, which shows the € as a suffix itself. */
export function formatMoneyInput(cents: number | null | undefined): string {
  if (cents == null) return "";
  return amountFormat.format(cents / 100);
}

// Digits with dots between groups of three, or plain digits; then an optional ,d or ,dd.
const GERMAN_AMOUNT = /^(-)?(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/;

/**
 * Typed German amount -> cents. Accepts '1.234,56', '1234,5', '12,50 €', '12 €', '1.234';
 * a dot is only a thousands separator, the comma the decimal separator.
 */
export function parseMoney(input: string, options: { allowNegative?: boolean } = {}): ParseResult<number> {
  const text = input.replace(/\s+/g, "").replace(/€$/, "");
  if (text === "") return fail("Bitte einen Betrag eingeben");
  const match = GERMAN_AMOUNT.exec(text);
  if (!match) return fail("Bitte einen Betrag wie 1.234,56 eingeben");
  const [, minus, wholePart, fraction = ""] = match;
  if (minus && !options.allowNegative) return fail("Der Betrag darf nicht negativ sein");
  const whole = wholePart.replaceAll(".", "");
  // Too many digits to be a sane amount: refuse before Number() loses precision.
  if (whole.replace(/^0+/, "").length > 7) return fail("Der Betrag ist zu groß (höchstens 999.999,99 €)");
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  if (cents > MAX_CENTS) return fail("Der Betrag ist zu groß (höchstens 999.999,99 €)");
  return ok(minus && cents !== 0 ? -cents : cents);
}

// ---------------------------------------------------------------------------------------------
// Contact links

/**
 * A phone number as a tel: link, digits and a leading + only ('+49 (0) 6421 12-34' ->
 * 'tel:+4964211234'); null when it holds no digit.
 */
export function telHref(phone: string | null | undefined): string | null {
  // '+49 (0) 6421': the trunk 0 in brackets is not dialled after a country code.
  const text = (phone ?? "").trim().replace(/^(\+\d+)\s*\(0\)/, "$1");
  const digits = text.replace(/\D/g, "");
  return digits ? `tel:${text.startsWith("+") ? "+" : ""}${digits}` : null;
}

/** An e-mail address as a mailto: link; null unless it looks like one address. */
export function mailtoHref(email: string | null | undefined): string | null {
  const address = (email ?? "").trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(address)) return null;
  // Encoded so that ?, & or # in an address cannot add headers or cut it off.
  return `mailto:${address.split("@").map(encodeURIComponent).join("@")}`;
}

// ---------------------------------------------------------------------------------------------
// Ages

/** Days from one 'YYYY-MM-DD' to another (0 for the same day). */
export function daysBetween(fromIsoDate: string, toIsoDate: string): number {
  return Math.round((Date.parse(`${toIsoDate}T00:00:00Z`) - Date.parse(`${fromIsoDate}T00:00:00Z`)) / 86_400_000);
}

/** Age in days and as German text ('3 Jahre, 2 Monate', '5 Monate', '3 Wochen') on `today`. */
export function formatAge(dateOfBirth: string | null | undefined, today: string): { ageDays: number | null; ageText: string } {
  if (!dateOfBirth || !isIsoDate(dateOfBirth) || dateOfBirth > today) return { ageDays: null, ageText: "" };
  const [by, bm, bd] = dateOfBirth.split("-").map(Number);
  const [ty, tm, td] = today.split("-").map(Number);
  let months = (ty - by) * 12 + (tm - bm) - (td < bd ? 1 : 0);
  const ageDays = daysBetween(dateOfBirth, today);
  if (months < 1) {
    const weeks = Math.floor(ageDays / 7);
    return { ageDays, ageText: weeks >= 1 ? `${weeks} ${weeks === 1 ? "Woche" : "Wochen"}` : `${ageDays} ${ageDays === 1 ? "Tag" : "Tage"}` };
  }
  const years = Math.floor(months / 12);
  months %= 12;
  const yearText = years > 0 ? `${years} ${years === 1 ? "Jahr" : "Jahre"}` : "";
  const monthText = months > 0 ? `${months} ${months === 1 ? "Monat" : "Monate"}` : "";
  return { ageDays, ageText: [yearText, monthText].filter(Boolean).join(", ") };
}

/** Who created and last changed a record, and when: the audit block of the edit dialogs. */
export function auditText(record: { createdBy: string; createdOn: string; lastModifiedBy: string | null; lastModifiedOn: string | null }) {
  return {
    created: `${record.createdBy} am ${formatDateTimeWithSeconds(record.createdOn)}`,
    modified: record.lastModifiedBy ? `${record.lastModifiedBy} am ${formatDateTimeWithSeconds(record.lastModifiedOn)}` : "–",
  };
}

/** "1 Hund", "2 Hunde": a count with its noun in German. */
export const formatCount = (count: number, singular: string, plural: string) => `${formatNumber(count)} ${count === 1 ? singular : plural}`;

/** "a", "a und b", "a, b und c". */
export function joinGerman(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} und ${parts.at(-1)}`;
}
