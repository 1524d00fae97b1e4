/**
 * Mein Wuff, Meine Kurse (issue 32 item 5): a person's own course bookings, their next dates and
 * attendance, cancelling one within the course type's cut-off (rules in app/lib/portal-courses.ts),
 * and the person's own calendar feed. Every query here is asked with the person's id and filters
 * by it: someone else's booking answers as if it did not exist.
 */
import { and, asc, eq, gte, isNull, sql } from "drizzle-orm";
import { inValues } from "~/db/columns";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db, type Statement } from "~/db/client.server";
import {
  courseDates,
  courseMasters,
  courseMemberships,
  courses,
  dogs,
  locations,
  membershipStatuses,
  onlineBookings,
  people,
  portalCalendarFeeds,
} from "~/db/schema";
import { randomToken, sha256Base64Url } from "~/lib/bytes";
import { attendanceText, takesPart } from "~/lib/attendance";
import { berlinMidnight, todayInBerlin } from "~/lib/format";
import { cancellationWaiver, cancelledFeeText, cancelState, withdrawalUntil, type CancelState } from "~/lib/portal-courses";
import type { Actor } from "./audit.server";
import { attendedCount, heldCount, heldUntil } from "./attendances.server";
import { feesOfMembership } from "./course-memberships.server";
import { allocationStatements, entryInsert } from "./payments.server";
import { isAbortedAsUnchanged } from "./constraints.server";
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
  /** The last Berlin day the contract can be withdrawn ('Vertrag widerrufen', issue 33 item 4), or null. */
  withdrawUntil: string | null;
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
  keptPercent: sql<number>`coalesce(${courseMasters.portalCancelFeePercent}, 0)`.as("kept_percent"),
  // The contract concluded online with a right of withdrawal (issue 33 item 4), and a withdrawal received.
  contractOn: sql<string | null>`(SELECT max(b.booked_on) FROM ${onlineBookings} b WHERE b.course_membership_id = ${courseMemberships.id}
    AND b.act IN ('BOOKED', 'OFFER_ACCEPTED') AND b.withdrawal_right = 1)`.as("contract_on"),
  withdrawn: sql<number>`EXISTS (SELECT 1 FROM ${onlineBookings} b WHERE b.course_membership_id = ${courseMemberships.id} AND b.act = 'WITHDRAWN')`.as(
    "withdrawn",
  ),
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
          .where(and(inValues(courseDates.courseId, courseIds), gte(courseDates.startDateTime, berlinMidnight(today))))
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
      withdrawUntil: withdrawalUntil({ ...row, withdrawn: Boolean(row.withdrawn) }, now),
      offer: offers.has(row.id) ? { ...offers.get(row.id)!, courseId: row.courseId } : null,
    };
  });
}

export type CancelOutcome =
  | { status: "cancelled"; courseName: string; dogName: string; feeText: string; receivedOn: string }
  | { status: "missing" }
  | { status: "refused"; message: string }
  | { status: "changed" };

/**
 * Ends one of the person's bookings in one batch: the status becomes Abgemeldet the way staff set
 * it (only while the booking is as the page showed it: `rowVersion`), the open course fee is
 * cancelled as far as the terms say (a correction entry in the payment journal naming the fee,
 * keyed by the booking: never twice), and the act is recorded with its time and address.
 */
async function endOwnBooking(
  db: Db,
  row: { id: number; courseName: string; dogName: string; keptPercent: number },
  input: { personId: number; rowVersion: number; from: string; receivedOn?: string; settle?: Statement },
  act: "CANCELLED" | "WITHDRAWN",
  actor: Actor,
  now: Date,
): Promise<CancelOutcome> {
  const nowIso = now.toISOString();
  const receivedOn = input.receivedOn ?? nowIso;
  const [fee] = await feesOfMembership(db, row.id);
  // A withdrawal undoes the contract: nothing stays owed (§ 357 BGB).
  const waiver = cancellationWaiver(fee ?? null, act === "WITHDRAWN" ? 0 : row.keptPercent);
  const entryKey = `portal-${act === "WITHDRAWN" ? "withdrawal" : "cancel"}:${row.id}`;
  const words = act === "CANCELLED" ? "Stornierung in Mein Wuff" : input.settle ? "Widerruf ohne Anmeldung" : "Widerruf in Mein Wuff";
  const statements: Statement[] = [
    render(sql`UPDATE ${courseMemberships} SET status_id = (SELECT id FROM ${membershipStatuses} WHERE code = 'CANCELLED' AND applies_to = 'COURSE'),
        last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
      WHERE id = ${row.id} AND person_id = ${input.personId} AND row_version = ${input.rowVersion}`),
    ABORT_UNLESS_CHANGED,
    ...(fee && waiver.waived > 0
      ? [
          entryInsert(
            {
              entryKey,
              personId: input.personId,
              date: todayInBerlin(now),
              amount: waiver.waived,
              method: "OFFSET",
              source: "CORRECTION",
              text: `Storno Kursgebühr ${row.courseName} (${row.dogName}): ${words}`,
            },
            actor,
            nowIso,
          ),
          ...allocationStatements(entryKey, { feeId: fee.id, amount: waiver.waived, expectedOpen: fee.openAmount }, actor, nowIso),
        ]
      : []),
    render(sql`INSERT INTO ${onlineBookings} (course_membership_id, act, booked_on, booked_from, created_by, created_on)
      VALUES (${row.id}, ${act}, ${receivedOn}, ${input.from}, ${actor.name}, ${nowIso})`),
    // A declaration settled by this very batch, or nothing at all.
    ...(input.settle ? [input.settle, ABORT_UNLESS_CHANGED] : []),
  ];
  try {
    await runAtomically(db, statements);
  } catch (error) {
    if (isAbortedAsUnchanged(error)) return { status: "changed" };
    throw error;
  }
  return { status: "cancelled", courseName: row.courseName, dogName: row.dogName, feeText: cancelledFeeText(waiver, fee ?? null), receivedOn };
}

/**
 * Cancels one of the person's bookings if its course type allows it now (`rowVersion`: the booking
 * as the page showed it), with the fee as the terms say. Someone else's or an unknown booking is
 * 'missing'.
 */
export async function cancelOwnBooking(
  db: Db,
  input: { personId: number; membershipId: number; rowVersion: number; from: string },
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
  return endOwnBooking(db, row, input, "CANCELLED", actor, now);
}

export const NOT_WITHDRAWABLE =
  "Diese Buchung kann nicht (mehr) widerrufen werden: Es gibt für sie kein Widerrufsrecht, die Frist von 14 Tagen ist abgelaufen oder sie ist schon beendet.";

/**
 * Withdraws from one of the person's bookings made online (§ 355 BGB) while the period runs: the
 * booking ends and its open fee is cancelled in full. Answers when the withdrawal was received.
 */
export async function withdrawOwnBooking(
  db: Db,
  input: { personId: number; membershipId: number; rowVersion: number; from: string },
  actor: Actor,
  now = new Date(),
): Promise<CancelOutcome> {
  const [row] = await bookingsOf(db, input.personId, heldUntil(todayInBerlin(now)), input.membershipId);
  if (!row) return { status: "missing" };
  if (!withdrawalUntil({ ...row, withdrawn: Boolean(row.withdrawn) }, now)) return { status: "refused", message: NOT_WITHDRAWABLE };
  if (row.rowVersion !== input.rowVersion) return { status: "changed" };
  return endOwnBooking(db, row, input, "WITHDRAWN", actor, now);
}

/** An online booking with a right of withdrawal that a declaration without sign-in may name. */
export type DeclaredCandidate = {
  id: number;
  rowVersion: number;
  email: string;
  personId: number;
  personName: string;
  courseName: string;
  dogName: string;
  status: string;
  contractOn: string;
  /** Withdrawable at the declaration's receipt (and still now: not ended, course not finished). */
  withdrawable: boolean;
};

/**
 * The bookings concluded online with a right of withdrawal of the people with one of `emails`
 * (compared as Mein Wuff's sign-in does), newest contract first; `receivedOn` by address says
 * when each address's declaration was received, for whether it came within the period.
 */
export async function declaredWithdrawalCandidates(
  db: Db,
  receivedOnByEmail: Map<string, string[]>,
): Promise<(Omit<DeclaredCandidate, "withdrawable"> & { withdrawableAt: string[] })[]> {
  const emails = [...receivedOnByEmail.keys()];
  if (emails.length === 0) return [];
  const today = todayInBerlin();
  const email = sql<string>`lower(trim(${people.email}))`;
  const rows = await db
    .select({
      ...bookingColumns(heldUntil(today)),
      email: email.as("person_email"),
      personId: courseMemberships.personId,
      personName: sql<string>`${people.fullName}`.as("person_name"),
    })
    .from(courseMemberships)
    .innerJoin(people, eq(people.id, courseMemberships.personId))
    .innerJoin(courses, eq(courses.id, courseMemberships.courseId))
    .innerJoin(dogs, eq(dogs.id, courseMemberships.dogId))
    .innerJoin(membershipStatuses, eq(membershipStatuses.id, courseMemberships.statusId))
    .leftJoin(courseMasters, eq(courseMasters.id, courses.courseMasterId))
    .where(
      and(
        inValues(email, emails),
        isNull(people.erasedOn),
        sql`EXISTS (SELECT 1 FROM ${onlineBookings} b WHERE b.course_membership_id = ${courseMemberships.id} AND b.act IN ('BOOKED', 'OFFER_ACCEPTED') AND b.withdrawal_right = 1)`,
      ),
    )
    .orderBy(sql`contract_on DESC`, asc(courseMemberships.id));
  return rows.map((row) => ({
    id: row.id,
    rowVersion: row.rowVersion,
    email: row.email,
    personId: row.personId,
    personName: row.personName,
    courseName: row.courseName,
    dogName: row.dogName,
    status: row.status,
    contractOn: row.contractOn!,
    withdrawableAt: (receivedOnByEmail.get(row.email) ?? []).filter(
      (receivedOn) => withdrawalUntil({ ...row, withdrawn: Boolean(row.withdrawn) }, new Date(receivedOn)) !== null,
    ),
  }));
}

/**
 * Withdraws, for a declaration received without sign-in at `receivedOn`, from the online booking
 * `membershipId` of a person with the declaration's address, if it was withdrawable then and is
 * not ended since; `settle` (the declaration's settlement) joins the batch.
 */
export async function withdrawDeclaredBooking(
  db: Db,
  input: { email: string; membershipId: number; rowVersion: number; receivedOn: string; from: string; settle: Statement },
  actor: Actor,
  now = new Date(),
): Promise<CancelOutcome> {
  const [candidate] = (await declaredWithdrawalCandidates(db, new Map([[input.email, [input.receivedOn]]]))).filter((row) => row.id === input.membershipId);
  if (!candidate) return { status: "missing" };
  if (candidate.withdrawableAt.length === 0) return { status: "refused", message: NOT_WITHDRAWABLE };
  if (candidate.rowVersion !== input.rowVersion) return { status: "changed" };
  const [row] = await bookingsOf(db, candidate.personId, heldUntil(todayInBerlin(now)), candidate.id);
  return endOwnBooking(db, row, { ...input, personId: candidate.personId }, "WITHDRAWN", actor, now);
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
