/**
 * All queries and writes of the calendar feeds (Kalender-Abos): the secret token of a course's or
 * a trainer's ICS feed, and the course dates a feed holds.
 *
 * A token is 256 random bits from crypto.getRandomValues, base64url (43 characters). It is handed
 * out once, when it is made, and only its SHA-256 is kept (as for sessions), so a copy of the
 * database yields no working feed address; a request is looked up by the hash of the token it
 * brings. Renewing replaces the hash in one statement, so the old address stops working at once.
 */
import { and, asc, eq, gte, ne, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { CALENDAR_FEED_KINDS, calendarFeeds, courseDates, courses, locations, people, type CalendarFeedKind } from "~/db/schema";
import { auditInsert, type Actor } from "./audit.server";
import { randomToken, sha256Base64Url } from "~/lib/bytes";

const trainers = alias(people, "trainers");
const cotrainers = alias(people, "cotrainers");

/** The shape of every token Wuff hands out: anything else is not looked up at all. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new feed token: 256 bits from the platform's CSPRNG. */
const newFeedToken = randomToken;

const hashOf = sha256Base64Url;

export { CALENDAR_FEED_KINDS, type CalendarFeedKind };

export type CalendarFeedRef = { kind: CalendarFeedKind; subjectId: number };

/** The feed a token opens, or null (malformed, unknown or renewed token). */
export async function findCalendarFeed(db: Db, token: string): Promise<CalendarFeedRef | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  // The database compares hashes only: what it sees tells nothing about a token, and a lookup
  // that fails by timing learns nothing about a valid one.
  const [row] = await db
    .select({ kind: calendarFeeds.kind, subjectId: calendarFeeds.subjectId })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.tokenHash, await hashOf(token)));
  return row ?? null;
}

/** A subject of the screen; hasFeed: a link was made (its address can no longer be shown). */
export type FeedSubject = { kind: CalendarFeedKind; id: number; name: string; hasFeed: boolean; lastModifiedOn: string | null };

/** What the Kalender-Abos screen lists: the current courses (not FINISHED) and the trainers, each saying whether it has a link and since when. */
export async function listFeedSubjects(db: Db): Promise<{ courses: FeedSubject[]; trainers: FeedSubject[] }> {
  const [courseRows, trainerRows] = await db.batch([
    db
      .select({
        id: courses.id,
        name: courses.name,
        startYear: courses.startYear,
        feedId: sql<number | null>`${calendarFeeds.id}`.as("feed_id"),
        lastModifiedOn: sql<string | null>`coalesce(${calendarFeeds.lastModifiedOn}, ${calendarFeeds.createdOn})`.as("feed_modified_on"),
      })
      .from(courses)
      .leftJoin(calendarFeeds, and(eq(calendarFeeds.kind, "COURSE"), eq(calendarFeeds.subjectId, courses.id)))
      .where(ne(courses.statusCode, "FINISHED"))
      .orderBy(sql`${courses.startYear} DESC`, sql`${courses.name} COLLATE NOCASE`, asc(courses.id)),
    db
      .select({
        id: people.id,
        name: sql<string>`${people.fullName}`,
        feedId: sql<number | null>`${calendarFeeds.id}`.as("feed_id"),
        lastModifiedOn: sql<string | null>`coalesce(${calendarFeeds.lastModifiedOn}, ${calendarFeeds.createdOn})`.as("feed_modified_on"),
      })
      .from(people)
      .leftJoin(calendarFeeds, and(eq(calendarFeeds.kind, "TRAINER"), eq(calendarFeeds.subjectId, people.id)))
      .where(eq(people.isTrainer, true))
      .orderBy(asc(people.lastNameKey), asc(people.firstNameKey), asc(people.id)),
  ]);
  return {
    courses: courseRows.map((row) => ({
      kind: "COURSE",
      id: row.id,
      name: courseLabel(row.name, row.startYear),
      hasFeed: row.feedId !== null,
      lastModifiedOn: row.lastModifiedOn,
    })),
    trainers: trainerRows.map((row) => ({
      kind: "TRAINER",
      id: row.id,
      name: row.name,
      hasFeed: row.feedId !== null,
      lastModifiedOn: row.lastModifiedOn,
    })),
  };
}

/** 'Welpengruppe 2026'; a name that already names its year keeps it once. */
const courseLabel = (name: string, startYear: number) => (name.includes(String(startYear)) ? name : `${name} ${startYear}`);

/** A subject the screen offers a feed for (a course not FINISHED, a trainer), by name; undefined otherwise. */
export async function offeredFeedSubject(db: Db, kind: CalendarFeedKind, id: number): Promise<{ name: string } | undefined> {
  if (kind === "COURSE") {
    const [row] = await db
      .select({ name: courses.name, startYear: courses.startYear })
      .from(courses)
      .where(and(eq(courses.id, id), ne(courses.statusCode, "FINISHED")));
    return row ? { name: courseLabel(row.name, row.startYear) } : undefined;
  }
  const [row] = await db
    .select({ name: sql<string>`${people.fullName}` })
    .from(people)
    .where(and(eq(people.id, id), eq(people.isTrainer, true)));
  return row;
}

/**
 * Creates the feed of a subject, or gives it a new token (the old one stops working with this very
 * statement). Returns the token, the only time it exists outside the caller's subscription: only
 * its hash is stored. created: whether there was none before.
 */
export async function renewCalendarFeed(
  db: Db,
  { kind, subjectId }: CalendarFeedRef,
  actor: Actor,
  now = new Date(),
): Promise<{ token: string; created: boolean }> {
  const token = newFeedToken();
  const tokenHash = await hashOf(token);
  const [row] = await db
    .insert(calendarFeeds)
    .values({ kind, subjectId, tokenHash, ...auditInsert(actor, now) })
    .onConflictDoUpdate({
      target: [calendarFeeds.kind, calendarFeeds.subjectId],
      set: { tokenHash, lastModifiedBy: actor.name, lastModifiedOn: now.toISOString(), rowVersion: sql`${calendarFeeds.rowVersion} + 1` },
    })
    .returning({ rowVersion: calendarFeeds.rowVersion });
  return { token, created: row.rowVersion === 1 };
}

/** One course date as a feed shows it. */
export type FeedDate = {
  id: number;
  courseName: string;
  startDateTime: string;
  endDateTime: string | null;
  isAllDay: boolean;
  comments: string | null;
  rowVersion: number;
  /** The later change of the date and of its course (UTC ISO). */
  lastModifiedOn: string;
  locationName: string | null;
  streetNumber: string | null;
  zip: string | null;
  city: string | null;
  trainerName: string | null;
  cotrainerName: string | null;
};

/** How far back a feed reaches: the dates of the last 12 months, and every future one. */
export function feedCutoff(now: Date): string {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - 1);
  return cutoff.toISOString();
}

const latest = (...values: (string | null)[]) =>
  values
    .filter((value): value is string => value !== null)
    .sort()
    .at(-1)!;

/**
 * The title's subject and the dates of a feed from `cutoff` on, in date order; null when its
 * course or trainer no longer exists (or the person is no longer a trainer).
 */
export async function calendarFeedDates(db: Db, feed: CalendarFeedRef, cutoff: string): Promise<{ subject: string; dates: FeedDate[] } | null> {
  const subjectQuery =
    feed.kind === "COURSE"
      ? db
          .select({ name: courses.name, startYear: sql<number | null>`${courses.startYear}` })
          .from(courses)
          .where(eq(courses.id, feed.subjectId))
      : db
          .select({ name: sql<string>`${people.fullName}`, startYear: sql<number | null>`NULL` })
          .from(people)
          .where(and(eq(people.id, feed.subjectId), eq(people.isTrainer, true)));
  const whose =
    feed.kind === "COURSE" ? eq(courseDates.courseId, feed.subjectId) : or(eq(courses.trainerId, feed.subjectId), eq(courses.cotrainerId, feed.subjectId));
  const [[subject], rows] = await db.batch([
    subjectQuery,
    db
      .select({
        id: courseDates.id,
        // D1 batches return rows keyed by column name: every 'name' gets an alias of its own.
        courseName: sql<string>`${courses.name}`.as("course_name"),
        startDateTime: courseDates.startDateTime,
        endDateTime: courseDates.endDateTime,
        isAllDay: courseDates.isAllDay,
        comments: courseDates.comments,
        rowVersion: courseDates.rowVersion,
        dateModifiedOn: sql<string>`coalesce(${courseDates.lastModifiedOn}, ${courseDates.createdOn})`.as("date_modified_on"),
        courseModifiedOn: sql<string>`coalesce(${courses.lastModifiedOn}, ${courses.createdOn})`.as("course_modified_on"),
        locationName: sql<string | null>`${locations.name}`.as("location_name"),
        streetNumber: locations.streetNumber,
        zip: locations.zip,
        city: locations.city,
        trainerName: sql<string | null>`${trainers.fullName}`.as("trainer_name"),
        cotrainerName: sql<string | null>`${cotrainers.fullName}`.as("cotrainer_name"),
      })
      .from(courseDates)
      .innerJoin(courses, eq(courses.id, courseDates.courseId))
      // A date without a location of its own takes place at its course's.
      .leftJoin(locations, eq(locations.id, sql`coalesce(${courseDates.locationId}, ${courses.locationId})`))
      .leftJoin(trainers, eq(trainers.id, courses.trainerId))
      .leftJoin(cotrainers, eq(cotrainers.id, courses.cotrainerId))
      .where(and(whose, gte(courseDates.startDateTime, cutoff)))
      .orderBy(asc(courseDates.startDateTime), asc(courseDates.id)),
  ]);
  if (!subject) return null;
  return {
    subject: subject.startYear !== null ? courseLabel(subject.name, subject.startYear) : subject.name,
    dates: rows.map(({ dateModifiedOn, courseModifiedOn, ...row }) => ({ ...row, lastModifiedOn: latest(dateModifiedOn, courseModifiedOn) })),
  };
}
