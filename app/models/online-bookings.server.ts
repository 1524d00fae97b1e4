/**
 * Booking a course in Mein Wuff (issue 33 item 2): a signed-in person books a course of the public
 * catalogue for one of their dogs or a new one. The dog's papers are checked against the course
 * type (app/lib/booking-requirements.ts), the price follows the person's member type, and the
 * accepted versions of the AGB, the Widerrufsbelehrung and the privacy notice are kept with the
 * booking. Whether it is a place or the waiting list is decided inside the one D1 batch that
 * writes it, so two people taking the last place at the same moment cannot both get it.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { ABORT_UNLESS_CHANGED, render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { courseMasters, courseMemberships, courses, dogs, fees, legalTexts, membershipStatuses, onlineBookings, waitlistOffers } from "~/db/schema";
import { bookingRefusals, type DogProofs } from "~/lib/booking-requirements";
import { berlinDateOf, todayInBerlin } from "~/lib/format";
import { courseFeeText } from "~/lib/labels";
import type { OnlineBookingEvidence } from "~/lib/online-bookings";
import type { LegalTextKind } from "~/lib/consents";
import { TEXTS_MISSING } from "~/lib/portal";
import type { Actor } from "./audit.server";
import { catalogue, type CatalogueCourse } from "./catalogue.server";
import { currentLegalTexts, type LegalText } from "./consents.server";
import { errorText, isAbortedAsUnchanged } from "./constraints.server";
import { courseForBooking, personForBooking, priceFor } from "./course-memberships.server";
import { claimedPlaces, NOT_TAKING_PART } from "./courses.server";
import { openOfferOf, type OpenOffer } from "./waitlist.server";

/** The texts a contract made online accepts (a booking, a purchase), in the order the page shows them. */
const BOOKING_TEXT_KINDS = ["TERMS", "WITHDRAWAL", "PRIVACY"] as const satisfies readonly LegalTextKind[];
export type ContractTexts = Record<(typeof BOOKING_TEXT_KINDS)[number], LegalText>;
/** The ids of the text versions a page showed and the person accepted. */
export type AcceptedTexts = Record<(typeof BOOKING_TEXT_KINDS)[number], number>;

/** The AGB, the Widerrufsbelehrung and the privacy notice in force, or null while one of them is not published: then nothing can be booked or bought online. */
export async function contractTexts(db: Db): Promise<ContractTexts | null> {
  const texts = await currentLegalTexts(db, BOOKING_TEXT_KINDS);
  return BOOKING_TEXT_KINDS.every((kind) => texts[kind]) ? (texts as ContractTexts) : null;
}

/** Whether the versions accepted are those in force (a newer one published meanwhile stops the contract). */
export const acceptedAreCurrent = (texts: ContractTexts, accepted: AcceptedTexts) => BOOKING_TEXT_KINDS.every((kind) => texts[kind].id === accepted[kind]);

/** A dog as the booking page offers it: its name and why it may not be booked (empty: it may). */
type BookableDog = { id: number; name: string; refusals: string[] };

export type BookingPage = {
  course: CatalogueCourse;
  /** What this person pays (cents), or null when the course has no price for their member type. */
  price: number | null;
  dogs: BookableDog[];
  /** A new dog entered on the page cannot be booked: the course asks for papers or a prior course it has not got yet. */
  newDogNeedsPapers: boolean;
  /** The texts in force, or null while one of them is not published: then nobody can book. */
  texts: ContractTexts | null;
  withdrawalRight: boolean;
};

/** The course type's rules and the Berlin days the booking covers (first and last date to come). */
async function courseRules(db: Db, course: CatalogueCourse) {
  const [row] = await db
    .select({
      minDogAgeWeeks: courseMasters.minDogAgeWeeks,
      requiresRabies: courseMasters.requiresRabies,
      requiresInsurance: courseMasters.requiresInsurance,
      priorCourseMasterId: courseMasters.priorCourseMasterId,
      priorCourseName: sql<string | null>`(SELECT name FROM ${courseMasters} prior WHERE prior.id = ${courseMasters.priorCourseMasterId})`.as(
        "prior_course_name",
      ),
      withdrawalRight: courseMasters.withdrawalRight,
    })
    .from(courseMasters)
    .where(eq(courseMasters.id, course.typeId));
  const [first] = course.dates;
  // An open group is booked from its next date on: its papers must hold on that one.
  const last = course.ongoing ? first : course.dates[course.dates.length - 1];
  return { rules: row, firstDay: first ? berlinDateOf(first.start) : null, lastDay: last ? berlinDateOf(last.start) : null };
}

/** The person's current dogs with what the requirements read: birth, proofs and course types taken part in. */
async function dogProofsOf(db: Db, personId: number, dogId?: number): Promise<(DogProofs & { id: number })[]> {
  const rows = await db
    .select({
      id: dogs.id,
      name: dogs.commonName,
      dateOfBirth: dogs.dateOfBirth,
      rabiesValidUntil: dogs.rabiesValidUntil,
      insuranceValidUntil: dogs.insuranceValidUntil,
      takenPartTypes: sql<string | null>`(SELECT group_concat(DISTINCT c.course_master_id) FROM ${courseMemberships} m
        JOIN ${courses} c ON c.id = m.course_id JOIN ${membershipStatuses} s ON s.id = m.status_id
        WHERE m.dog_id = ${dogs}.id AND s.code NOT IN ${NOT_TAKING_PART} AND c.course_master_id IS NOT NULL)`.as("taken_part_types"),
    })
    .from(dogs)
    .where(and(eq(dogs.ownerId, personId), eq(dogs.archived, false), dogId === undefined ? undefined : eq(dogs.id, dogId)))
    .orderBy(asc(dogs.commonNameKey), asc(dogs.id));
  return rows.map(({ takenPartTypes, ...dog }) => ({ ...dog, takenPartTypeIds: takenPartTypes ? takenPartTypes.split(",").map(Number) : [] }));
}

/** The course as the catalogue shows it, read fresh (never from the edge cache), or undefined when it is not open for booking. */
async function openCourse(db: Db, courseId: number, now: Date) {
  const { courses: open } = await catalogue(db, now.toISOString());
  return open.find((course) => course.id === courseId);
}

/** Everything the booking page of `courseId` shows to `personId`, or null when the course cannot be booked online. */
export async function bookingPage(db: Db, personId: number, courseId: number, now = new Date()): Promise<BookingPage | null> {
  return (await bookingContext(db, personId, courseId, now))?.page ?? null;
}

/** The booking page, and what booking reads besides: the person and the course's rules for any dog. */
async function bookingContext(db: Db, personId: number, courseId: number, now: Date) {
  const course = await openCourse(db, courseId, now);
  if (!course) return null;
  const [{ rules, firstDay, lastDay }, ownDogs, person, priced, texts] = await Promise.all([
    courseRules(db, course),
    dogProofsOf(db, personId),
    personForBooking(db, personId),
    courseForBooking(db, courseId),
    contractTexts(db),
  ]);
  const refusalsOf = (dog: DogProofs) => (rules && firstDay && lastDay ? bookingRefusals(rules, dog, firstDay, lastDay) : []);
  const page: BookingPage = {
    course,
    price: person && priced ? priceFor(priced, person.tier) : null,
    dogs: ownDogs.map((dog) => ({ id: dog.id, name: dog.name, refusals: refusalsOf(dog) })),
    newDogNeedsPapers: Boolean(rules && (rules.requiresRabies || rules.requiresInsurance || rules.priorCourseMasterId !== null)),
    texts,
    withdrawalRight: Boolean(rules?.withdrawalRight),
  };
  return { page, person, refusalsOf };
}

type NewDog = { commonName: string; breed: string | null; gender: 0 | 1 | 2; dateOfBirth: string };

export type BookingInput = {
  personId: number;
  courseId: number;
  /** One of the person's dogs, or a new one to enter. */
  dog: { id: number } | NewDog;
  /** A place when there is one ('book', the button that obliges to pay), or the waiting list in any case. */
  mode: "book" | "waitlist";
  /** The ids of the text versions the page showed and the person accepted. */
  accepted: AcceptedTexts;
  /** The client's address (CF-Connecting-IP). */
  from: string;
  /** Accepting this offer of a place from the waiting list (the dog is the waiting one's). */
  offerId?: number;
};

export type BookingOutcome =
  | {
      status: "booked";
      membershipId: number;
      place: "CONFIRMED" | "WAITLIST";
      courseName: string;
      dogName: string;
      amount: number;
      waitlistPosition: number | null;
    }
  | { status: "refused"; messages: string[]; field?: "dog" | "texts" | "course" };

export const COURSE_NOT_BOOKABLE = "Dieser Kurs kann nicht (mehr) online gebucht werden.";
export const TEXTS_CHANGED =
  "Die AGB, die Widerrufsbelehrung oder die Datenschutzhinweise wurden eben geändert. Bitte lies die aktuelle Fassung und bestätige sie erneut.";
const NO_PRICE = "Für deine Mitgliedsart hat dieser Kurs keinen Preis. Bitte melde dich bei uns, wir buchen dich gern von Hand.";
export const OFFER_GONE = "Dieses Angebot gilt nicht mehr: Es ist abgelaufen, schon angenommen oder abgelehnt.";
export const ALREADY_BOOKED_ONLINE = "Dieser Hund ist für diesen Kurs bereits angemeldet oder steht auf seiner Warteliste.";
const UNKNOWN_DOG = "Diesen Hund gibt es bei dir nicht (mehr). Bitte wähle einen deiner Hunde.";

const isDuplicateBooking = (error: unknown) =>
  errorText(error).includes("course_memberships.course_id, course_memberships.person_id, course_memberships.dog_id");

/**
 * Books the course: checks the course is open, the dog's requirements, the price and the accepted
 * texts, then writes in one batch the new dog (if any), the participant - 'Bestätigt' while the
 * dogs taking part and waiting leave a place, else 'Warteliste', decided inside the statement -,
 * the course fee when the status triggers one (as a staff booking does, spec 001 §4), and the
 * booking's evidence. Nothing is written when anything is refused.
 */
export async function bookOnline(db: Db, input: BookingInput, actor: Actor, now = new Date()): Promise<BookingOutcome> {
  const context = await bookingContext(db, input.personId, input.courseId, now);
  if (!context) return { status: "refused", messages: [COURSE_NOT_BOOKABLE], field: "course" };
  const { page, person, refusalsOf } = context;
  if (!page.texts) return { status: "refused", messages: [TEXTS_MISSING], field: "texts" };
  if (!acceptedAreCurrent(page.texts, input.accepted)) return { status: "refused", messages: [TEXTS_CHANGED], field: "texts" };
  if (page.price === null) return { status: "refused", messages: [NO_PRICE], field: "course" };

  let offer: OpenOffer | undefined;
  if (input.offerId !== undefined) {
    offer = await openOfferOf(db, input.personId, input.offerId, now);
    if (!offer || offer.courseId !== input.courseId) return { status: "refused", messages: [OFFER_GONE], field: "course" };
    input = { ...input, dog: { id: offer.dogId } };
  }
  let dogName: string;
  if ("id" in input.dog) {
    const dog = page.dogs.find((candidate) => candidate.id === (input.dog as { id: number }).id);
    if (!dog) return { status: "refused", messages: [UNKNOWN_DOG], field: "dog" };
    if (dog.refusals.length) return { status: "refused", messages: dog.refusals, field: "dog" };
    dogName = dog.name;
  } else {
    const refusals = refusalsOf({
      name: input.dog.commonName,
      dateOfBirth: input.dog.dateOfBirth,
      rabiesValidUntil: null,
      insuranceValidUntil: null,
      takenPartTypeIds: [],
    });
    if (refusals.length) return { status: "refused", messages: refusals, field: "dog" };
    dogName = input.dog.commonName;
  }

  const nowIso = now.toISOString();
  const today = todayInBerlin(now);
  const { personId, courseId } = input;
  const statements: Statement[] = [];
  if (!("id" in input.dog)) {
    const dog = input.dog;
    statements.push(
      render(sql`INSERT INTO ${dogs} (owner_id, common_name, breed, gender, date_of_birth, created_by, created_on)
        VALUES (${personId}, ${dog.commonName}, ${dog.breed}, ${dog.gender}, ${dog.dateOfBirth}, ${actor.name}, ${nowIso})`),
    );
  }
  // The dog just written is the person's newest (the batch runs alone).
  const dogId = "id" in input.dog ? sql`${input.dog.id}` : sql`(SELECT max(id) FROM ${dogs} WHERE owner_id = ${personId})`;
  const membership = offer
    ? sql`${offer.membershipId}`
    : sql`(SELECT id FROM ${courseMemberships} WHERE course_id = ${courseId} AND person_id = ${personId} AND dog_id = ${dogId})`;
  if (offer) {
    // The waiting participant takes the place, while the offer stands.
    statements.push(
      render(sql`UPDATE ${courseMemberships} SET status_id = (SELECT id FROM ${membershipStatuses} WHERE code = 'CONFIRMED' AND applies_to = 'COURSE'),
          price = ${page.price}, amount = ${page.price}, rabies_valid_until = (SELECT rabies_valid_until FROM ${dogs} WHERE id = ${dogId}),
          last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
        WHERE id = ${offer.membershipId} AND status_id = (SELECT id FROM ${membershipStatuses} WHERE code = 'WAITLIST' AND applies_to = 'COURSE')
          AND EXISTS (SELECT 1 FROM ${waitlistOffers} WHERE id = ${offer.id} AND status = 'OFFERED' AND expires_on > ${nowIso})`),
      ABORT_UNLESS_CHANGED,
      render(sql`UPDATE ${waitlistOffers} SET status = 'ACCEPTED', decided_on = ${nowIso}, last_modified_by = ${actor.name}, last_modified_on = ${nowIso},
        row_version = row_version + 1 WHERE id = ${offer.id}`),
    );
  } else {
    // A place while the dogs taking part and those already waiting leave one (claimedPlaces).
    const place =
      input.mode === "waitlist"
        ? sql`'WAITLIST'`
        : sql`CASE WHEN ${courses.maxDogs} IS NULL OR ${claimedPlaces} < ${courses.maxDogs} THEN 'CONFIRMED' ELSE 'WAITLIST' END`;
    statements.push(
      render(sql`INSERT INTO ${courseMemberships} (course_id, person_id, dog_id, status_id, price, amount, is_paid, rabies_valid_until, has_gdpr, has_insurance, created_by, created_on)
        SELECT ${courses.id}, ${personId}, ${dogId}, (SELECT id FROM ${membershipStatuses} WHERE code = ${place} AND applies_to = 'COURSE'), ${page.price}, ${page.price}, 0,
          (SELECT rabies_valid_until FROM ${dogs} WHERE id = ${dogId}), ${person?.hasGdpr ? 1 : 0}, ${person?.hasInsurance ? 1 : 0}, ${actor.name}, ${nowIso}
        FROM ${courses} WHERE ${courses.id} = ${courseId}`),
    );
  }
  const act = offer ? sql`'OFFER_ACCEPTED'` : sql`CASE s.code WHEN 'WAITLIST' THEN 'WAITLISTED' ELSE 'BOOKED' END`;
  statements.push(
    // The course fee as a staff booking writes it: when the status triggers one (spec 001 §4).
    render(sql`INSERT INTO ${fees} (person_id, date, text, amount, open_amount, send_invoice, is_invoiced, course_membership_id, kind, created_by, created_on)
      SELECT ${personId}, ${today}, ${courseFeeText(page.course.name, dogName)}, m.amount, m.amount, 1, 0, m.id, 'COURSE', ${actor.name}, ${nowIso}
      FROM ${courseMemberships} m JOIN ${membershipStatuses} s ON s.id = m.status_id WHERE m.id = ${membership} AND s.is_fee_trigger = 1 AND m.fee_id IS NULL`),
    render(sql`UPDATE ${courseMemberships} SET fee_id = (SELECT max(id) FROM ${fees} WHERE course_membership_id = ${courseMemberships.id})
      WHERE id = ${membership} AND fee_id IS NULL`),
    render(sql`INSERT INTO ${onlineBookings} (course_membership_id, act, booked_on, booked_from, terms_text_id, withdrawal_text_id, privacy_text_id, withdrawal_right, created_by, created_on)
      SELECT m.id, ${act}, ${nowIso}, ${input.from}, ${input.accepted.TERMS}, ${input.accepted.WITHDRAWAL},
        ${input.accepted.PRIVACY}, ${page.withdrawalRight ? 1 : 0}, ${actor.name}, ${nowIso}
      FROM ${courseMemberships} m JOIN ${membershipStatuses} s ON s.id = m.status_id WHERE m.id = ${membership}`),
  );
  try {
    await runAtomically(db, statements);
  } catch (error) {
    if (offer && isAbortedAsUnchanged(error)) return { status: "refused", messages: [OFFER_GONE], field: "course" };
    if (isDuplicateBooking(error)) return { status: "refused", messages: [ALREADY_BOOKED_ONLINE], field: "dog" };
    throw error;
  }
  const [booked] = await db
    .select({
      id: courseMemberships.id,
      statusCode: membershipStatuses.code,
      amount: courseMemberships.amount,
      waitlistPosition: sql<number>`(SELECT count(*) FROM ${courseMemberships} m JOIN ${membershipStatuses} s ON s.id = m.status_id
        WHERE m.course_id = ${courseId} AND s.code = 'WAITLIST' AND m.waitlist_rank <= ${courseMemberships.waitlistRank})`.as("waitlist_position"),
    })
    .from(courseMemberships)
    .innerJoin(membershipStatuses, eq(membershipStatuses.id, courseMemberships.statusId))
    .innerJoin(onlineBookings, and(eq(onlineBookings.courseMembershipId, courseMemberships.id), eq(onlineBookings.bookedOn, nowIso)))
    .where(and(eq(courseMemberships.courseId, courseId), eq(courseMemberships.personId, personId)))
    .orderBy(sql`${courseMemberships.id} DESC`)
    .limit(1);
  const waiting = booked.statusCode === "WAITLIST";
  return {
    status: "booked",
    membershipId: booked.id,
    place: waiting ? "WAITLIST" : "CONFIRMED",
    courseName: page.course.name,
    dogName,
    amount: booked.amount ?? 0,
    waitlistPosition: waiting ? Number(booked.waitlistPosition) : null,
  };
}

/** The evidence of what the person did online for this participant, oldest first, as staff see it (issue 33 item 5); empty for a booking made by staff. */
export async function onlineBookingsOf(db: Db, membershipId: number): Promise<OnlineBookingEvidence[]> {
  const rows = await db
    .select({
      act: onlineBookings.act,
      bookedOn: onlineBookings.bookedOn,
      bookedFrom: onlineBookings.bookedFrom,
      withdrawalRight: onlineBookings.withdrawalRight,
      termsVersion: sql<number | null>`(SELECT version FROM ${legalTexts} WHERE id = ${onlineBookings.termsTextId})`.as("terms_version"),
      withdrawalVersion: sql<number | null>`(SELECT version FROM ${legalTexts} WHERE id = ${onlineBookings.withdrawalTextId})`.as("withdrawal_version"),
      privacyVersion: sql<number | null>`(SELECT version FROM ${legalTexts} WHERE id = ${onlineBookings.privacyTextId})`.as("privacy_version"),
    })
    .from(onlineBookings)
    .where(eq(onlineBookings.courseMembershipId, membershipId))
    .orderBy(asc(onlineBookings.bookedOn), asc(onlineBookings.id));
  return rows.map((row) => ({ ...row, withdrawalRight: Boolean(row.withdrawalRight) }));
}
