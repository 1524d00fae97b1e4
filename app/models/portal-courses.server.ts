/**
 * Mein Wuff, Meine Kurse (issue 32 item 5): a person's own course bookings, their next dates and
 * attendance, cancelling one within the course type's cut-off (rules in app/lib/portal-courses.ts),
 * and the person's own calendar feed. Every query here is asked with the person's id and filters
 * by it: someone else's booking answers as if it did not exist.
 */
import { and, asc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { courseDates, courseMasters, courseMemberships, courses, dogs, locations, membershipStatuses, people, portalCalendarFeeds } from "~/db/schema";
import { randomToken, sha256Base64Url } from "~/lib/bytes";
import { attendanceText, takesPart } from "~/lib/attendance";
import { berlinMidnight, todayInBerlin } from "~/lib/format";
import { cancelState, type CancelState } from "~/lib/portal-courses";
import type { Actor } from "./audit.server";
import { attendedCount, heldCount, heldUntil } from "./attendances.server";
import { cancelMembership } from "./course-memberships.server";
import { courseStart } from "./courses.server";
import type { FeedDate } from "./calendar-feeds.server";
import { isTokenShaped } from "./portal-auth.server";
import { openOffersOf } from "./waitlist.server";

/** The next dates shown per course; the calendar feed has them all. */
const NEXT_DATES_SHOWN = 5;

export type NextDate = { id: number; startDateTime: string; endDateTime: string | null; isAllDay: boolean; location: string | null };

export type OwnBooking = {
  id: number;
  rowVersion: number;
  courseName: string;
  courseFinished: boolean;
  dogName: string;
  status: string;
  /** Takes part (not on the Warteliste, not Abgemeldet). */
  takesPart: boolean;
  courseStart: string | null;
  /** '3 von 5': dates attended of the dates held so far; empty before the first date or when not taking part. */
  attendance: string;
  nextDates: NextDate[];
  /** How many more coming dates there are beyond those shown. */
  moreDates: number;
  cancel: CancelState;
  /** A freed place offered from the waiting list, open until `expiresOn` (issue 33 item 3). */
  offer: { id: number; courseId: number; expiresOn: string } | null;
};

const bookingColumns = (heldBy: string) => ({
  id: courseMemberships.id,
  rowVersion: courseMemberships.rowVersion,
  courseId: courseMemberships.courseId,
  // D1 batches key rows by column name: every 'name' gets an alias of its own.
  courseName: sql<string>`${courses.name}`.as("course_name"),
  courseStatusCode: courses.statusCode,
  dogName: sql<string>`${dogs.commonName}`.as("dog_name"),
  status: sql<string>`${membershipStatuses.name}`.as("status_name"),
  statusCode: sql<string>`${membershipStatuses.code}`.as("membership_status_code"),
  cancelDays: courseMasters.portalCancelDays,
  courseStart: courseStart(courseMemberships.courseId).as("course_start"),
  attended: attendedCount(courseMemberships, heldBy).as("attended"),
  held: heldCount(courseMemberships, heldBy).as("held"),
});

/** The person's bookings with the course's state and its cancellation inputs; `id` limits it to one. */
function bookingsOf(db: Db, personId: number, heldBy: string, id?: number) {
  return db
    .select(bookingColumns(heldBy))
    .from(courseMemberships)
    .innerJoin(courses, eq(courses.id, courseMemberships.courseId))
    .innerJoin(dogs, eq(dogs.id, courseMemberships.dogId))
    .innerJoin(membershipStatuses, eq(membershipStatuses.id, courseMemberships.statusId))
    .leftJoin(courseMasters, eq(courseMasters.id, courses.courseMasterId))
    .where(and(eq(courseMemberships.personId, personId), id === undefined ? undefined : eq(courseMemberships.id, id)))
    .orderBy(sql`${courses.statusCode} = 'FINISHED'`, sql`course_start DESC NULLS LAST`, asc(courses.name), asc(dogs.commonNameKey), asc(courseMemberships.id));
}

/**
 * The person's course bookings, current courses first (newest start first), each with its dog,
 * status, attendance so far, the next dates from today (Berlin) and whether it can be cancelled.
 */
export async function ownBookings(db: Db, personId: number, now = new Date()): Promise<OwnBooking[]> {
  const today = todayInBerlin(now);
  const [rows, offers] = await Promise.all([bookingsOf(db, personId, heldUntil(today)), openOffersOf(db, personId, now)]);
  const courseIds = [...new Set(rows.filter((row) => row.courseStatusCode !== "FINISHED").map((row) => row.courseId))];
  const dates =
    courseIds.length === 0
      ? []
      : await db
          .select({
            id: courseDates.id,
            courseId: courseDates.courseId,
            startDateTime: courseDates.startDateTime,
            endDateTime: courseDates.endDateTime,
            isAllDay: courseDates.isAllDay,
            location: locations.name,
          })
          .from(courseDates)
          .innerJoin(courses, eq(courses.id, courseDates.courseId))
          // A date without a location of its own takes place at its course's.
          .leftJoin(locations, eq(locations.id, sql`coalesce(${courseDates.locationId}, ${courses.locationId})`))
          .where(and(inArray(courseDates.courseId, courseIds), gte(courseDates.startDateTime, berlinMidnight(today))))
          .orderBy(asc(courseDates.startDateTime), asc(courseDates.id));
  return rows.map((row) => {
    const coming = row.courseStatusCode === "FINISHED" ? [] : dates.filter((date) => date.courseId === row.courseId);
    const participates = takesPart(row.statusCode);
    return {
      id: row.id,
      rowVersion: row.rowVersion,
      courseName: row.courseName,
      courseFinished: row.courseStatusCode === "FINISHED",
      dogName: row.dogName,
      status: row.status,
      takesPart: participates,
      courseStart: row.courseStart,
      attendance: participates || row.attended > 0 ? attendanceText(row.attended, row.held) : "",
      nextDates: coming.slice(0, NEXT_DATES_SHOWN).map(({ courseId: _courseId, ...date }) => ({ ...date, isAllDay: Boolean(date.isAllDay) })),
      moreDates: Math.max(0, coming.length - NEXT_DATES_SHOWN),
      cancel: cancelState(row, today, now),
      offer: offers.has(row.id) ? { ...offers.get(row.id)!, courseId: row.courseId } : null,
    };
  });
}

export type CancelOutcome =
  { status: "cancelled"; courseName: string; dogName: string } | { status: "missing" } | { status: "refused"; message: string } | { status: "changed" };

/**
 * Cancels one of the person's bookings if its course type allows it now (`rowVersion`: the booking
 * as the page showed it). Someone else's or an unknown booking is 'missing'; the status becomes
 * Abgemeldet the way staff set it, and the course fee is left to staff (home page card).
 */
export async function cancelOwnBooking(
  db: Db,
  input: { personId: number; membershipId: number; rowVersion: number },
  actor: Actor,
  now = new Date(),
): Promise<CancelOutcome> {
  const today = todayInBerlin(now);
  const [row] = await bookingsOf(db, input.personId, heldUntil(today), input.membershipId);
  if (!row) return { status: "missing" };
  const state = cancelState(row, today, now);
  if (state.state === "cancelled") return { status: "refused", message: "Diese Buchung ist bereits storniert." };
  if (state.state === "closed") return { status: "refused", message: state.reason };
  if (row.rowVersion !== input.rowVersion) return { status: "changed" };
  const done = await cancelMembership(db, row.id, { personId: input.personId, rowVersion: input.rowVersion }, actor, now);
  return done ? { status: "cancelled", courseName: row.courseName, dogName: row.dogName } : { status: "changed" };
}

// ---------------------------------------------------------------------------------------------
// The person's calendar feed

/** Since when the person's calendar address exists, or null when there is none. */
export async function ownFeedSince(db: Db, personId: number): Promise<string | null> {
  const [row] = await db.select({ createdOn: portalCalendarFeeds.createdOn }).from(portalCalendarFeeds).where(eq(portalCalendarFeeds.personId, personId));
  return row?.createdOn ?? null;
}

/**
 * A new calendar address for the person (256 random bits); an older one stops working with this
 * very statement. Only the hash is stored: the token is shown once, in the answer.
 */
export async function renewOwnFeed(db: Db, personId: number, now = new Date()): Promise<string> {
  const token = randomToken();
  const tokenHash = await sha256Base64Url(token);
  const createdOn = now.toISOString();
  await db
    .insert(portalCalendarFeeds)
    .values({ personId, tokenHash, createdOn })
    .onConflictDoUpdate({ target: portalCalendarFeeds.personId, set: { tokenHash, createdOn } });
  return token;
}

/** Withdraws the person's calendar address: it answers 404 from now on. */
export async function revokeOwnFeed(db: Db, personId: number): Promise<void> {
  await db.delete(portalCalendarFeeds).where(eq(portalCalendarFeeds.personId, personId));
}

/** The person a calendar token belongs to (existing and not erased), or null. */
export async function findOwnFeed(db: Db, token: string): Promise<number | null> {
  if (!isTokenShaped(token)) return null;
  const [row] = await db
    .select({ personId: people.id })
    .from(portalCalendarFeeds)
    .innerJoin(people, eq(people.id, portalCalendarFeeds.personId))
    .where(and(eq(portalCalendarFeeds.tokenHash, await sha256Base64Url(token)), isNull(people.erasedOn)));
  return row?.personId ?? null;
}

/**
 * The dates of the courses the person takes part in (not Warteliste, not Abgemeldet), from
 * `cutoff` on, for their feed: course and dogs, time, place. Neither trainers nor the dates'
 * comments (staff notes) nor anything of other participants. `courseId`: of that course only
 * (the dates of a booking's confirmation).
 */
export async function ownFeedDates(db: Db, personId: number, cutoff: string, courseId?: number): Promise<FeedDate[]> {
  const rows = await db
    .select({
      id: courseDates.id,
      courseName: sql<string>`${courses.name}`.as("course_name"),
      dogNames: sql<string>`(SELECT group_concat(common_name, ', ') FROM (SELECT DISTINCT g.common_name FROM ${courseMemberships} m
        JOIN ${dogs} g ON g.id = m.dog_id JOIN ${membershipStatuses} s ON s.id = m.status_id
        WHERE m.course_id = ${courses.id} AND m.person_id = ${personId} AND s.code NOT IN ('WAITLIST', 'CANCELLED') ORDER BY g.common_name))`.as("dog_names"),
      startDateTime: courseDates.startDateTime,
      endDateTime: courseDates.endDateTime,
      isAllDay: courseDates.isAllDay,
      rowVersion: courseDates.rowVersion,
      dateModifiedOn: sql<string>`coalesce(${courseDates.lastModifiedOn}, ${courseDates.createdOn})`.as("date_modified_on"),
      courseModifiedOn: sql<string>`coalesce(${courses.lastModifiedOn}, ${courses.createdOn})`.as("course_modified_on"),
      locationName: sql<string | null>`${locations.name}`.as("location_name"),
      streetNumber: locations.streetNumber,
      zip: locations.zip,
      city: locations.city,
    })
    .from(courseDates)
    .innerJoin(courses, eq(courses.id, courseDates.courseId))
    .leftJoin(locations, eq(locations.id, sql`coalesce(${courseDates.locationId}, ${courses.locationId})`))
    .where(
      and(
        gte(courseDates.startDateTime, cutoff),
        courseId === undefined ? undefined : eq(courseDates.courseId, courseId),
        sql`EXISTS (SELECT 1 FROM ${courseMemberships} m JOIN ${membershipStatuses} s ON s.id = m.status_id
          WHERE m.course_id = ${courseDates.courseId} AND m.person_id = ${personId} AND s.code NOT IN ('WAITLIST', 'CANCELLED'))`,
      ),
    )
    .orderBy(asc(courseDates.startDateTime), asc(courseDates.id));
  return rows.map(({ dogNames, dateModifiedOn, courseModifiedOn, ...row }) => ({
    ...row,
    isAllDay: Boolean(row.isAllDay),
    courseName: dogNames ? `${row.courseName} (${dogNames})` : row.courseName,
    comments: null,
    trainerName: null,
    cotrainerName: null,
    lastModifiedOn: dateModifiedOn > courseModifiedOn ? dateModifiedOn : courseModifiedOn,
  }));
}
