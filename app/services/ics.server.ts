/**
 * iCalendar (RFC 5545): the subscribable calendar feeds of courses and trainers (Kalender-Abos).
 *
 * Written by ical-generator (CRLF, lines folded at 75 octets without splitting a UTF-8 character,
 * TEXT escaped) with the Europe/Berlin VTIMEZONE from timezones-ical-library; both are plain
 * JavaScript without Node imports, so they run in workerd. Two things the library leaves to us:
 * - workerd runs in UTC and ical-generator formats a plain Date with the runtime's local clock, so
 *   times go in as TZDate (@date-fns/tz) in Europe/Berlin: DTSTART;TZID=Europe/Berlin is the Berlin
 *   wall clock, the same 18:00 before and after the change to summer time.
 * - The calendar itself gets no default time zone (name null): with one, ical-generator would
 *   write DTSTAMP and LAST-MODIFIED as floating local times, where RFC 5545 wants UTC. The
 *   generator still writes the VTIMEZONE of every zone the events name.
 * - It writes the calendar's name (NAME, X-WR-CALNAME) unescaped: we escape it with its own TEXT
 *   escaping (tests/integration/calendar-feeds.test.ts notices if a newer version starts to).
 */
import { TZDate } from "@date-fns/tz";
import ical, { escape } from "ical-generator";
import { tzlib_get_ical_block } from "timezones-ical-library";
import { addDaysToDate, berlinDateOf, TIME_ZONE } from "~/lib/format";
import type { FeedDate } from "~/models/calendar-feeds.server";

/** How often a subscribed calendar should look again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
const REFRESH_SECONDS = 3600;
/** A date without an end lasts an hour (the date dialog's default duration). */
const DEFAULT_DURATION_MS = 3_600_000;

function vtimezone(zone: string): string | null {
  const block = tzlib_get_ical_block(zone);
  if (!Array.isArray(block) || !block[0]?.startsWith("BEGIN:VTIMEZONE")) throw new Error(`Keine Zeitzonen-Definition für ${zone}`);
  return block[0];
}

const berlin = (instant: string) => new TZDate(instant, TIME_ZONE);
const berlinDay = (isoDate: string) => {
  const [year, month, day] = isoDate.split("-").map(Number);
  return new TZDate(year, month - 1, day, TIME_ZONE);
};

/** 'Hundeplatz Am Stadtwald, Waldweg 3, 12345 Musterstadt' */
function locationText(date: Pick<FeedDate, "locationName" | "streetNumber" | "zip" | "city">): string {
  const place = [date.zip, date.city].filter(Boolean).join(" ");
  return [date.locationName, date.streetNumber, place].filter(Boolean).join(", ");
}

/** Trainer, co-trainer and the date's comment, one per line. */
function descriptionText(date: Pick<FeedDate, "trainerName" | "cotrainerName" | "comments">): string {
  return [date.trainerName && `Trainer: ${date.trainerName}`, date.cotrainerName && `Co-Trainer: ${date.cotrainerName}`, date.comments?.trim()]
    .filter(Boolean)
    .join("\n");
}

/** The whole feed: one VEVENT per course date, with a stable UID per date. */
export function courseDatesCalendar(name: string, dates: FeedDate[]): string {
  const calendar = ical({
    name: escape(name, false),
    prodId: { company: "Wuff", product: "Kalender-Abos", language: "DE" },
    scale: "gregorian",
    ttl: REFRESH_SECONDS,
    timezone: { name: null, generator: vtimezone },
  });
  for (const date of dates) {
    const end = date.endDateTime ?? new Date(Date.parse(date.startDateTime) + DEFAULT_DURATION_MS).toISOString();
    const startDay = berlinDateOf(date.startDateTime);
    // All-day: the Berlin calendar days, the end exclusive (RFC 5545 DATE values).
    const allDayEnd = addDaysToDate(berlinDateOf(end) > startDay ? berlinDateOf(end) : startDay, 1);
    const location = locationText(date);
    const description = descriptionText(date);
    const lastModified = new Date(date.lastModifiedOn);
    calendar.createEvent({
      id: `coursedate-${date.id}@wuff`,
      timezone: TIME_ZONE,
      allDay: date.isAllDay,
      start: date.isAllDay ? berlinDay(startDay) : berlin(date.startDateTime),
      end: date.isAllDay ? berlinDay(allDayEnd) : berlin(end),
      summary: date.courseName,
      location: location || null,
      description: description || null,
      // RFC 5545 starts at 0; rowVersion starts at 1 and counts every change of the date.
      sequence: Math.max(0, date.rowVersion - 1),
      // Without METHOD, DTSTAMP is when the information was last revised (RFC 5545 3.8.7.2).
      stamp: lastModified,
      lastModified,
    });
  }
  // RFC 5545 ends every content line with CRLF, the last one too; ical-generator omits that one.
  return `${calendar.toString()}\r\n`;
}
