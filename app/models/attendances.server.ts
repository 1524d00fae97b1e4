/**
 * Anwesenheit (beyond the spec): who was there on a course date. A trainer ticks it on the phone
 * (the mobile Kursblatt); the participants grid and the desktop Kursblatt show it per date and as
 * 'x von y', attended of the dates held so far.
 *
 * A tick posts the state wanted (present or not), so a repeated or replayed tap changes nothing.
 * 'Held so far' are the dates of the course that start before the end of today (Berlin): a date
 * later today counts, as the trainer ticks it on the field. Only those can be ticked.
 */
import { and, asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { render, runAtomically, type Db } from "~/db/client.server";
import { attendances, attendanceSettlements, cardUses, courseDates, courseMemberships, dogs, membershipStatuses, people } from "~/db/schema";
import { addDaysToDate, berlinDateOf, berlinMidnight, todayInBerlin } from "~/lib/format";
import { attendanceText, takesPart } from "~/lib/attendance";
import type { Actor } from "./audit.server";
import { isForeignKeyViolation } from "./constraints.server";
import type { Capture } from "./recycle-bin.server";
import { cardUseStatements } from "./cards.server";
import { dogNameKey, personNameKeys } from "./paging.server";

export { attendanceText, takesPart };

/** The instant today ends in Berlin: dates starting before it are held so far. */
export const heldUntil = (today = todayInBerlin()) => berlinMidnight(addDaysToDate(today, 1));

/** How many dates of the membership's course are held so far (`membership` is its row's columns). */
export const heldCount = (membership: { courseId: AnySQLiteColumn }, until: string) =>
  sql<number>`(SELECT count(*) FROM ${courseDates} hd WHERE hd.course_id = ${membership.courseId} AND hd.start_date_time < ${until})`;

/**
 * How many of those the participant attended. Only dates of the membership's own course count:
 * after a transfer the ticks of the old course stay stored (nothing is lost) but do not count.
 */
export const attendedCount = (membership: { id: AnySQLiteColumn; courseId: AnySQLiteColumn }, until: string) =>
  sql<number>`(SELECT count(*) FROM ${attendances} aa JOIN ${courseDates} ad ON ad.id = aa.course_date_id
    WHERE aa.course_membership_id = ${membership.id} AND aa.present = 1 AND ad.course_id = ${membership.courseId} AND ad.start_date_time < ${until})`;

/**
 * The attendance going into the Papierkorb with a delete (`where` over attendances), after what
 * its ticks took from cards (issue 34: the uses come back with it, and the card's balance with them).
 */
export const attendanceCapture = (where: SQL): Capture[] => [
  {
    table: cardUses,
    where: inArray(cardUses.attendanceId, sql`(SELECT ${attendances.id} FROM ${attendances} WHERE ${where})`),
    identifiers: [sql`(SELECT name FROM cards WHERE cards.id = card_id)`, sql`${cardUses.usedOn}`, sql`${cardUses.kind}`],
  },
  {
    table: attendanceSettlements,
    where: inArray(attendanceSettlements.attendanceId, sql`(SELECT ${attendances.id} FROM ${attendances} WHERE ${where})`),
    identifiers: [sql`CASE ${attendanceSettlements.kind} WHEN 'FEE' THEN 'Einzelstunde berechnet' ELSE 'erlassen' END`],
  },
  {
    table: attendances,
    where,
    identifiers: [
      sql`(SELECT full_name FROM people WHERE people.id = (SELECT person_id FROM course_memberships WHERE course_memberships.id = course_membership_id))`,
      sql`(SELECT start_date_time FROM course_dates WHERE course_dates.id = course_date_id)`,
      sql`CASE WHEN present = 1 THEN 'anwesend' ELSE 'nicht anwesend' END`,
    ],
  },
];

/** Attendance of memberships picked by a subquery of ids (a person's, a dog's, a course's). */
export const attendanceOfMemberships = (membershipIds: SQL) => attendanceCapture(inArray(attendances.courseMembershipId, membershipIds));

export type AttendanceDate = { id: number; startDateTime: string; endDateTime: string | null; isAllDay: boolean; held: boolean };

/**
 * The date a trainer sees first: the one asked for, else today's, else the nearest coming one,
 * else the last one held (`dates` in time order).
 */
export function chooseDate<D extends { id: number; startDateTime: string }>(dates: D[], wanted: number | null, today: string): D | null {
  const asked = dates.find((date) => date.id === wanted);
  if (asked) return asked;
  return (
    dates.find((date) => berlinDateOf(date.startDateTime) === today) ?? dates.find((date) => berlinDateOf(date.startDateTime) > today) ?? dates.at(-1) ?? null
  );
}

/** Every date of a course (in time order, each marked held or not) and who was present on which. */
export async function courseAttendance(db: Db, courseId: number, today = todayInBerlin()) {
  const until = heldUntil(today);
  const [dates, present] = await Promise.all([
    db
      .select({ id: courseDates.id, startDateTime: courseDates.startDateTime, endDateTime: courseDates.endDateTime, isAllDay: courseDates.isAllDay })
      .from(courseDates)
      .where(eq(courseDates.courseId, courseId))
      .orderBy(asc(courseDates.startDateTime), asc(courseDates.id)),
    db
      .select({ courseDateId: attendances.courseDateId, courseMembershipId: attendances.courseMembershipId })
      .from(attendances)
      .innerJoin(courseDates, eq(courseDates.id, attendances.courseDateId))
      .where(and(eq(courseDates.courseId, courseId), eq(attendances.present, true))),
  ]);
  return {
    dates: dates.map((date): AttendanceDate => ({ ...date, isAllDay: Boolean(date.isAllDay), held: date.startDateTime < until })),
    /** 'dateId:membershipId' of every tick. */
    present: present.map((row) => `${row.courseDateId}:${row.courseMembershipId}`),
  };
}

export type SheetParticipant = { id: number; fullName: string | null; dogCommonName: string; status: string; takesPart: boolean };

/**
 * The desktop Kursblatt's attendance: the course's participants (those taking part first, by
 * name), its dates held so far and the ticks, read together (one round trip).
 */
export async function attendanceSheet(db: Db, courseId: number, today = todayInBerlin()) {
  const [participants, attendance] = await Promise.all([
    db
      .select({
        id: courseMemberships.id,
        fullName: people.fullName,
        dogCommonName: dogs.commonName,
        status: membershipStatuses.name,
        statusCode: membershipStatuses.code,
      })
      .from(courseMemberships)
      .innerJoin(people, eq(people.id, courseMemberships.personId))
      .innerJoin(dogs, eq(dogs.id, courseMemberships.dogId))
      .innerJoin(membershipStatuses, eq(membershipStatuses.id, courseMemberships.statusId))
      .where(eq(courseMemberships.courseId, courseId))
      .orderBy(
        sql`${membershipStatuses.code} IN ('WAITLIST', 'CANCELLED')`,
        ...personNameKeys(courseMemberships.personId).map((key) => asc(key)),
        asc(dogNameKey(courseMemberships.dogId)),
        asc(courseMemberships.id),
      ),
    courseAttendance(db, courseId, today),
  ]);
  return {
    participants: participants.map(({ statusCode, ...row }): SheetParticipant => ({ ...row, takesPart: takesPart(statusCode) })),
    dates: attendance.dates.filter((date) => date.held),
    present: attendance.present,
  };
}

export type AttendanceInput = { courseId: number; courseDateId: number; courseMembershipId: number; present: boolean };

export type AttendanceOutcome = { status: "saved"; present: boolean; changed: boolean } | { status: "refused"; httpStatus: 404 | 409; message: string };

const DATE_NOT_FOUND = "Diesen Kurstermin gibt es nicht (mehr).";
const MEMBERSHIP_NOT_FOUND = "Diesen Teilnehmer gibt es nicht (mehr).";
const DATE_OF_OTHER_COURSE = "Dieser Termin gehört zu einem anderen Kurs.";
const NOT_IN_COURSE = "Dieser Teilnehmer ist nicht in diesem Kurs.";
const NOT_TAKING_PART_MESSAGE = "Teilnehmer auf der Warteliste oder abgemeldete Teilnehmer können nicht als anwesend eingetragen werden.";
const NOT_HELD_YET = "Dieser Termin hat noch nicht stattgefunden: Die Anwesenheit kann erst an seinem Tag eingetragen werden.";

/**
 * Sets whether a participant was present on a date, to the state wanted. Refused (nothing
 * changes) for an unknown date or participant, a date of another course, a participant not in the
 * course, and, when ticking, a participant who does not take part or a date not held yet
 * (unticking stays possible, to correct). A repeated tick changes nothing, not even the audit.
 * In an open group counted by card the same batch takes from the person's card or gives it back.
 */
export async function setAttendance(
  db: Db,
  input: AttendanceInput,
  actor: Actor,
  { today = todayInBerlin(), now = new Date() } = {},
): Promise<AttendanceOutcome> {
  const [[date], [membership]] = await db.batch([
    db.select({ courseId: courseDates.courseId, startDateTime: courseDates.startDateTime }).from(courseDates).where(eq(courseDates.id, input.courseDateId)),
    db
      .select({ courseId: courseMemberships.courseId, statusCode: membershipStatuses.code })
      .from(courseMemberships)
      .innerJoin(membershipStatuses, eq(membershipStatuses.id, courseMemberships.statusId))
      .where(eq(courseMemberships.id, input.courseMembershipId)),
  ]);
  if (!date) return { status: "refused", httpStatus: 404, message: DATE_NOT_FOUND };
  if (!membership) return { status: "refused", httpStatus: 404, message: MEMBERSHIP_NOT_FOUND };
  if (date.courseId !== input.courseId) return { status: "refused", httpStatus: 409, message: DATE_OF_OTHER_COURSE };
  if (membership.courseId !== input.courseId) return { status: "refused", httpStatus: 409, message: NOT_IN_COURSE };
  if (input.present && !takesPart(membership.statusCode)) return { status: "refused", httpStatus: 409, message: NOT_TAKING_PART_MESSAGE };
  if (input.present && date.startDateTime >= heldUntil(today)) return { status: "refused", httpStatus: 409, message: NOT_HELD_YET };

  const nowIso = now.toISOString();
  // The date and the participant must still belong to the course when the write happens.
  const stillThere = sql`EXISTS (SELECT 1 FROM ${courseDates} WHERE id = ${input.courseDateId} AND course_id = ${input.courseId})
    AND EXISTS (SELECT 1 FROM ${courseMemberships} WHERE id = ${input.courseMembershipId} AND course_id = ${input.courseId})`;
  const statement = input.present
    ? render(sql`INSERT INTO ${attendances} (course_date_id, course_membership_id, present, created_by, created_on)
        SELECT ${input.courseDateId}, ${input.courseMembershipId}, 1, ${actor.name}, ${nowIso} WHERE ${stillThere}
        ON CONFLICT (course_date_id, course_membership_id) DO UPDATE SET present = 1, last_modified_by = ${actor.name}, last_modified_on = ${nowIso},
          row_version = row_version + 1 WHERE present <> 1`)
    : // Unticking what was never ticked stores nothing.
      render(sql`UPDATE ${attendances} SET present = 0, last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
        WHERE course_date_id = ${input.courseDateId} AND course_membership_id = ${input.courseMembershipId} AND present <> 0 AND ${stillThere}`);
  try {
    // An open group counted by card: the tick takes from the person's card, the un-tick gives back (issue 34).
    const day = berlinDateOf(date.startDateTime);
    const [result] = await runAtomically(db, [statement, ...cardUseStatements({ ...input, day }, actor, nowIso)]);
    return { status: "saved", present: input.present, changed: result.meta.changes > 0 };
  } catch (error) {
    if (isForeignKeyViolation(error)) return { status: "refused", httpStatus: 404, message: DATE_NOT_FOUND };
    throw error;
  }
}

/** Used by deletes: a where over attendances of one course's dates or participants. */
export const attendanceOfCourseWhere = (courseId: number) =>
  or(
    inArray(attendances.courseDateId, sql`(SELECT id FROM ${courseDates} WHERE course_id = ${courseId})`),
    inArray(attendances.courseMembershipId, sql`(SELECT id FROM ${courseMemberships} WHERE course_id = ${courseId})`),
  )!;
export const attendanceOfCourse = (courseId: number) => attendanceCapture(attendanceOfCourseWhere(courseId));

/** How many attendance rows a delete takes along (its confirmation says so). */
export async function attendanceCount(db: Db, of: { courseDateId: number } | { courseMembershipId: number } | { courseId: number }): Promise<number> {
  const where =
    "courseDateId" in of
      ? eq(attendances.courseDateId, of.courseDateId)
      : "courseMembershipId" in of
        ? eq(attendances.courseMembershipId, of.courseMembershipId)
        : attendanceOfCourseWhere(of.courseId);
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)` })
    .from(attendances)
    .where(where);
  return total;
}

/** 'Anwesenheitseintrag' for the delete confirmations (deletionDetails). */
export const ATTENDANCE_WORDS = ["Anwesenheitseintrag", "Anwesenheitseinträge"] as const;
