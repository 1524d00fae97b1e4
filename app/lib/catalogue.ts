/**
 * The public course catalogue (issue 33 item 1, /kurse): which course is open for booking, its
 * weekdays, free places and requirements in words, and the filters of the page. Pure, shared by
 * the model (app/models/catalogue.server.ts) and the pages.
 */
import { berlinDateOf, formatCount, formatMonthYear } from "./format";

/** The weekdays a visitor filters by, Monday first (ISO numbers, as the URL carries them). */
export const WEEKDAYS = [
  { value: 1, label: "Montag" },
  { value: 2, label: "Dienstag" },
  { value: 3, label: "Mittwoch" },
  { value: 4, label: "Donnerstag" },
  { value: 5, label: "Freitag" },
  { value: 6, label: "Samstag" },
  { value: 7, label: "Sonntag" },
] as const;

/** The filters of the catalogue as the URL carries them (`?typ=3&tag=2`), and its page (`&seite=2`);
 *  anything else is no filter, and the first page. */
export type CatalogueFilter = { typeId: number | null; weekday: number | null; page: number };

/** Courses per page of the catalogue: a phone's screenful a few times over, and what a page costs stays bounded. */
export const CATALOGUE_PAGE_SIZE = 20;

const wholeNumberIn = (value: string | null, max: number) =>
  value !== null && /^\d{1,9}$/.test(value) && Number(value) >= 1 && Number(value) <= max ? Number(value) : null;

export function catalogueFilterOf(search: URLSearchParams): CatalogueFilter {
  return {
    typeId: wholeNumberIn(search.get("typ"), 999_999_999),
    weekday: wholeNumberIn(search.get("tag"), 7),
    page: wholeNumberIn(search.get("seite"), 9999) ?? 1,
  };
}

/**
 * Is a course open for booking at `now`? Its type is booked online and it is not finished; a
 * course of fixed dates until its first date begins (who comes later misses what the others
 * learnt), an open group (Fortlaufend) while it has a date to come.
 */
export function isOpenForBooking(
  course: { onlineBooking: boolean; statusCode: string; durationModel: string; firstStart: string | null; nextStart: string | null },
  now: string,
): boolean {
  if (!course.onlineBooking || course.statusCode === "FINISHED") return false;
  if (course.durationModel === "ONGOING") return course.nextStart !== null && course.nextStart >= now;
  return course.firstStart !== null && course.firstStart >= now;
}

/** The places left, never below zero; null: the course has no limit. */
export const freePlaces = (maxDogs: number | null, takingPart: number): number | null => (maxDogs === null ? null : Math.max(0, maxDogs - takingPart));

/** '3 Plätze frei', '1 Platz frei', 'Warteliste' when full, 'Plätze frei' without a limit. */
export function placesText(free: number | null): string {
  if (free === null) return "Plätze frei";
  return free === 0 ? "Warteliste" : `${formatCount(free, "Platz", "Plätze")} frei`;
}

export type Requirements = { minDogAgeWeeks: number | null; requiresRabies: boolean; requiresInsurance: boolean; priorCourseName: string | null };

/** What a dog must bring, in the words the catalogue shows them (empty: nothing). */
export function requirementTexts(requirements: Requirements): string[] {
  const texts: string[] = [];
  if (requirements.minDogAgeWeeks) texts.push(`Hund am ersten Termin mindestens ${formatCount(requirements.minDogAgeWeeks, "Woche", "Wochen")} alt`);
  if (requirements.requiresRabies) texts.push("Tollwutimpfung gültig an allen Terminen");
  if (requirements.requiresInsurance) texts.push("Hundehaftpflichtversicherung gültig an allen Terminen");
  if (requirements.priorCourseName) texts.push(`Vorher besucht: ${requirements.priorCourseName}`);
  return texts;
}

/** A course passes the filters: its type, and a date to come on the weekday. */
export function matchesFilter(course: { typeId: number; weekdays: number[] }, filter: CatalogueFilter): boolean {
  if (filter.typeId !== null && course.typeId !== filter.typeId) return false;
  return filter.weekday === null || course.weekdays.includes(filter.weekday);
}

/** Dates grouped by their month in Berlin ('Dezember 2026'), in the order given. */
export function monthsOf<T extends { start: string }>(dates: T[]): { key: string; label: string; dates: T[] }[] {
  const months: { key: string; label: string; dates: T[] }[] = [];
  for (const date of dates) {
    const key = berlinDateOf(date.start).slice(0, 7);
    if (months.at(-1)?.key !== key) months.push({ key, label: formatMonthYear(date.start), dates: [] });
    months.at(-1)!.dates.push(date);
  }
  return months;
}

/** The catalogue's address for a page of the same filters. */
export function cataloguePageHref(filter: CatalogueFilter, page: number): string {
  const search = new URLSearchParams();
  if (filter.typeId !== null) search.set("typ", String(filter.typeId));
  if (filter.weekday !== null) search.set("tag", String(filter.weekday));
  if (page > 1) search.set("seite", String(page));
  const query = search.toString();
  return query ? `/kurse?${query}` : "/kurse";
}
