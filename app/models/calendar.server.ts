/**
 * The Kalender's query: the course dates of a view's instants, with what the calendar writes on
 * each (course, location, trainer). One statement, so one round trip to D1 (and it shares the
 * session lookup's round trip when the loader starts it with readForUser).
 */
import { and, asc, eq, gt, gte, lt, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { courseDates, courses, locations, people } from "~/db/schema";
import type { CalendarDateRow } from "~/lib/calendar";

/**
 * Every course date overlapping [from, to) (UTC ISO instants): it starts before `to` and starts at
 * or after `from` or is still running then. Ordered by start, course name, id.
 */
export async function listCalendarDates(db: Db, range: { from: string; to: string }): Promise<CalendarDateRow[]> {
  return db
    .select({
      id: courseDates.id,
      courseId: courseDates.courseId,
      courseName: courses.name,
      startDateTime: courseDates.startDateTime,
      endDateTime: courseDates.endDateTime,
      isAllDay: courseDates.isAllDay,
      location: sql<string | null>`${locations.name}`.as("location_name"),
      trainerName: sql<string | null>`${people.fullName}`.as("trainer_name"),
    })
    .from(courseDates)
    .innerJoin(courses, eq(courses.id, courseDates.courseId))
    .leftJoin(locations, eq(locations.id, courseDates.locationId))
    .leftJoin(people, eq(people.id, courses.trainerId))
    .where(and(lt(courseDates.startDateTime, range.to), or(gte(courseDates.startDateTime, range.from), gt(courseDates.endDateTime, range.from))))
    .orderBy(asc(courseDates.startDateTime), sql`${courses.name} COLLATE NOCASE`, asc(courseDates.id));
}
