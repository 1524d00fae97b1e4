/**
 * All queries and writes of courses (Kurse). A course's actual number of dogs counts its
 * participants that take part (not on the waiting list, not cancelled); its actual number of
 * sessions counts its course dates.
 */
import { and, asc, count, eq, inArray, ne, or, sql, type Column, type SQL } from "drizzle-orm";
import { alias, type SQLiteSelect } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { qualified } from "~/db/columns";
import { attendances, courseDates, courseMasters, courseMemberships, courses, fees, locations, people, type CourseStatusCode } from "~/db/schema";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { COURSE_STATUS_LABELS } from "~/lib/labels";
import { auditInsert, updateVersioned, type Actor, type UpdateOutcome } from "./audit.server";
import { pageOfPosition, positionInOrder, sortKey, type SortKey } from "./paging.server";
import type { DeleteOutcome } from "./people.server";
import { isSettledFee } from "./fees.server";
import { moveToBin } from "./recycle-bin.server";
import { attendanceOfCourse, attendanceOfCourseWhere } from "./attendances.server";
import { membershipRecordsCapture } from "./membership-records.server";
import { containsPattern } from "./search.server";

const trainers = alias(people, "trainers");
const cotrainers = alias(people, "cotrainers");

/** The membership statuses of participants who do not take part: on the waiting list, cancelled. */
export const NOT_TAKING_PART = ["WAITLIST", "CANCELLED"] as const;

/** Participants who take part fill a place: not on the waiting list (WAITLIST), not cancelled (CANCELLED).
 *  (The course's id is named with its table: a select from courses alone writes its columns bare.) */
export const actualNrOfDogs = sql<number>`(SELECT count(*) FROM course_memberships m JOIN membership_statuses s ON s.id = m.status_id
  WHERE m.course_id = ${courses}.id AND s.code NOT IN ${NOT_TAKING_PART})`;

/** The places an online booking sees taken: dogs taking part and dogs waiting (issue 33). Who books
 *  after someone started waiting queues behind them: a freed place is offered down the list. */
export const claimedPlaces = sql<number>`(SELECT count(*) FROM course_memberships m JOIN membership_statuses s ON s.id = m.status_id
  WHERE m.course_id = ${courses}.id AND s.code <> 'CANCELLED')`;

/** The first date of the course `courseId` names, from `from` on (an instant), or of all its dates. */
export const nextCourseDate = (courseId: Column, from?: string) =>
  sql<
    string | null
  >`(SELECT min(d.start_date_time) FROM ${courseDates} d WHERE d.course_id = ${qualified(courseId)}${from === undefined ? sql`` : sql` AND d.start_date_time >= ${from}`})`;

/** When a course begins: its first date, else its planned start (courses must be in the query). */
export const courseStart = (courseId: Column) => sql<string | null>`coalesce(${nextCourseDate(courseId)}, ${qualified(courses.startDateTime)})`;

/** A running (current) course: one that is not finished. The 'Nur aktuelle' toggle, the Kursblatt,
 *  the handset views and the home page all mean this. */
export const isRunningCourse = (): SQL => ne(courses.statusCode, "FINISHED");

/** More dogs take part than the course has places for (shown red); the SQL twin is overCapacity. */
const isOverCapacity = (course: { maxDogs: number | null; actualNrOfDogs: number }): boolean =>
  course.maxDogs !== null && course.actualNrOfDogs > course.maxDogs;

/** isOverCapacity as an SQL condition on a course row. */
export const overCapacity = (): SQL => sql`(${courses.maxDogs} IS NOT NULL AND ${actualNrOfDogs} > ${courses.maxDogs})`;
const actualNrOfSessions = sql<number>`(SELECT count(*) FROM course_dates d WHERE d.course_id = ${qualified(courses.id)})`;

const columns = {
  id: courses.id,
  name: courses.name,
  startYear: courses.startYear,
  webTimeInformation: courses.webTimeInformation,
  trainerId: courses.trainerId,
  trainerName: sql<string | null>`${trainers.fullName}`.as("trainer_name"),
  cotrainerId: courses.cotrainerId,
  cotrainerName: sql<string | null>`${cotrainers.fullName}`.as("cotrainer_name"),
  startDateTime: courses.startDateTime,
  maxDogs: courses.maxDogs,
  actualNrOfDogs: actualNrOfDogs.as("actual_nr_of_dogs"),
  nrOfSessions: courses.nrOfSessions,
  actualNrOfSessions: actualNrOfSessions.as("actual_nr_of_sessions"),
  costFull: courses.costFull,
  costReduced1: courses.costReduced1,
  costReduced2: courses.costReduced2,
  statusCode: courses.statusCode,
  durationModel: courses.durationModel,
  pricingModel: courses.pricingModel,
  locationId: courses.locationId,
  location: sql<string | null>`${locations.name}`.as("location_name"),
  courseMasterId: courses.courseMasterId,
  courseMasterName: sql<string | null>`${courseMasters.name}`.as("course_master_name"),
  comments: courses.comments,
};

export type CourseRow = {
  id: number;
  name: string;
  startYear: number;
  webTimeInformation: string | null;
  trainerId: number | null;
  trainerName: string | null;
  cotrainerId: number | null;
  cotrainerName: string | null;
  startDateTime: string | null;
  maxDogs: number | null;
  actualNrOfDogs: number;
  nrOfSessions: number | null;
  actualNrOfSessions: number;
  costFull: number | null;
  costReduced1: number | null;
  costReduced2: number | null;
  statusCode: CourseStatusCode;
  status: string;
  durationModel: string;
  pricingModel: string;
  locationId: number | null;
  location: string | null;
  courseMasterId: number | null;
  courseMasterName: string | null;
  comments: string | null;
  /** More dogs take part than the course has places for (shown red). */
  overCapacity: boolean;
  /** The planned number of sessions differs from the course dates (shown red). */
  sessionsDiffer: boolean;
};

export const COURSE_STATUS_FILTERS = ["all", "current", "closed"] as const;
export type CourseStatusFilter = (typeof COURSE_STATUS_FILTERS)[number];

/** Filters of the courses grid: status, year ('all' or a year), name search, the course type. */
export type CourseQuery = { status: CourseStatusFilter; year: number | "all"; term: string; courseMasterId?: number; sort: SortSpec };

const SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${courses.id}`),
  name: sortKey(sql`${courses.name} COLLATE NOCASE`),
  startYear: sortKey(sql`${courses.startYear}`),
  webTimeInformation: sortKey(sql`${courses.webTimeInformation} COLLATE NOCASE`),
  trainerName: sortKey(sql`${trainers.lastNameKey}`, sql`${trainers.firstNameKey}`),
  cotrainerName: sortKey(sql`${cotrainers.lastNameKey}`, sql`${cotrainers.firstNameKey}`),
  startDateTime: sortKey(sql`${courses.startDateTime}`),
  maxDogs: sortKey(sql`${courses.maxDogs}`),
  actualNrOfDogs: sortKey(sql`actual_nr_of_dogs`),
  nrOfSessions: sortKey(sql`${courses.nrOfSessions}`),
  actualNrOfSessions: sortKey(sql`actual_nr_of_sessions`),
  costFull: sortKey(sql`${courses.costFull}`),
  costReduced1: sortKey(sql`${courses.costReduced1}`),
  costReduced2: sortKey(sql`${courses.costReduced2}`),
  status: sortKey(sql`CASE ${courses.statusCode} WHEN 'PLANNED' THEN 1 WHEN 'RUNNING' THEN 2 ELSE 3 END`),
  durationModel: sortKey(sql`${courses.durationModel}`),
  pricingModel: sortKey(sql`${courses.pricingModel}`),
  location: sortKey(sql`${locations.name} COLLATE NOCASE`),
  courseMasterName: sortKey(sql`${courseMasters.name} COLLATE NOCASE`),
  comments: sortKey(sql`${courses.comments}`),
};
export const COURSE_DEFAULT_SORT: SortSpec = { id: "startYear", descending: false };

function orderBy(sort: SortSpec): SQL[] {
  return [(SORTS[sort.id] ?? SORTS.startYear)(sort.descending), asc(courses.startDateTime), sql`${courses.name} COLLATE NOCASE`, asc(courses.id)];
}

/** The courses grid's toggles (status and year) as a condition on `courses`: also the
 *  participants' filters on their own screen (Kursteilnehmer). */
export const courseFilter = ({ status, year }: Pick<CourseQuery, "status" | "year">) =>
  and(
    status === "current" ? isRunningCourse() : status === "closed" ? eq(courses.statusCode, "FINISHED") : undefined,
    year === "all" ? undefined : eq(courses.startYear, year),
  );

function where({ status, year, term, courseMasterId }: Omit<CourseQuery, "sort">) {
  const pattern = containsPattern(term);
  return and(
    courseFilter({ status, year }),
    pattern ? sql`${courses.name} LIKE ${pattern}` : undefined,
    courseMasterId ? eq(courses.courseMasterId, courseMasterId) : undefined,
  );
}

function joined<Query extends SQLiteSelect>(select: Query, query: Omit<CourseQuery, "sort">) {
  return select
    .leftJoin(trainers, eq(trainers.id, courses.trainerId))
    .leftJoin(cotrainers, eq(cotrainers.id, courses.cotrainerId))
    .leftJoin(locations, eq(locations.id, courses.locationId))
    .leftJoin(courseMasters, eq(courseMasters.id, courses.courseMasterId))
    .where(where(query));
}

function toCourseRow(row: Omit<CourseRow, "status" | "overCapacity" | "sessionsDiffer">): CourseRow {
  return {
    ...row,
    status: COURSE_STATUS_LABELS[row.statusCode],
    overCapacity: isOverCapacity(row),
    sessionsDiffer: row.nrOfSessions !== null && row.nrOfSessions !== row.actualNrOfSessions,
  };
}

/** A page of the courses grid (its query, so a test can ask SQLite for its plan). */
export function coursePageQuery(db: Db, query: CourseQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  return joined(db.select(columns).from(courses).$dynamic(), query)
    .orderBy(...orderBy(query.sort))
    .limit(pageSize)
    .offset((query.page - 1) * pageSize);
}

export async function listCourses(db: Db, query: CourseQuery & { page: number; pageSize?: number }) {
  const [rows, [{ total }]] = await db.batch([coursePageQuery(db, query), db.select({ total: count() }).from(courses).where(where(query))]);
  return { rows: (rows as Omit<CourseRow, "status" | "overCapacity" | "sessionsDiffer">[]).map(toCourseRow), total };
}

export async function pageOfCourse(db: Db, id: number, query: CourseQuery, pageSize = PAGE_SIZE) {
  const ordered = joined(
    db
      .select({ id: courses.id, position: positionInOrder(orderBy(query.sort)) })
      .from(courses)
      .$dynamic(),
    query,
  ).as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

/** The years courses start in, newest first (the year toggle offers them). */
export async function courseYears(db: Db): Promise<number[]> {
  const rows = await db
    .selectDistinct({ year: courses.startYear })
    .from(courses)
    .orderBy(sql`${courses.startYear} DESC`);
  return rows.map((row) => row.year);
}

export type CourseRecord = typeof courses.$inferSelect & { trainerName: string | null; cotrainerName: string | null; courseMasterName: string | null };

export async function getCourse(db: Db, id: number): Promise<CourseRecord | undefined> {
  const [row] = await db
    .select({ course: courses, trainerName: columns.trainerName, cotrainerName: columns.cotrainerName, courseMasterName: columns.courseMasterName })
    .from(courses)
    .leftJoin(trainers, eq(trainers.id, courses.trainerId))
    .leftJoin(cotrainers, eq(cotrainers.id, courses.cotrainerId))
    .leftJoin(courseMasters, eq(courseMasters.id, courses.courseMasterId))
    .where(eq(courses.id, id));
  return row ? { ...row.course, trainerName: row.trainerName, cotrainerName: row.cotrainerName, courseMasterName: row.courseMasterName } : undefined;
}

/** The course's name and year (the title of its tabs, the deep link's toggles). */
export async function courseName(db: Db, id: number): Promise<{ id: number; name: string; startYear: number; statusCode: CourseStatusCode } | undefined> {
  const [row] = await db
    .select({ id: courses.id, name: courses.name, startYear: courses.startYear, statusCode: courses.statusCode })
    .from(courses)
    .where(eq(courses.id, id));
  return row;
}

export type CourseInput = {
  name: string;
  startYear: number;
  webTimeInformation: string | null;
  trainerId: number | null;
  cotrainerId: number | null;
  startDateTime: string | null;
  maxDogs: number | null;
  nrOfSessions: number | null;
  costFull: number;
  costReduced1: number;
  costReduced2: number;
  statusCode: CourseStatusCode;
  durationModel: (typeof courses.$inferInsert)["durationModel"];
  pricingModel: (typeof courses.$inferInsert)["pricingModel"];
  locationId: number | null;
  courseMasterId: number | null;
  comments: string | null;
};

export async function insertCourse(db: Db, input: CourseInput, actor: Actor): Promise<number> {
  const [row] = await db
    .insert(courses)
    .values({ ...input, ...auditInsert(actor) })
    .returning({ id: courses.id });
  return row.id;
}

export async function updateCourse(db: Db, id: number, rowVersion: number, input: CourseInput, actor: Actor): Promise<UpdateOutcome<CourseRecord>> {
  return updateVersioned(db, courses, { id, rowVersion }, input, actor, () => getCourse(db, id));
}

/** What deleting a course takes into the bin with it. */
export async function courseDeletionContents(db: Db, id: number) {
  const [[{ membershipCount }], [{ dateCount }], [{ feeCount }], attendanceRows] = await db.batch([
    db.select({ membershipCount: count() }).from(courseMemberships).where(eq(courseMemberships.courseId, id)),
    db.select({ dateCount: count() }).from(courseDates).where(eq(courseDates.courseId, id)),
    db
      .select({ feeCount: count() })
      .from(fees)
      .where(inArray(fees.courseMembershipId, sql`(SELECT id FROM course_memberships WHERE course_id = ${id})`)),
    db.select({ attendanceCount: count() }).from(attendances).where(attendanceOfCourseWhere(id)),
  ]);
  return { membershipCount, dateCount, feeCount, attendanceCount: attendanceRows[0].attendanceCount };
}

/**
 * Deletes a course into the recycle bin with its dates, its participants and their course fees
 * (one transaction, restored together). Refused while a fee of it is invoiced or paid: bookkeeping
 * is never deleted along.
 */
export async function deleteCourse(db: Db, id: number, actor: Actor): Promise<DeleteOutcome> {
  const membershipIds = sql`(SELECT id FROM course_memberships WHERE course_id = ${id})`;
  const [[course], [{ settled }]] = await db.batch([
    db.select({ id: courses.id }).from(courses).where(eq(courses.id, id)),
    db
      .select({ settled: count() })
      .from(fees)
      .where(and(inArray(fees.courseMembershipId, membershipIds), isSettledFee)),
  ]);
  if (!course) return { status: "missing" };
  if (settled > 0) {
    return {
      status: "refused",
      message: `Der Kurs kann nicht gelöscht werden: ${settled === 1 ? "Eine Kursgebühr ist" : `${settled} Kursgebühren sind`} bereits bezahlt oder in Rechnung gestellt. Buchungsdaten werden nie mitgelöscht; setze den Kurs stattdessen auf „Abgeschlossen“.`,
    };
  }
  const transactionId = await moveToBin(db, {
    main: { table: courses, where: eq(courses.id, id), identifiers: [sql`${courses.name}`, sql`${courses.startYear}`] },
    dependents: [
      ...attendanceOfCourse(id),
      ...membershipRecordsCapture(sql`(SELECT id FROM course_memberships WHERE course_id = ${id})`),
      {
        table: fees,
        where: inArray(fees.courseMembershipId, membershipIds),
        identifiers: [sql`${fees.text}`, sql`(SELECT full_name FROM people WHERE people.id = person_id)`],
      },
      {
        table: courseMemberships,
        where: eq(courseMemberships.courseId, id),
        identifiers: [sql`(SELECT full_name FROM people WHERE people.id = person_id)`, sql`(SELECT common_name FROM dogs WHERE dogs.id = dog_id)`],
      },
      { table: courseDates, where: eq(courseDates.courseId, id), identifiers: [sql`${courseDates.startDateTime}`] },
    ],
    deletedBy: actor.name,
  });
  return { status: "deleted", transactionId };
}

/** Trainers for the course form (people marked as trainer; a course's current ones are kept). */
export async function trainerOptions(db: Db, keep: (number | null)[] = []) {
  const kept = keep.filter((id): id is number => id !== null);
  return db
    .select({ id: people.id, label: sql<string>`${people.fullName}`.as("label") })
    .from(people)
    .where(or(eq(people.isTrainer, true), kept.length ? inArray(people.id, kept) : undefined))
    .orderBy(asc(people.lastNameKey), asc(people.firstNameKey), asc(people.id));
}

export async function locationOptions(db: Db) {
  return db
    .select({ id: locations.id, label: locations.name })
    .from(locations)
    .orderBy(sql`${locations.name} COLLATE NOCASE`);
}

export async function courseMasterOptions(db: Db) {
  return db
    .select({
      id: courseMasters.id,
      label: courseMasters.name,
      nrOfSessions: courseMasters.nrOfSessions,
      maxDogs: courseMasters.maxDogs,
      costFull: courseMasters.costFull,
      costReduced1: courseMasters.costReduced1,
      costReduced2: courseMasters.costReduced2,
    })
    .from(courseMasters)
    .orderBy(sql`${courseMasters.name} COLLATE NOCASE`);
}

/** Is this person a trainer (the course form offers only trainers)? */
export async function isTrainerOrCurrent(db: Db, personId: number, current: (number | null)[]): Promise<boolean> {
  if (current.includes(personId)) return true;
  const [row] = await db
    .select({ id: people.id })
    .from(people)
    .where(and(eq(people.id, personId), eq(people.isTrainer, true)));
  return row !== undefined;
}

/** The courses the Kursblatt offers: those not finished (current) or all, newest first, with what the sheet heads. */
export async function courseSheetOptions(db: Db, show: "current" | "all") {
  const rows = await db
    .select({
      id: courses.id,
      name: courses.name,
      startYear: courses.startYear,
      statusCode: courses.statusCode,
      webTimeInformation: courses.webTimeInformation,
      trainerName: sql<string | null>`${trainers.fullName}`.as("trainer_name"),
      cotrainerName: sql<string | null>`${cotrainers.fullName}`.as("cotrainer_name"),
      location: sql<string | null>`${locations.name}`.as("location_name"),
      actualNrOfDogs: actualNrOfDogs.as("actual_nr_of_dogs"),
      maxDogs: courses.maxDogs,
    })
    .from(courses)
    .leftJoin(trainers, eq(trainers.id, courses.trainerId))
    .leftJoin(cotrainers, eq(cotrainers.id, courses.cotrainerId))
    .leftJoin(locations, eq(locations.id, courses.locationId))
    .where(show === "current" ? isRunningCourse() : undefined)
    .orderBy(sql`${courses.startYear} DESC`, sql`${courses.name} COLLATE NOCASE`, asc(courses.id));
  return rows;
}
export type CourseSheetCourse = Awaited<ReturnType<typeof courseSheetOptions>>[number];
