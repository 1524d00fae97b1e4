/**
 * Waiting lists that fill themselves (issue 33 item 3). A course's waiting list is its participants
 * with status Warteliste in the order of `waitlist_rank` (kept by the triggers of migration 0059;
 * staff move people on it). When a place is free - someone cancelled, was transferred, staff raised
 * the capacity - the cron offers it to the first on the list for the hours Einstellungen name; the
 * offer is accepted in Mein Wuff (booking as online, app/models/online-bookings.server.ts), declined,
 * or lapses, and then passes on. Automatic offers go out for courses of a type booked online, with a
 * date to come, to people with an e-mail address; every other list is the staff's to work.
 * Every step is one statement or one batch and can run again: nothing is offered or mailed twice.
 */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db } from "~/db/client.server";
import { configuration, courseMemberships, courses, dogs, membershipStatuses, people, waitlistOffers } from "~/db/schema";
import type { Actor } from "./audit.server";
import { isAbortedAsUnchanged } from "./constraints.server";

/** The hours an offer stands when Einstellungen name none. */
const DEFAULT_OFFER_HOURS = 48;

const WAITLIST = sql`(SELECT id FROM ${membershipStatuses} WHERE code = 'WAITLIST' AND applies_to = 'COURSE')`;
const CANCELLED = sql`(SELECT id FROM ${membershipStatuses} WHERE code = 'CANCELLED' AND applies_to = 'COURSE')`;

/**
 * Offers past their time lapse: the participant leaves the waiting list (Abgemeldet, as staff
 * would set it) and the offer says LAPSED; an offer whose entry left the list otherwise is
 * WITHDRAWN, so its place is free again. Answers how many lapsed.
 */
export async function lapseOffers(db: Db, actor: Actor, now: Date): Promise<number> {
  const nowIso = now.toISOString();
  const due = sql`SELECT course_membership_id FROM ${waitlistOffers} WHERE status = 'OFFERED' AND expires_on <= ${nowIso}`;
  const [, lapsed] = await runAtomically(db, [
    render(sql`UPDATE ${courseMemberships} SET status_id = ${CANCELLED}, last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
      WHERE id IN (${due}) AND status_id = ${WAITLIST}`),
    render(sql`UPDATE ${waitlistOffers} SET status = 'LAPSED', decided_on = ${nowIso}, last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
      WHERE status = 'OFFERED' AND expires_on <= ${nowIso}`),
    // An entry that left the list otherwise (cancelled, or booked by staff) holds no place any more.
    render(sql`UPDATE ${waitlistOffers} SET status = 'WITHDRAWN', decided_on = ${nowIso}, last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
      WHERE status = 'OFFERED' AND course_membership_id NOT IN (SELECT id FROM ${courseMemberships} WHERE status_id = ${WAITLIST})`),
  ]);
  return lapsed.meta.changes ?? 0;
}

/**
 * Offers every free place of a course booked online to the next on its waiting list who has no
 * open offer: free = places - dogs taking part - open offers. One statement: a second run at the
 * same moment finds the places offered. Answers how many offers it made.
 */
export async function offerFreedPlaces(db: Db, actor: Actor, now: Date): Promise<number> {
  const nowIso = now.toISOString();
  const [settings] = await db.select({ hours: configuration.waitlistOfferHours }).from(configuration).limit(1);
  const expires = new Date(now.getTime() + (settings?.hours ?? DEFAULT_OFFER_HOURS) * 3_600_000).toISOString();
  const [result] = await runAtomically(db, [
    render(sql`INSERT INTO ${waitlistOffers} (course_membership_id, offered_on, expires_on, created_by, created_on)
      SELECT id, ${nowIso}, ${expires}, ${actor.name}, ${nowIso} FROM (
        SELECT m.id, ROW_NUMBER() OVER (PARTITION BY m.course_id ORDER BY m.waitlist_rank, m.id) AS position,
          c.max_dogs
            - (SELECT count(*) FROM ${courseMemberships} t JOIN ${membershipStatuses} ts ON ts.id = t.status_id WHERE t.course_id = c.id AND ts.code NOT IN ('WAITLIST', 'CANCELLED'))
            - (SELECT count(*) FROM ${waitlistOffers} o JOIN ${courseMemberships} om ON om.id = o.course_membership_id
                WHERE om.course_id = c.id AND o.status = 'OFFERED' AND om.status_id = ${WAITLIST}) AS free
        FROM ${courseMemberships} m
        JOIN ${courses} c ON c.id = m.course_id
        JOIN course_masters t ON t.id = c.course_master_id AND t.online_booking = 1
        JOIN ${people} p ON p.id = m.person_id AND p.erased_on IS NULL AND trim(coalesce(p.email, '')) <> ''
        WHERE m.status_id = ${WAITLIST} AND c.status_code <> 'FINISHED' AND c.max_dogs IS NOT NULL
          AND EXISTS (SELECT 1 FROM course_dates d WHERE d.course_id = c.id AND d.start_date_time >= ${nowIso})
          AND NOT EXISTS (SELECT 1 FROM ${waitlistOffers} o WHERE o.course_membership_id = m.id AND o.status = 'OFFERED')
      ) WHERE position <= free`),
  ]);
  return result.meta.changes ?? 0;
}

export type OfferToMail = {
  id: number;
  courseId: number;
  courseName: string;
  dogName: string;
  expiresOn: string;
  person: { id: number; firstName: string; lastName: string; email: string };
};

/** Open offers whose mail has not gone out (nor is going out). */
export async function offersToMail(db: Db): Promise<OfferToMail[]> {
  const rows = await db
    .select({
      id: waitlistOffers.id,
      courseId: courses.id,
      courseName: sql<string>`${courses.name}`.as("course_name"),
      dogName: dogs.commonName,
      expiresOn: waitlistOffers.expiresOn,
      personId: people.id,
      firstName: people.firstName,
      lastName: people.lastName,
      email: people.email,
    })
    .from(waitlistOffers)
    .innerJoin(courseMemberships, eq(courseMemberships.id, waitlistOffers.courseMembershipId))
    .innerJoin(courses, eq(courses.id, courseMemberships.courseId))
    .innerJoin(dogs, eq(dogs.id, courseMemberships.dogId))
    .innerJoin(people, eq(people.id, courseMemberships.personId))
    .where(and(eq(waitlistOffers.status, "OFFERED"), isNull(waitlistOffers.mailClaimedOn)))
    .orderBy(asc(waitlistOffers.id));
  return rows.map(({ personId, firstName, lastName, email, ...offer }) => ({ ...offer, person: { id: personId, firstName, lastName, email: email ?? "" } }));
}

/** Claims an offer's mail before it is sent: true for the one run that may send it. */
export async function claimOfferMail(db: Db, offerId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(waitlistOffers)
    .set({ mailClaimedOn: now.toISOString() })
    .where(and(eq(waitlistOffers.id, offerId), isNull(waitlistOffers.mailClaimedOn)))
    .returning({ id: waitlistOffers.id });
  return rows.length === 1;
}

/** The mail went out; or (sent = false) it failed, and the next run tries again. */
export async function settleOfferMail(db: Db, offerId: number, sent: boolean, now: Date): Promise<void> {
  await db
    .update(waitlistOffers)
    .set(sent ? { mailSentOn: now.toISOString() } : { mailClaimedOn: null })
    .where(eq(waitlistOffers.id, offerId));
}

export type OpenOffer = { id: number; membershipId: number; courseId: number; dogId: number; dogName: string; expiresOn: string };

/** The person's open offer `offerId` (still standing at `now`), or undefined. */
export async function openOfferOf(db: Db, personId: number, offerId: number, now: Date): Promise<OpenOffer | undefined> {
  const [row] = await db
    .select({
      id: waitlistOffers.id,
      membershipId: courseMemberships.id,
      courseId: courseMemberships.courseId,
      dogId: courseMemberships.dogId,
      dogName: dogs.commonName,
      expiresOn: waitlistOffers.expiresOn,
    })
    .from(waitlistOffers)
    .innerJoin(courseMemberships, eq(courseMemberships.id, waitlistOffers.courseMembershipId))
    .innerJoin(dogs, eq(dogs.id, courseMemberships.dogId))
    .where(
      and(
        eq(waitlistOffers.id, offerId),
        eq(courseMemberships.personId, personId),
        eq(waitlistOffers.status, "OFFERED"),
        sql`${waitlistOffers.expiresOn} > ${now.toISOString()}`,
      ),
    );
  return row;
}

/** The person's open offers by participant (Meine Kurse shows them on the booking). */
export async function openOffersOf(db: Db, personId: number, now: Date): Promise<Map<number, { id: number; expiresOn: string }>> {
  const rows = await db
    .select({ id: waitlistOffers.id, membershipId: waitlistOffers.courseMembershipId, expiresOn: waitlistOffers.expiresOn })
    .from(waitlistOffers)
    .innerJoin(courseMemberships, eq(courseMemberships.id, waitlistOffers.courseMembershipId))
    .where(and(eq(courseMemberships.personId, personId), eq(waitlistOffers.status, "OFFERED"), sql`${waitlistOffers.expiresOn} > ${now.toISOString()}`));
  return new Map(rows.map((row) => [row.membershipId, { id: row.id, expiresOn: row.expiresOn }]));
}

/**
 * Declines the person's open offer: the participant leaves the waiting list (Abgemeldet) and the
 * place passes on with the next run. False when there is no such open offer (nothing changed).
 */
export async function declineOffer(db: Db, personId: number, offerId: number, actor: Actor, now = new Date()): Promise<boolean> {
  const offer = await openOfferOf(db, personId, offerId, now);
  if (!offer) return false;
  const nowIso = now.toISOString();
  try {
    await runAtomically(db, [
      render(sql`UPDATE ${waitlistOffers} SET status = 'DECLINED', decided_on = ${nowIso}, last_modified_by = ${actor.name}, last_modified_on = ${nowIso},
        row_version = row_version + 1 WHERE id = ${offer.id} AND status = 'OFFERED'`),
      ABORT_UNLESS_CHANGED,
      render(sql`UPDATE ${courseMemberships} SET status_id = ${CANCELLED}, last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
        WHERE id = ${offer.membershipId} AND status_id = ${WAITLIST}`),
    ]);
    return true;
  } catch (error) {
    if (isAbortedAsUnchanged(error)) return false;
    throw error;
  }
}

/**
 * Moves a participant one place up or down its course's waiting list (staff): swaps the ranks of
 * it and its neighbour in one batch, only while both are where they were read. False when it is not
 * on a list, already at that end, or the list changed meanwhile.
 */
export async function moveOnWaitlist(db: Db, membershipId: number, direction: "up" | "down", actor: Actor, now = new Date()): Promise<boolean> {
  const [entry] = await db
    .select({ courseId: courseMemberships.courseId, rank: courseMemberships.waitlistRank })
    .from(courseMemberships)
    .where(and(eq(courseMemberships.id, membershipId), sql`${courseMemberships.statusId} = ${WAITLIST}`));
  if (!entry || entry.rank === null) return false;
  const [neighbour] = await db
    .select({ id: courseMemberships.id, rank: courseMemberships.waitlistRank })
    .from(courseMemberships)
    .where(
      and(
        eq(courseMemberships.courseId, entry.courseId),
        sql`${courseMemberships.statusId} = ${WAITLIST}`,
        direction === "up" ? sql`${courseMemberships.waitlistRank} < ${entry.rank}` : sql`${courseMemberships.waitlistRank} > ${entry.rank}`,
      ),
    )
    .orderBy(direction === "up" ? sql`${courseMemberships.waitlistRank} DESC` : asc(courseMemberships.waitlistRank))
    .limit(1);
  if (!neighbour || neighbour.rank === null) return false;
  const nowIso = now.toISOString();
  try {
    await runAtomically(db, [
      render(sql`UPDATE ${courseMemberships} SET waitlist_rank = CASE id WHEN ${membershipId} THEN ${neighbour.rank} ELSE ${entry.rank} END,
          last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
        WHERE (id = ${membershipId} AND waitlist_rank = ${entry.rank}) OR (id = ${neighbour.id} AND waitlist_rank = ${neighbour.rank})`),
      // Both or neither: a list changed meanwhile leaves it as it is.
      { sql: "SELECT CASE WHEN changes() <> 2 THEN json('unchanged') END", params: [] },
    ]);
    return true;
  } catch (error) {
    if (isAbortedAsUnchanged(error)) return false;
    throw error;
  }
}

export type WaitlistEntry = { id: number; position: number; person: string; dog: string; offeredUntil: string | null };

/** The waiting list of the course `membershipId` belongs to, in order, with open offers (staff). */
export async function waitlistOfCourseOf(db: Db, membershipId: number, now = new Date()): Promise<{ courseName: string; entries: WaitlistEntry[] } | null> {
  const [course] = await db
    .select({ id: courses.id, name: courses.name })
    .from(courseMemberships)
    .innerJoin(courses, eq(courses.id, courseMemberships.courseId))
    .where(eq(courseMemberships.id, membershipId));
  if (!course) return null;
  const rows = await db
    .select({
      id: courseMemberships.id,
      person: sql<string>`${people.fullName}`.as("person_name"),
      dog: dogs.commonName,
      offeredUntil: sql<string | null>`(SELECT expires_on FROM ${waitlistOffers} o WHERE o.course_membership_id = ${courseMemberships.id}
        AND o.status = 'OFFERED' AND o.expires_on > ${now.toISOString()})`.as("offered_until"),
    })
    .from(courseMemberships)
    .innerJoin(people, eq(people.id, courseMemberships.personId))
    .innerJoin(dogs, eq(dogs.id, courseMemberships.dogId))
    .where(and(eq(courseMemberships.courseId, course.id), sql`${courseMemberships.statusId} = ${WAITLIST}`))
    .orderBy(asc(courseMemberships.waitlistRank), asc(courseMemberships.id));
  return { courseName: course.name, entries: rows.map((row, index) => ({ ...row, person: row.person ?? "", position: index + 1 })) };
}
