/**
 * The Kalender's pure helpers (no database, the same on server and client): which days a view
 * shows, the instants it covers, where Zurück / Weiter lead, its German title, and the course
 * dates laid out on the Berlin days they touch.
 *
 * Calendar days are 'YYYY-MM-DD' strings, taken as days in Europe/Berlin; date-fns computes on
 * TZDate in Berlin, so a view covers whole Berlin days across a change of summer time and the
 * runtime's own time zone (UTC in workerd, anything in a browser) plays no part.
 */
import { TZDate } from "@date-fns/tz";
import { addDays, addMonths, addWeeks, eachDayOfInterval, endOfMonth, endOfWeek, format, getISOWeek, startOfMonth, startOfWeek } from "date-fns";
import { de } from "date-fns/locale";
import { berlinDateOf, compareGerman, formatTime, isIsoDate, TIME_ZONE } from "./format";

export type CalendarView = "month" | "week" | "list";

/** The view switch, in its order. */
export const CALENDAR_VIEWS: readonly { value: CalendarView; label: string }[] = [
  { value: "month", label: "Monat" },
  { value: "week", label: "Woche" },
  { value: "list", label: "Liste" },
];

/** Outside these years a date in the URL is taken as made by hand: the calendar shows today. */
const FIRST_YEAR = 2000;
const LAST_YEAR = 2100;

const WEEK = { weekStartsOn: 1, locale: de } as const;

/** '2026-03-02' -> that day at midnight in Berlin. */
const dayDate = (day: string) => {
  const [year, month, date] = day.split("-").map(Number);
  return new TZDate(year, month - 1, date, TIME_ZONE);
};
const dayOf = (date: Date) => format(date, "yyyy-MM-dd");

/** The view and the day of the URL (?view=month|week|list&date=YYYY-MM-DD); anything else falls back to the month of today. */
export function calendarParams(search: URLSearchParams, today: string): { view: CalendarView; date: string } {
  const view = search.get("view");
  const date = search.get("date") ?? "";
  const year = Number(date.slice(0, 4));
  return {
    view: CALENDAR_VIEWS.some((option) => option.value === view) ? (view as CalendarView) : "month",
    date: isIsoDate(date) && year >= FIRST_YEAR && year <= LAST_YEAR ? date : today,
  };
}

/** Every day of the month of `day`. */
export function monthDays(day: string): string[] {
  const date = dayDate(day);
  return eachDayOfInterval({ start: startOfMonth(date), end: endOfMonth(date) }).map(dayOf);
}

/** The month grid of `day`: whole weeks, Monday to Sunday, from the week of the 1st to the week of the last day (28 to 42 days). */
export function monthGridDays(day: string): string[] {
  const date = dayDate(day);
  return eachDayOfInterval({ start: startOfWeek(startOfMonth(date), WEEK), end: endOfWeek(endOfMonth(date), WEEK) }).map(dayOf);
}

/** The week of `day`, Monday to Sunday. */
export function weekDays(day: string): string[] {
  const monday = startOfWeek(dayDate(day), WEEK);
  return Array.from({ length: 7 }, (_, index) => dayOf(addDays(monday, index)));
}

/** The days a view lays out: the month grid (whole weeks), the week, or the month as a list. */
const viewDays = (view: CalendarView, day: string) => (view === "week" ? weekDays(day) : view === "month" ? monthGridDays(day) : monthDays(day));

/** The days a view is about (its title): the week, else the month. */
const periodDays = (view: CalendarView, day: string) => (view === "week" ? weekDays(day) : monthDays(day));

/** The UTC instant at which a Berlin day begins. */
const startOfBerlinDay = (day: string) => new Date(dayDate(day).getTime()).toISOString();

/** The instants [from, to) a view covers: from the start of its first day to the start of the day after its last. */
export function viewRange(view: CalendarView, day: string): { from: string; to: string } {
  const days = viewDays(view, day);
  return { from: startOfBerlinDay(days[0]), to: startOfBerlinDay(dayOf(addDays(dayDate(days.at(-1)!), 1))) };
}

/** Where Zurück (-1) and Weiter (+1) lead: the 1st of the month before / after, or the Monday of the week before / after. */
export function shiftDate(view: CalendarView, day: string, step: number): string {
  const date = dayDate(day);
  return dayOf(view === "week" ? addWeeks(startOfWeek(date, WEEK), step) : addMonths(startOfMonth(date), step));
}

/** 'März 2026', or for a week 'KW 10 · Mo 02.03.–So 08.03.2026' (both years when it spans two). */
export function periodTitle(view: CalendarView, day: string): string {
  const date = dayDate(day);
  if (view !== "week") return format(date, "LLLL yyyy", { locale: de });
  const [first, last] = [startOfWeek(date, WEEK), endOfWeek(date, WEEK)];
  const sameYear = first.getFullYear() === last.getFullYear();
  return `KW ${getISOWeek(date)} · ${format(first, sameYear ? "EEEEEE dd.MM." : "EEEEEE dd.MM.yyyy", { locale: de })}–${format(last, "EEEEEE dd.MM.yyyy", { locale: de })}`;
}

/** The weekday headers: Mo Di Mi Do Fr Sa So, with the full names (for <abbr title>). */
export const WEEKDAYS: readonly { short: string; long: string }[] = weekDays("2026-03-02").map((day) => ({
  short: format(dayDate(day), "EEEEEE", { locale: de }),
  long: format(dayDate(day), "EEEE", { locale: de }),
}));

/** '18:00–19:30' (Berlin time), just the start without an end, or 'ganztägig'. */
export function timeRangeText(date: { startDateTime: string; endDateTime: string | null; isAllDay: boolean }): string {
  if (date.isAllDay) return "ganztägig";
  return date.endDateTime ? `${formatTime(date.startDateTime)}–${formatTime(date.endDateTime)}` : formatTime(date.startDateTime);
}

/**
 * The course colours: light backgrounds with dark text of the same hue (contrast above 7:1) and a
 * strong left border, so a course is recognisable at a glance. The course name is always written:
 * colour is never the only cue. Literal class names, so Tailwind finds them.
 */
export const COURSE_COLORS: readonly string[] = [
  "border-sky-600 bg-sky-50 text-sky-950",
  "border-amber-600 bg-amber-50 text-amber-950",
  "border-emerald-600 bg-emerald-50 text-emerald-950",
  "border-rose-600 bg-rose-50 text-rose-950",
  "border-violet-600 bg-violet-50 text-violet-950",
  "border-teal-600 bg-teal-50 text-teal-950",
  "border-orange-600 bg-orange-50 text-orange-950",
  "border-indigo-600 bg-indigo-50 text-indigo-950",
];

/** A course's colour: the same for the same course id, wherever and whenever it is shown. */
export const courseColor = (courseId: number) => COURSE_COLORS[Math.abs(Math.trunc(courseId)) % COURSE_COLORS.length];

/** A course date as the model reads it for the calendar. */
export type CalendarDateRow = {
  id: number;
  courseId: number;
  courseName: string;
  startDateTime: string;
  endDateTime: string | null;
  isAllDay: boolean;
  location: string | null;
  trainerName: string | null;
};

export type CalendarEntry = {
  id: number;
  courseId: number;
  courseName: string;
  location: string | null;
  trainerName: string | null;
  time: string;
  color: string;
};

export type CalendarDay = {
  day: string;
  /** '2' */
  dayNumber: string;
  /** 'Montag, 2. März 2026' */
  label: string;
  /** 'Mo 02.03.' */
  short: string;
  /** In the month (or week) the view is about; the month grid's leading and trailing days are not. */
  inPeriod: boolean;
  isToday: boolean;
  entries: CalendarEntry[];
};

/** The Berlin days a date touches: its start day to the day of its end (an end at midnight belongs to the day before). */
export function daysOfDate(date: { startDateTime: string; endDateTime: string | null }): string[] {
  const first = berlinDateOf(date.startDateTime);
  const end = date.endDateTime && date.endDateTime > date.startDateTime ? new Date(Date.parse(date.endDateTime) - 1) : null;
  const last = end ? berlinDateOf(end) : first;
  if (last <= first) return [first];
  return eachDayOfInterval({ start: dayDate(first), end: dayDate(last) }).map(dayOf);
}

export type CalendarData = {
  view: CalendarView;
  date: string;
  today: string;
  title: string;
  previous: string;
  next: string;
  /** The laid-out days in weeks of seven (month grid, week); empty for the list. */
  weeks: CalendarDay[][];
  /** The days of the period that have dates: the list (and the month and week on a phone). */
  listDays: CalendarDay[];
  /** How many dates the period holds. */
  total: number;
};

/** The whole calendar of a view: its days with their dates (all-day first, then by time), title and navigation. */
export function buildCalendar({
  view,
  date,
  today,
  rows,
}: {
  view: CalendarView;
  date: string;
  today: string;
  rows: readonly CalendarDateRow[];
}): CalendarData {
  const period = new Set(periodDays(view, date));
  const days: CalendarDay[] = viewDays(view, date).map((day) => {
    const value = dayDate(day);
    return {
      day,
      dayNumber: format(value, "d"),
      label: format(value, "EEEE, d. MMMM yyyy", { locale: de }),
      short: format(value, "EEEEEE dd.MM.", { locale: de }),
      inPeriod: period.has(day),
      isToday: day === today,
      entries: [],
    };
  });
  const byDay = new Map(days.map((day) => [day.day, day]));
  const sorted = [...rows].sort(
    (a, b) =>
      Number(b.isAllDay) - Number(a.isAllDay) || a.startDateTime.localeCompare(b.startDateTime) || compareGerman(a.courseName, b.courseName) || a.id - b.id,
  );
  const counted = new Set<number>();
  for (const row of sorted) {
    for (const day of daysOfDate(row)) {
      const target = byDay.get(day);
      if (!target) continue;
      target.entries.push({
        id: row.id,
        courseId: row.courseId,
        courseName: row.courseName,
        location: row.location,
        trainerName: row.trainerName,
        time: timeRangeText(row),
        color: courseColor(row.courseId),
      });
      if (target.inPeriod) counted.add(row.id);
    }
  }
  const weeks = view === "list" ? [] : Array.from({ length: days.length / 7 }, (_, week) => days.slice(week * 7, week * 7 + 7));
  return {
    view,
    date,
    today,
    title: periodTitle(view, date),
    previous: shiftDate(view, date, -1),
    next: shiftDate(view, date, 1),
    weeks,
    listDays: days.filter((day) => day.inPeriod && day.entries.length > 0),
    total: counted.size,
  };
}
