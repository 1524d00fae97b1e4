/**
 * All queries and writes of course dates (Termine, Kursdaten). A date's end is always its start
 * plus its duration; a series of weekly dates is written in one atomic batch.
 */
import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { SQLiteSelect } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { attendances, courseDates, courses, locations } from "~/db/schema";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { auditInsert, updateVersioned, type Actor, type UpdateOutcome } from "./audit.server";
import { pageOfPosition, positionInOrder, sortKey, type SortKey } from "./paging.server";
import type { DeleteOutcome } from "./people.server";
import { moveToBin } from "./recycle-bin.server";
import { attendanceCapture } from "./attendances.server";

const columns = {
  id: courseDates.id,
  courseId: courseDates.courseId,
  courseName: sql<string>`${courses.name}`.as("course_name"),
  startYear: courses.startYear,
  startDateTime: courseDates.startDateTime,
  endDateTime: courseDates.endDateTime,
  isAllDay: courseDates.isAllDay,
  locationId: courseDates.locationId,
  location: sql<string | null>`${locations.name}`.as("location_name"),
  comments: courseDates.comments,
};

export type CourseDateRow = {
  id: number;
  courseId: number;
  courseName: string;
  startYear: number;
  startDateTime: string;
  endDateTime: string | null;
  isAllDay: boolean;
  locationId: number | null;
  location: string | null;
  comments: string | null;
};

/** A course's dates, or every date; `grouped` (the PARENT list) keeps each course's dates together. */
export type CourseDateQuery = { courseId?: number; grouped: boolean; sort: SortSpec };

const SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${courseDates.id}`),
  startDateTime: sortKey(sql`${courseDates.startDateTime}`),
  endDateTime: sortKey(sql`${courseDates.endDateTime}`),
  courseName: sortKey(sql`${courses.name} COLLATE NOCASE`),
  startYear: sortKey(sql`${courses.startYear}`),
  location: sortKey(sql`${locations.name} COLLATE NOCASE`),
  comments: sortKey(sql`${courseDates.comments}`),
};
export const COURSE_DATE_DEFAULT_SORT: SortSpec = { id: "startDateTime", descending: false };

function orderBy({ grouped, sort }: Pick<CourseDateQuery, "grouped" | "sort">): SQL[] {
  const byGroup = grouped ? [sql`${courses.name} COLLATE NOCASE`, asc(courses.startYear), asc(courses.id)] : [];
  return [...byGroup, (SORTS[sort.id] ?? SORTS.startDateTime)(sort.descending), asc(courseDates.startDateTime), asc(courseDates.id)];
}

const where = ({ courseId }: Pick<CourseDateQuery, "courseId">) => (courseId ? eq(courseDates.courseId, courseId) : undefined);

function joined<Query extends SQLiteSelect>(select: Query, query: Pick<CourseDateQuery, "courseId">) {
  return select.innerJoin(courses, eq(courses.id, courseDates.courseId)).leftJoin(locations, eq(locations.id, courseDates.locationId)).where(where(query));
}

export async function listCourseDates(db: Db, query: CourseDateQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const [rows, [{ total }]] = await db.batch([
    joined(db.select(columns).from(courseDates).$dynamic(), query)
      .orderBy(...orderBy(query))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db.select({ total: count() }).from(courseDates).where(where(query)),
  ]);
  return { rows: rows as CourseDateRow[], total };
}

export async function pageOfCourseDate(db: Db, id: number, query: CourseDateQuery, pageSize = PAGE_SIZE) {
  const ordered = joined(
    db
      .select({ id: courseDates.id, position: positionInOrder(orderBy(query)) })
      .from(courseDates)
      .$dynamic(),
    query,
  ).as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

export type CourseDateRecord = typeof courseDates.$inferSelect & { courseName: string };

export async function getCourseDate(db: Db, id: number): Promise<CourseDateRecord | undefined> {
  const [row] = await db
    .select({ date: courseDates, courseName: courses.name })
    .from(courseDates)
    .innerJoin(courses, eq(courses.id, courseDates.courseId))
    .where(eq(courseDates.id, id));
  return row ? { ...row.date, courseName: row.courseName } : undefined;
}

/** What a new date of a course starts from: its last date (start and duration), else the course's start; its location. */
export async function courseDateBasis(db: Db, courseId: number) {
  const [[course], [last]] = await db.batch([
    db
      .select({ id: courses.id, name: courses.name, startDateTime: courses.startDateTime, locationId: courses.locationId, statusCode: courses.statusCode })
      .from(courses)
      .where(eq(courses.id, courseId)),
    db
      .select({ startDateTime: courseDates.startDateTime, endDateTime: courseDates.endDateTime, locationId: courseDates.locationId })
      .from(courseDates)
      .where(eq(courseDates.courseId, courseId))
      .orderBy(desc(courseDates.startDateTime))
      .limit(1),
  ]);
  return course ? { course, last } : undefined;
}

/** Courses a date can be added to, newest first; `keep` is always offered. */
export async function courseOptionsForDates(db: Db) {
  return db
    .select({ id: courses.id, label: sql<string>`${courses.name}`.as("label") })
    .from(courses)
    .orderBy(desc(courses.startYear), sql`${courses.name} COLLATE NOCASE`, asc(courses.id));
}

export type CourseDateInput = {
  courseId: number;
  startDateTime: string;
  endDateTime: string;
  isAllDay: boolean;
  locationId: number | null;
  comments: string | null;
};

/** Inserts one date or a whole series (one atomic batch); returns the ids in date order. */
export async function insertCourseDates(db: Db, inputs: CourseDateInput[], actor: Actor): Promise<number[]> {
  const audit = auditInsert(actor);
  const [first, ...rest] = inputs.map((input) =>
    db
      .insert(courseDates)
      .values({ ...input, ...audit })
      .returning({ id: courseDates.id }),
  );
  const results = await db.batch([first, ...rest]);
  return results.map(([row]) => row.id);
}

export async function updateCourseDate(db: Db, id: number, rowVersion: number, input: CourseDateInput, actor: Actor): Promise<UpdateOutcome<CourseDateRecord>> {
  return updateVersioned(db, courseDates, { id, rowVersion }, input, actor, () => getCourseDate(db, id));
}

export async function deleteCourseDate(db: Db, id: number, actor: Actor): Promise<DeleteOutcome> {
  if (!(await getCourseDate(db, id))) return { status: "missing" };
  const transactionId = await moveToBin(db, {
    main: {
      table: courseDates,
      where: eq(courseDates.id, id),
      identifiers: [sql`(SELECT name FROM courses WHERE courses.id = course_id)`, sql`${courseDates.startDateTime}`],
    },
    dependents: attendanceCapture(eq(attendances.courseDateId, id)),
    deletedBy: actor.name,
  });
  return { status: "deleted", transactionId };
}

/** Is there such a course (and location)? */
export async function courseDateReferencesExist(db: Db, courseId: number, locationId: number | null) {
  const [[course], [location]] = await db.batch([
    db.select({ id: courses.id }).from(courses).where(eq(courses.id, courseId)),
    db
      .select({ id: locations.id })
      .from(locations)
      .where(and(eq(locations.id, locationId ?? 0))),
  ]);
  return { course: course !== undefined, location: locationId === null || location !== undefined };
}
