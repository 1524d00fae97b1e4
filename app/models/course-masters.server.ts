/**
 * All queries and writes of the course masters (Kurs-Typen): the kinds of course with their
 * planned sessions, capacity and prices, kept by ADMIN. Courses name their type (courses.course_master_id).
 */
import { and, asc, count, eq, sql, type SQL } from "drizzle-orm";
import type { BookingOverride } from "~/lib/ledger";
import type { Db } from "~/db/client.server";
import type { TaxCase } from "~/lib/tax";
import { courseMasters, courses } from "~/db/schema";
import { nameSortKeySql } from "~/lib/collation";
import { formatCount } from "~/lib/format";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { auditInsert, updateVersioned, type Actor, type UpdateOutcome } from "./audit.server";
import { pageOfPosition, positionInOrder, sortKey, type SortKey } from "./paging.server";
import type { DeleteOutcome } from "./people.server";
import { moveToBin } from "./recycle-bin.server";

/**
 * The number of courses of the master in the current row. Spelled out, not `${courseMasters.id}`:
 * drizzle writes a column of a one-table select without its table ("id"), which inside this
 * subquery would be courses.id.
 */
const courseCountSql = sql<number>`(SELECT count(*) FROM courses WHERE courses.course_master_id = course_masters.id)`;

const columns = {
  id: courseMasters.id,
  name: courseMasters.name,
  nrOfSessions: courseMasters.nrOfSessions,
  maxDogs: courseMasters.maxDogs,
  costFull: courseMasters.costFull,
  costReduced1: courseMasters.costReduced1,
  costReduced2: courseMasters.costReduced2,
  comments: courseMasters.comments,
  portalCancelDays: courseMasters.portalCancelDays,
  onlineBooking: courseMasters.onlineBooking,
  courseCount: courseCountSql.as("course_count"),
};

export type CourseMasterRow = {
  id: number;
  name: string;
  nrOfSessions: number | null;
  maxDogs: number | null;
  costFull: number;
  costReduced1: number;
  costReduced2: number;
  comments: string | null;
  portalCancelDays: number | null;
  onlineBooking: boolean;
  courseCount: number;
};

/**
 * Names sort by their DIN 5007 key (Ä with A, ß as ss). course_masters has no stored key column
 * (unlike people, dogs and certification_masters); with a handful of rows the key is computed
 * in the query, by the same expression the stored keys use.
 */
const SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${courseMasters.id}`),
  name: sortKey(sql.raw(nameSortKeySql("name"))),
  nrOfSessions: sortKey(sql`${courseMasters.nrOfSessions}`),
  maxDogs: sortKey(sql`${courseMasters.maxDogs}`),
  costFull: sortKey(sql`${courseMasters.costFull}`),
  costReduced1: sortKey(sql`${courseMasters.costReduced1}`),
  costReduced2: sortKey(sql`${courseMasters.costReduced2}`),
  comments: sortKey(sql`${courseMasters.comments}`),
  portalCancelDays: sortKey(sql`${courseMasters.portalCancelDays}`),
  onlineBooking: sortKey(sql`${courseMasters.onlineBooking}`),
  // The expression, not its alias: the position query (pageOf) orders the same way.
  courseCount: sortKey(courseCountSql),
};

function orderBy(sort: SortSpec): SQL[] {
  return [(SORTS[sort.id] ?? SORTS.name)(sort.descending), asc(courseMasters.id)];
}

/** One page of course masters (with their number of courses) and the number of all, in one round trip. */
export async function listCourseMasters(db: Db, { sort, page, pageSize = PAGE_SIZE }: { sort: SortSpec; page: number; pageSize?: number }) {
  const [rows, [{ total }]] = await db.batch([
    db
      .select(columns)
      .from(courseMasters)
      .orderBy(...orderBy(sort))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(courseMasters),
  ]);
  return { rows: rows as CourseMasterRow[], total };
}

/** The page (1-based) the master is on in the list sorted like this; null when it does not exist. */
export async function pageOfCourseMaster(db: Db, id: number, sort: SortSpec, pageSize = PAGE_SIZE) {
  const ordered = db
    .select({ id: courseMasters.id, position: positionInOrder(orderBy(sort)) })
    .from(courseMasters)
    .as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

export type CourseMasterRecord = typeof courseMasters.$inferSelect;
export type CourseMasterInput = {
  name: string;
  nrOfSessions: number | null;
  maxDogs: number | null;
  costFull: number;
  costReduced1: number;
  costReduced2: number;
  comments: string | null;
  /** NULL: the default for course fees in Einstellungen (app/models/tax.server.ts). */
  taxCase: TaxCase | null;
  /** Mein Wuff's cut-off: cancellable there until this many days before the course begins; NULL: not there. */
  portalCancelDays: number | null;
  /** Issue 33 item 4: the share of the fee (percent) still owed after cancelling there. */
  portalCancelFeePercent: number;
  /** Issue 33: in the public catalogue and booked online, with what a dog must bring. */
  onlineBooking: boolean;
  minDogAgeWeeks: number | null;
  requiresRabies: boolean;
  requiresInsurance: boolean;
  priorCourseMasterId: number | null;
  /** A booking of this type made online may be withdrawn (issue 33 item 4). */
  withdrawalRight: boolean;
} & BookingOverride;

export async function getCourseMasterRecord(db: Db, id: number): Promise<CourseMasterRecord | undefined> {
  const [row] = await db.select().from(courseMasters).where(eq(courseMasters.id, id));
  return row;
}

/** The name of a master (the label of its row's tabs), or undefined when it does not exist. */
export async function courseMasterName(db: Db, id: number): Promise<string | undefined> {
  const [row] = await db.select({ name: courseMasters.name }).from(courseMasters).where(eq(courseMasters.id, id));
  return row?.name;
}

/** Every master but one, by name: what a course type may require attended before (issue 33). */
export async function courseMasterOptions(db: Db, exceptId: number | null): Promise<{ value: number; label: string }[]> {
  return db
    .select({ value: courseMasters.id, label: courseMasters.name })
    .from(courseMasters)
    .where(exceptId ? sql`${courseMasters.id} <> ${exceptId}` : undefined)
    .orderBy(sql.raw(nameSortKeySql("name")), asc(courseMasters.id));
}

/** The number of courses of a master (what stops its delete). */
export async function courseCountOfMaster(db: Db, id: number): Promise<number> {
  return db.$count(courses, eq(courses.courseMasterId, id));
}

/** Is the name taken by another master (names are unique, without case)? */
export async function courseMasterNameTaken(db: Db, name: string, exceptId: number | null): Promise<boolean> {
  const [row] = await db
    .select({ id: courseMasters.id })
    .from(courseMasters)
    .where(and(sql`lower(${courseMasters.name}) = lower(${name})`, exceptId ? sql`${courseMasters.id} <> ${exceptId}` : undefined))
    .limit(1);
  return row !== undefined;
}

export async function insertCourseMaster(db: Db, input: CourseMasterInput, actor: Actor): Promise<number> {
  const [row] = await db
    .insert(courseMasters)
    .values({ ...input, ...auditInsert(actor) })
    .returning({ id: courseMasters.id });
  return row.id;
}

export async function updateCourseMaster(
  db: Db,
  id: number,
  rowVersion: number,
  input: CourseMasterInput,
  actor: Actor,
): Promise<UpdateOutcome<CourseMasterRecord>> {
  return updateVersioned(db, courseMasters, { id, rowVersion }, input, actor, () => getCourseMasterRecord(db, id));
}

/** Why a master with courses cannot be deleted ("Es gibt 1 Kurs dieses Typs."). */
export const courseMasterInUseMessage = (courseCount: number) =>
  `Der Kurs-Typ kann nicht gelöscht werden: Es gibt ${formatCount(courseCount, "Kurs", "Kurse")} dieses Typs.`;

/** Deletes a master into the recycle bin; refused while courses of it exist. */
export async function deleteCourseMaster(db: Db, id: number, actor: Actor): Promise<DeleteOutcome> {
  const [[master], [{ used }]] = await db.batch([
    db.select({ id: courseMasters.id }).from(courseMasters).where(eq(courseMasters.id, id)),
    db.select({ used: count() }).from(courses).where(eq(courses.courseMasterId, id)),
  ]);
  if (!master) return { status: "missing" };
  if (used > 0) return { status: "refused", message: courseMasterInUseMessage(used) };
  // A course added in between makes the delete fail on its foreign key: nothing is deleted.
  const transactionId = await moveToBin(db, {
    main: { table: courseMasters, where: eq(courseMasters.id, id), identifiers: [sql`${courseMasters.name}`] },
    deletedBy: actor.name,
  });
  return { status: "deleted", transactionId };
}
