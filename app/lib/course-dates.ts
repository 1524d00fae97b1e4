/**
 * The rules of a course date that browser and server share (spec 001 §4, §5, §9): the start
 * times on offer (07:00 to 22:00), the durations (0.75 to 4 hours), the end as start plus
 * duration, and a weekly series of dates.
 */
import { addDaysToDate, berlinWallClockToInstant } from "./format";

/** Start times every quarter of an hour from 07:00 to 22:00. */
export const TIME_CHOICES: readonly string[] = Array.from({ length: (22 - 7) * 4 + 1 }, (_, index) => {
  const minutes = 7 * 60 + index * 15;
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
});
export const TIME_OUT_OF_RANGE = "Bitte eine Uhrzeit zwischen 07:00 und 22:00 wählen";

/** Durations in hours, as the select offers them. */
export const DURATION_CHOICES = [
  { value: "0.75", label: "45 Minuten" },
  { value: "1", label: "1 Stunde" },
  { value: "1.5", label: "1,5 Stunden" },
  { value: "2", label: "2 Stunden" },
  { value: "2.5", label: "2,5 Stunden" },
  { value: "3", label: "3 Stunden" },
  { value: "4", label: "4 Stunden" },
] as const;
export const DEFAULT_DURATION = "1";
export const DURATION_NOT_OFFERED = "Bitte eine der angebotenen Dauern wählen";

export const isTimeChoice = (time: string) => TIME_CHOICES.includes(time);
export const isDurationChoice = (hours: string) => DURATION_CHOICES.some((choice) => choice.value === hours);

/** The end of a date: start plus duration (hours). */
export const endOf = (startInstant: string, hours: number) => new Date(Date.parse(startInstant) + hours * 3_600_000).toISOString();

/** The duration of a stored date in hours, as one of the choices ('1' when it is none of them). */
export function durationOf(startInstant: string, endInstant: string | null): string {
  if (!endInstant) return DEFAULT_DURATION;
  const hours = String((Date.parse(endInstant) - Date.parse(startInstant)) / 3_600_000);
  return isDurationChoice(hours) ? hours : DEFAULT_DURATION;
}

/** The longest series one dialog writes (a year of weekly dates). */
export const MAX_SERIES = 52;

/**
 * Weekly start instants from a Berlin calendar day and time: `count` dates, the days in `skip`
 * left out (the series goes on a week later instead), at the same local time across a change
 * between summer and winter time.
 */
export function weeklyStarts(firstDay: string, time: string, count: number, skip: readonly string[] = []): { day: string; start: string }[] {
  const [hour, minute] = time.split(":").map(Number);
  const starts: { day: string; start: string }[] = [];
  for (let week = 0; starts.length < count && week < count + skip.length; week++) {
    const day = addDaysToDate(firstDay, 7 * week);
    if (skip.includes(day)) continue;
    const [year, month, date] = day.split("-").map(Number);
    starts.push({ day, start: berlinWallClockToInstant(year, month, date, hour, minute) });
  }
  return starts;
}
