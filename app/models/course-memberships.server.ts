/**
 * All queries and writes of course memberships (Teilnehmer): a person with a dog in a course, at
 * a price, and the course fee on the Kontenblatt that goes with it (spec 001 §4 course
 * membership). Every write of a membership and its fee is one atomic D1 batch.
 */
import { and, asc, count, desc, eq, sql, sum, type SQL } from "drizzle-orm";
import { type SQLiteSelect } from "drizzle-orm/sqlite-core";
import { ABORT_UNLESS_CHANGED, render, runAtomically, toSql, type Db, type Statement } from "~/db/client.server";
import { qualified } from "~/db/columns";
import {
  attendances,
  courseDates,
  courseMemberships,
  courses,
  dogs,
  fees,
  invoiceRows,
  memberTypes,
  membershipStatuses,
  paymentAllocations,
  payments,
  people,
} from "~/db/schema";
import { formatAge, formatDate, formatMoney, todayInBerlin } from "~/lib/format";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { courseFeeText, dogGenderText } from "~/lib/labels";
import { isRabiesExpired } from "~/lib/rabies";
import type { Capacity } from "~/lib/capacity";
import { type Actor } from "./audit.server";
import { errorText, isAbortedAsUnchanged, isForeignKeyViolation } from "./constraints.server";
import { dogNameKey, pageOfPosition, personNameKeys, positionInOrder, sortKey, type SortKey } from "./paging.server";
import type { DeleteOutcome } from "./people.server";
import { invoiceNumberOfFee, isSettledFee } from "./fees.server";
import { dialogPaymentStatements, reversalStatements, type DialogPayment } from "./payments.server";
import { moveToBin } from "./recycle-bin.server";
import { courseFilter, NOT_TAKING_PART, type CourseQuery } from "./courses.server";
import { membershipRecordsCapture } from "./membership-records.server";
import { attendanceCapture, attendanceCount, attendanceText, attendedCount, heldCount, heldUntil, takesPart } from "./attendances.server";

export const STATUS_CONFIRMED_NOT_FOUND = "membership status CONFIRMED not found";
const MORE_THAN_ONE_FEE = "more than one fee found for this membership";
export const FINISHED_COURSE = "Du kannst keine Teilnehmer zu einem abgeschlossenen Kurs hinzufügen";
export const INVOICED_FEE_CHANGED = "Es wurde ein offener Posten geändert, für den bereits die Rechnung erzeugt wurde";
const MEMBERSHIP_NOT_FOUND = "Could not get courseMembership";
const TARGET_COURSE_NOT_FOUND = "Could not find target course";
export const ALREADY_BOOKED = "Dieser Hund ist mit dieser Person bereits in diesem Kurs angemeldet.";

/** The last day of a course: its last date, else its start (the proof check looks that far). */
const courseEnd = sql<string | null>`coalesce(
  (SELECT substr(max(d.start_date_time), 1, 10) FROM ${courseDates} d WHERE d.course_id = ${qualified(courses.id)}),
  substr(${courses.startDateTime}, 1, 10))`;

/** A participant's rabies date: the later of the date copied at booking and the dog's current one
 *  (a renewed vaccination counts). The participants grid and the home page's warning read it. */
export const participantRabiesDate = sql<string | null>`CASE WHEN ${dogs.rabiesValidUntil} IS NULL THEN ${courseMemberships.rabiesValidUntil}
  WHEN ${courseMemberships.rabiesValidUntil} IS NULL THEN ${dogs.rabiesValidUntil}
  ELSE max(${dogs.rabiesValidUntil}, ${courseMemberships.rabiesValidUntil}) END`;

const hasGdpr = sql<boolean>`(${courseMemberships.hasGdpr} OR ${people.hasGdpr})`;
const hasInsurance = sql<boolean>`(${courseMemberships.hasInsurance} OR ${people.hasInsurance})`;
const paymentComments = sql<string | null>`(SELECT payment_comments FROM ${fees} f WHERE f.id = ${qualified(courseMemberships.feeId)})`;

/** The row's columns; `heldBy` is the instant until which dates count as held ('x von y'). */
const columnsFor = (heldBy: string) => ({
  id: courseMemberships.id,
  courseId: courseMemberships.courseId,
  courseName: sql<string>`${courses.name}`.as("course_name"),
  courseStatusCode: courses.statusCode,
  courseEnd: courseEnd.as("course_end"),
  personId: courseMemberships.personId,
  fullName: sql<string | null>`${people.fullName}`.as("full_name"),
  mobilePhone: people.mobilePhone,
  homePhone: people.homePhone,
  dogId: courseMemberships.dogId,
  dogCommonName: sql<string>`${dogs.commonName}`.as("dog_common_name"),
  dogGender: dogs.gender,
  breed: dogs.breed,
  dateOfBirth: dogs.dateOfBirth,
  rabiesValidUntil: participantRabiesDate.as("rabies_date"),
  feeId: courseMemberships.feeId,
  statusId: courseMemberships.statusId,
  status: sql<string>`${membershipStatuses.name}`.as("status_name"),
  statusCode: sql<string>`${membershipStatuses.code}`.as("membership_status_code"),
  hasGdpr: hasGdpr.mapWith(Boolean).as("gdpr"),
  hasInsurance: hasInsurance.mapWith(Boolean).as("insurance"),
  price: courseMemberships.price,
  amount: courseMemberships.amount,
  isPaid: courseMemberships.isPaid,
  comments: courseMemberships.comments,
  personComments: courseMemberships.personComments,
  dogComments: courseMemberships.dogComments,
  paymentComments: paymentComments.as("payment_comments"),
  attended: attendedCount(courseMemberships, heldBy).as("attended"),
  held: heldCount(courseMemberships, heldBy).as("held"),
});

type Selected = {
  id: number;
  courseId: number;
  courseName: string;
  courseStatusCode: string;
  courseEnd: string | null;
  personId: number;
  fullName: string | null;
  mobilePhone: string | null;
  homePhone: string | null;
  dogId: number;
  dogCommonName: string;
  dogGender: number;
  breed: string | null;
  dateOfBirth: string | null;
  rabiesValidUntil: string | null;
  feeId: number | null;
  statusId: number;
  status: string;
  statusCode: string;
  hasGdpr: boolean;
  hasInsurance: boolean;
  price: number | null;
  amount: number | null;
  isPaid: boolean;
  comments: string | null;
  personComments: string | null;
  dogComments: string | null;
  paymentComments: string | null;
  attended: number;
  held: number;
};

export type MembershipRow = Selected & {
  dogGenderText: string;
  dogAgeText: string;
  /** The rabies vaccination has run out (red and bold). */
  rabiesExpired: boolean;
  /** What the proofs lack for this course (rabies until its end, insurance); empty when complete. */
  proofWarnings: string[];
  /** Not on Warteliste or Abgemeldet: can be ticked present. */
  takesPart: boolean;
  /** '3 von 5': attended of the course's dates held so far. */
  attendanceText: string;
};

/** Beyond the spec: the proofs a dog school checks at booking, for one course. */
export function proofWarnings(proofs: { rabiesValidUntil: string | null; hasInsurance: boolean; courseEnd: string | null }, today: string): string[] {
  const warnings: string[] = [];
  const until = proofs.courseEnd && proofs.courseEnd > today ? proofs.courseEnd : today;
  if (!proofs.rabiesValidUntil) warnings.push("Keine Tollwutimpfung eingetragen");
  else if (isRabiesExpired(proofs.rabiesValidUntil, today)) warnings.push(`Tollwutimpfung abgelaufen (${formatDate(proofs.rabiesValidUntil)})`);
  else if (proofs.rabiesValidUntil < until) warnings.push(`Tollwutimpfung läuft vor Kursende ab (${formatDate(proofs.rabiesValidUntil)})`);
  if (!proofs.hasInsurance) warnings.push("Keine Haftpflichtversicherung eingetragen");
  return warnings;
}

function toRow(row: Selected, today: string): MembershipRow {
  return {
    ...row,
    isPaid: Boolean(row.isPaid),
    dogGenderText: dogGenderText(row.dogGender),
    dogAgeText: formatAge(row.dateOfBirth, today).ageText,
    rabiesExpired: isRabiesExpired(row.rabiesValidUntil, today),
    proofWarnings: proofWarnings(row, today),
    takesPart: takesPart(row.statusCode),
    // Someone on the Warteliste or abgemeldet is not counted against the dates, unless ticked before.
    attendanceText: takesPart(row.statusCode) || row.attended > 0 ? attendanceText(row.attended, row.held) : "",
  };
}

/** Whose memberships: a course's, a person's or a dog's (or all). */
export type MembershipQuery = {
  courseId?: number;
  personId?: number;
  dogId?: number;
  /** The courses' status and year (Kursteilnehmer, all participants across courses); default all. */
  courses?: Pick<CourseQuery, "status" | "year">;
  sort: SortSpec;
};

/**
 * The sort keys are expressions, never aliases of the list's select: pageOfMembership orders the
 * same rows in a window function over a select of its own.
 */
const SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${courseMemberships.id}`),
  fullName: sortKey(...personNameKeys(courseMemberships.personId)),
  courseName: sortKey(sql`${courses.startYear}`, sql`${courses.name} COLLATE NOCASE`),
  courseStart: sortKey(sql`${courses.startDateTime}`),
  dogCommonName: sortKey(dogNameKey(courseMemberships.dogId)),
  dogGenderText: sortKey(sql`${dogs.gender}`),
  breed: sortKey(sql`${dogs.breed} COLLATE NOCASE`),
  dateOfBirth: sortKey(sql`${dogs.dateOfBirth}`),
  dogAgeText: (descending) => sql`${dogs.dateOfBirth} ${sql.raw(descending ? "ASC" : "DESC")} NULLS LAST`,
  rabiesValidUntil: sortKey(participantRabiesDate),
  feeId: sortKey(sql`${courseMemberships.feeId}`),
  status: sortKey(sql`${membershipStatuses.name}`),
  hasGdpr: sortKey(hasGdpr),
  hasInsurance: sortKey(hasInsurance),
  price: sortKey(sql`${courseMemberships.price}`),
  amount: sortKey(sql`${courseMemberships.amount}`),
  isPaid: sortKey(sql`${courseMemberships.isPaid}`),
  comments: sortKey(sql`${courseMemberships.comments}`),
  personComments: sortKey(sql`${courseMemberships.personComments}`),
  dogComments: sortKey(sql`${courseMemberships.dogComments}`),
  paymentComments: sortKey(paymentComments),
};

function orderBy(sort: SortSpec, heldBy: string): SQL[] {
  // Anwesend: by the share of dates attended, then by how many.
  const first =
    sort.id === "attendanceText"
      ? sortKey(
          sql`(${attendedCount(courseMemberships, heldBy)} * 1.0 / max(1, ${heldCount(courseMemberships, heldBy)}))`,
          attendedCount(courseMemberships, heldBy),
        )
      : (SORTS[sort.id] ?? SORTS.fullName);
  return [first(sort.descending), desc(courses.startDateTime), SORTS.fullName(false), SORTS.dogCommonName(false), asc(courseMemberships.id)];
}

function where({ courseId, personId, dogId, courses: courseFilters }: Omit<MembershipQuery, "sort">) {
  return and(
    courseFilters ? courseFilter(courseFilters) : undefined,
    courseId ? eq(courseMemberships.courseId, courseId) : undefined,
    personId ? eq(courseMemberships.personId, personId) : undefined,
    dogId ? eq(courseMemberships.dogId, dogId) : undefined,
  );
}

function joined<Query extends SQLiteSelect>(select: Query, query: Omit<MembershipQuery, "sort">) {
  return select
    .innerJoin(courses, eq(courses.id, courseMemberships.courseId))
    .innerJoin(people, eq(people.id, courseMemberships.personId))
    .innerJoin(dogs, eq(dogs.id, courseMemberships.dogId))
    .innerJoin(membershipStatuses, eq(membershipStatuses.id, courseMemberships.statusId))
    .where(where(query));
}

/** One page of memberships, the number of all that match and the sum of their amounts, in one round trip. */
export async function listMemberships(db: Db, query: MembershipQuery & { page: number; pageSize?: number; today?: string }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const today = query.today ?? todayInBerlin();
  const heldBy = heldUntil(today);
  const [rows, [{ total, amount }]] = await db.batch([
    joined(db.select(columnsFor(heldBy)).from(courseMemberships).$dynamic(), query)
      .orderBy(...orderBy(query.sort, heldBy))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db
      .select({ total: count(), amount: sum(courseMemberships.amount).mapWith(Number) })
      .from(courseMemberships)
      .innerJoin(courses, eq(courses.id, courseMemberships.courseId))
      .where(where(query)),
  ]);
  return { rows: (rows as Selected[]).map((row) => toRow(row, today)), total, sums: { amount: amount ?? 0 } };
}

/** Every membership of the query in grid order (Teilnehmerliste.xlsx). */
export async function listAllMemberships(db: Db, query: MembershipQuery, today = todayInBerlin()): Promise<MembershipRow[]> {
  const heldBy = heldUntil(today);
  const rows = await joined(db.select(columnsFor(heldBy)).from(courseMemberships).$dynamic(), query).orderBy(...orderBy(query.sort, heldBy));
  return (rows as Selected[]).map((row) => toRow(row, today));
}

export async function pageOfMembership(db: Db, id: number, query: MembershipQuery, pageSize = PAGE_SIZE, today = todayInBerlin()) {
  const ordered = joined(
    db
      .select({ id: courseMemberships.id, position: positionInOrder(orderBy(query.sort, heldUntil(today))) })
      .from(courseMemberships)
      .$dynamic(),
    query,
  ).as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

export type MembershipRecord = typeof courseMemberships.$inferSelect & {
  courseName: string;
  fullName: string | null;
  dogCommonName: string;
};

export async function getMembership(db: Db, id: number): Promise<MembershipRecord | undefined> {
  const [row] = await db
    .select({ membership: courseMemberships, courseName: courses.name, fullName: people.fullName, dogCommonName: dogs.commonName })
    .from(courseMemberships)
    .innerJoin(courses, eq(courses.id, courseMemberships.courseId))
    .innerJoin(people, eq(people.id, courseMemberships.personId))
    .innerJoin(dogs, eq(dogs.id, courseMemberships.dogId))
    .where(eq(courseMemberships.id, id));
  return row ? { ...row.membership, courseName: row.courseName, fullName: row.fullName, dogCommonName: row.dogCommonName } : undefined;
}

// ---------------------------------------------------------------------------------------------
// What the dialog offers and copies

/** The statuses of course memberships (scope COURSE). */
export async function membershipStatusOptions(db: Db) {
  return db
    .select({ id: membershipStatuses.id, label: membershipStatuses.name, code: membershipStatuses.code, isFeeTrigger: membershipStatuses.isFeeTrigger })
    .from(membershipStatuses)
    .where(eq(membershipStatuses.appliesTo, "COURSE"))
    .orderBy(asc(membershipStatuses.id));
}

/** A course's places and the dogs taking part in it, without the membership `except` (issue 29/14). */
export async function courseCapacity(db: Db, courseId: number, except: number | null): Promise<Capacity | null> {
  const [row] = await db
    .select({
      maxDogs: courses.maxDogs,
      others: sql<number>`(SELECT count(*) FROM course_memberships m JOIN membership_statuses s ON s.id = m.status_id
        WHERE m.course_id = ${courses}.id AND s.code NOT IN ${NOT_TAKING_PART} AND m.id <> ${except ?? 0})`,
    })
    .from(courses)
    .where(eq(courses.id, courseId));
  return row ? { maxDogs: row.maxDogs, others: Number(row.others) } : null;
}

/** The status a new membership starts with: the one with code CONFIRMED (exactly one, else null). */
export async function confirmedStatusId(db: Db): Promise<number | null> {
  const rows = await db.select({ id: membershipStatuses.id }).from(membershipStatuses).where(eq(membershipStatuses.code, "CONFIRMED")).limit(2);
  return rows.length === 1 ? rows[0].id : null;
}

/** Courses a participant can be added to (not FINISHED), newest first; `keep` is always offered. */
export async function openCourseOptions(db: Db, keep: number | null = null) {
  return db
    .select({ id: courses.id, label: sql<string>`${courses.name}`.as("label"), statusCode: courses.statusCode })
    .from(courses)
    .where(keep ? sql`(${courses.statusCode} <> 'FINISHED' OR ${courses.id} = ${keep})` : sql`${courses.statusCode} <> 'FINISHED'`)
    .orderBy(desc(courses.startYear), sql`${courses.name} COLLATE NOCASE`, asc(courses.id));
}

/** A person as the membership copies them: consent, insurance, and the price tier of their member type. */
export async function personForBooking(db: Db, personId: number) {
  const [row] = await db
    .select({ id: people.id, fullName: people.fullName, hasGdpr: people.hasGdpr, hasInsurance: people.hasInsurance, tier: memberTypes.coursePriceTier })
    .from(people)
    .innerJoin(memberTypes, eq(memberTypes.id, people.memberTypeId))
    .where(eq(people.id, personId));
  return row;
}

/** A course as the membership needs it: status, prices, pricing model, planned sessions, its end. */
export async function courseForBooking(db: Db, courseId: number) {
  const [row] = await db
    .select({
      id: courses.id,
      name: courses.name,
      statusCode: courses.statusCode,
      costFull: courses.costFull,
      costReduced1: courses.costReduced1,
      costReduced2: courses.costReduced2,
      pricingModel: courses.pricingModel,
      nrOfSessions: courses.nrOfSessions,
      courseEnd: courseEnd.as("course_end"),
    })
    .from(courses)
    .where(eq(courses.id, courseId));
  return row;
}

/** The price a person pays for a course: the course's price of their member type's tier (per
 *  session times the planned sessions when the course is priced per session). */
export function priceFor(course: NonNullable<Awaited<ReturnType<typeof courseForBooking>>>, tier: "FULL" | "REDUCED1" | "REDUCED2"): number | null {
  const cost = tier === "REDUCED1" ? course.costReduced1 : tier === "REDUCED2" ? course.costReduced2 : course.costFull;
  if (cost === null) return null;
  return course.pricingModel === "PER_SESSION" ? cost * Math.max(1, course.nrOfSessions ?? 1) : cost;
}

// ---------------------------------------------------------------------------------------------
// Saving a membership and its course fee

export type MembershipInput = {
  courseId: number;
  personId: number;
  dogId: number;
  statusId: number;
  price: number;
  amount: number;
  isPaid: boolean;
  rabiesValidUntil: string | null;
  hasGdpr: boolean;
  hasInsurance: boolean;
  comments: string | null;
  personComments: string | null;
  dogComments: string | null;
  /** How the course fee was paid when 'Bezahlt' is ticked (default: cash today), booked in the payment journal. */
  payment?: DialogPayment;
};

export type MembershipSaveOutcome =
  | { status: "saved"; id: number; /** The fee was already invoiced (with this invoice number): say so. */ invoiced: string | null }
  | { status: "conflict"; current: MembershipRecord }
  | { status: "missing" }
  | { status: "refused"; message: string; field?: keyof MembershipInput };

/** 'bezahlt am 22.11.2026 von Sven Mitarbeiter': who marked the membership paid, and when. */
const paidComment = (today: string, actor: Actor) => `bezahlt am ${formatDate(today)} von ${actor.name}`;

const isDuplicateBooking = (error: unknown) =>
  errorText(error).includes("course_memberships.course_id, course_memberships.person_id, course_memberships.dog_id");

const PAID_NOT_BY_HAND =
  "Die Kursgebühr wurde per Überweisung, Lastschrift oder Mollie bezahlt: Eine solche Zahlung wird unter „Zahlungen“ zurückgebucht, nicht mit dem Haken.";

/** Whether a fee has payments that did not come from a dialog (bank, direct debit, Mollie, corrections). */
async function hasPaymentsNotByHand(db: Db, feeId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(paymentAllocations)
    .innerJoin(payments, eq(payments.id, paymentAllocations.paymentId))
    .where(and(eq(paymentAllocations.feeId, feeId), sql`${payments.source} NOT IN ('MANUAL', 'CASH_RECEIPT', 'MIGRATION', 'REVERSAL')`))
    .limit(1);
  return row !== undefined;
}

type FeeOfMembership = { id: number; amount: number; openAmount: number; isInvoiced: boolean; invoiceNumber: number | null };

/** The fees of a membership (one, as saveMembership keeps it), with whether an invoice holds them. */
export async function feesOfMembership(db: Db, membershipId: number): Promise<FeeOfMembership[]> {
  const rows = await db
    .select({
      id: fees.id,
      amount: fees.amount,
      openAmount: fees.openAmount,
      isInvoiced: fees.isInvoiced,
      invoiceNumber: invoiceNumberOfFee,
    })
    .from(fees)
    .where(eq(fees.courseMembershipId, membershipId));
  return rows.map((row) => ({
    ...row,
    amount: row.amount ?? 0,
    openAmount: row.openAmount ?? 0,
    isInvoiced: Boolean(row.isInvoiced) || row.invoiceNumber !== null,
  }));
}

/**
 * Inserts or updates a membership and, in the same batch, its course fee (spec 001 §4): a status
 * that triggers the fee creates it when there is none; when the paid flag or the amount changed
 * and there is exactly one fee, the fee follows (open amount 0 and who/when when paid, else the
 * amount). An invoiced fee keeps its open amount (the invoice is what gets paid) and the save
 * says so. More than one fee refuses the save.
 */
export async function saveMembership(
  db: Db,
  existing: { id: number; rowVersion: number } | null,
  input: MembershipInput,
  actor: Actor,
  {
    today = todayInBerlin(),
    now = new Date(),
    stored,
  }: { today?: string; now?: Date; /** The membership as the caller already read it (spares a read). */ stored?: MembershipRecord } = {},
): Promise<MembershipSaveOutcome> {
  const [before, course, status, dog, feeRows] = await Promise.all([
    existing ? (stored ?? getMembership(db, existing.id)) : undefined,
    courseForBooking(db, input.courseId),
    db
      .select({ isFeeTrigger: membershipStatuses.isFeeTrigger })
      .from(membershipStatuses)
      .where(eq(membershipStatuses.id, input.statusId))
      .then((rows) => rows[0]),
    db
      .select({ commonName: dogs.commonName })
      .from(dogs)
      .where(eq(dogs.id, input.dogId))
      .then((rows) => rows[0]),
    existing ? feesOfMembership(db, existing.id) : Promise.resolve([]),
  ]);
  if (existing && !before) return { status: "missing" };
  if (!course) return { status: "refused", message: "Diesen Kurs gibt es nicht (mehr)", field: "courseId" };
  if (!status) return { status: "refused", message: "Diesen Status gibt es nicht (mehr)", field: "statusId" };
  if (!dog) return { status: "refused", message: "Diesen Hund gibt es nicht (mehr)", field: "dogId" };
  if (!existing && course.statusCode === "FINISHED") return { status: "refused", message: FINISHED_COURSE, field: "courseId" };
  if (feeRows.length > 1) return { status: "refused", message: MORE_THAN_ONE_FEE };
  if (before && before.rowVersion !== existing!.rowVersion) return { status: "conflict", current: before };

  const nowIso = now.toISOString();
  const amount = input.amount;
  const text = courseFeeText(course.name, dog.commonName);
  const membershipValues = input;
  const statements: Statement[] = [];
  const payment = input.payment ?? { method: "CASH" as const, date: today, key: null };
  // 'Bezahlt' is a payment in the journal, allocated to the course fee (the newest fee when the batch
  // has just written it: the batch runs alone).
  const feePaid = (feeId: number | SQL, paid: number, expectedOpen?: number) =>
    paid > 0
      ? dialogPaymentStatements(
          payment,
          { personId: input.personId, amount: paid, text: `Kursgebühr ${text}` },
          { feeId, amount: paid, expectedOpen },
          actor,
          now,
        )
      : [];
  const newFee = (membershipId: SQL) => [
    render(sql`INSERT INTO ${fees} (person_id, date, text, amount, open_amount, payment_comments, send_invoice, is_invoiced, course_membership_id, kind, created_by, created_on)
      VALUES (${input.personId}, ${today}, ${text}, ${amount}, ${amount}, ${input.isPaid ? paidComment(today, actor) : null}, 1, 0, ${membershipId}, 'COURSE', ${actor.name}, ${nowIso})`),
  ];
  const newFeePaid = () => (input.isPaid ? feePaid(sql`(SELECT max(id) FROM ${fees})`, amount) : []);
  const linkNewFee = (membershipId: SQL) => render(sql`UPDATE ${courseMemberships} SET fee_id = last_insert_rowid() WHERE id = ${membershipId}`);

  let invoiced: string | null = null;
  if (!existing) {
    statements.push(
      toSql(
        db
          .insert(courseMemberships)
          .values({ ...membershipValues, createdBy: actor.name, createdOn: nowIso })
          .returning({ id: courseMemberships.id }),
      ),
    );
    if (status.isFeeTrigger) {
      statements.push(...newFee(sql`last_insert_rowid()`));
      statements.push(
        render(
          sql`UPDATE ${courseMemberships} SET fee_id = last_insert_rowid() WHERE id = (SELECT course_membership_id FROM ${fees} WHERE id = last_insert_rowid())`,
        ),
        ...newFeePaid(),
      );
    }
  } else {
    const { id, rowVersion } = existing;
    statements.push(
      toSql(
        db
          .update(courseMemberships)
          .set({ ...membershipValues, lastModifiedBy: actor.name, lastModifiedOn: nowIso, rowVersion: sql`${courseMemberships.rowVersion} + 1` })
          .where(and(eq(courseMemberships.id, id), eq(courseMemberships.rowVersion, rowVersion))),
      ),
      ABORT_UNLESS_CHANGED,
    );
    const [fee] = feeRows;
    if (!fee && status.isFeeTrigger) {
      statements.push(...newFee(sql`${id}`), linkNewFee(sql`${id}`), ...newFeePaid());
    } else if (fee) {
      const paidChanged = Boolean(before!.isPaid) !== input.isPaid;
      const amountChanged = (before!.amount ?? 0) !== amount;
      const audit = sql`last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1`;
      if (fee.isInvoiced) {
        // The invoice is what gets paid: the fee's open amount stays; its amount and text follow.
        if (amountChanged || paidChanged) invoiced = fee.invoiceNumber === null ? "" : String(fee.invoiceNumber);
        statements.push(
          render(sql`UPDATE ${fees} SET amount = ${amount}, open_amount = min(open_amount, ${amount}), text = ${text}, ${audit} WHERE id = ${fee.id}`),
        );
      } else if (amountChanged || paidChanged) {
        // The open amount is what the journal's payments leave: a new amount moves it by the
        // difference; 'Bezahlt' books what is then open, unticking it undoes the fee's payments.
        const paidSoFar = fee.amount - fee.openAmount;
        if (input.isPaid && amount < paidSoFar) {
          return {
            status: "refused",
            field: "amount",
            message: `Auf die Kursgebühr sind schon ${formatMoney(paidSoFar)} gezahlt: Der Betrag kann nicht darunter liegen.`,
          };
        }
        statements.push(
          render(sql`UPDATE ${fees} SET person_id = ${input.personId}, text = ${text}, amount = ${amount}, open_amount = open_amount + (${amount} - amount),
            payment_comments = ${input.isPaid ? paidComment(today, actor) : null}, ${audit} WHERE id = ${fee.id}`),
        );
        if (input.isPaid) statements.push(...feePaid(fee.id, amount - paidSoFar, amount - paidSoFar));
        else if (paidSoFar > 0) {
          if (await hasPaymentsNotByHand(db, fee.id)) return { status: "refused", field: "isPaid", message: PAID_NOT_BY_HAND };
          statements.splice(
            statements.length - 1,
            0,
            ...reversalStatements(
              sql`SELECT payment_id FROM ${paymentAllocations} WHERE fee_id = ${fee.id}`,
              { date: today, text: `Kursgebühr nicht bezahlt (Haken entfernt von ${actor.name})` },
              actor,
              nowIso,
            ),
          );
        }
      } else {
        statements.push(
          render(
            sql`UPDATE ${fees} SET person_id = ${input.personId}, text = ${text}, ${audit} WHERE id = ${fee.id} AND (text <> ${text} OR person_id <> ${input.personId})`,
          ),
        );
      }
    }
  }

  try {
    const results = await runAtomically(db, statements);
    const id = existing ? existing.id : (results[0].results[0] as { id: number }).id;
    return { status: "saved", id, invoiced };
  } catch (error) {
    if (isAbortedAsUnchanged(error) && existing) {
      const current = await getMembership(db, existing.id);
      return current ? { status: "conflict", current } : { status: "missing" };
    }
    if (isDuplicateBooking(error)) return { status: "refused", message: ALREADY_BOOKED, field: "dogId" };
    if (isForeignKeyViolation(error))
      return { status: "refused", message: "Ein ausgewählter Eintrag existiert nicht (mehr). Bitte prüfe die Auswahl und speichere erneut." };
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Transfer and delete

/** Moves a membership to another course; its fee's text follows (an invoiced fee keeps its text). */
export async function transferMembership(db: Db, id: number, targetCourseId: number, actor: Actor, now = new Date()) {
  const [membership, target] = await Promise.all([getMembership(db, id), courseForBooking(db, targetCourseId)]);
  if (!membership) return { status: "refused" as const, message: MEMBERSHIP_NOT_FOUND };
  if (!target) return { status: "refused" as const, message: TARGET_COURSE_NOT_FOUND };
  if (target.id === membership.courseId) return { status: "refused" as const, message: "Der Teilnehmer ist bereits in diesem Kurs." };
  const nowIso = now.toISOString();
  const text = courseFeeText(target.name, membership.dogCommonName);
  try {
    await runAtomically(db, [
      render(
        sql`UPDATE ${courseMemberships} SET course_id = ${target.id}, last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1 WHERE id = ${id}`,
      ),
      ABORT_UNLESS_CHANGED,
      render(sql`UPDATE ${fees} SET text = ${text}, last_modified_by = ${actor.name}, last_modified_on = ${nowIso}, row_version = row_version + 1
        WHERE course_membership_id = ${id} AND is_invoiced = 0 AND id NOT IN (SELECT fee_id FROM ${invoiceRows} WHERE fee_id IS NOT NULL AND fee_released = 0)`),
    ]);
  } catch (error) {
    if (isAbortedAsUnchanged(error)) return { status: "refused" as const, message: MEMBERSHIP_NOT_FOUND };
    if (isDuplicateBooking(error)) return { status: "refused" as const, message: "Dieser Hund ist mit dieser Person bereits im Zielkurs angemeldet." };
    if (isForeignKeyViolation(error)) return { status: "refused" as const, message: TARGET_COURSE_NOT_FOUND };
    throw error;
  }
  return { status: "transferred" as const, personName: membership.fullName ?? "", courseName: target.name };
}

/** The course fee of a membership that bookkeeping already holds (invoiced or partly paid). */
async function settledFeeCount(db: Db, id: number) {
  const [{ settled }] = await db
    .select({ settled: count() })
    .from(fees)
    .where(and(eq(fees.courseMembershipId, id), isSettledFee));
  return settled;
}

/**
 * Deletes a membership into the recycle bin together with its course fee, so that a restore
 * brings both back, linked as before. Refused while the fee is invoiced or paid: bookkeeping is
 * never deleted along (set the status to 'Abgemeldet' instead).
 */
export async function deleteMembership(db: Db, id: number, actor: Actor): Promise<DeleteOutcome> {
  const [membership, settled] = await Promise.all([getMembership(db, id), settledFeeCount(db, id)]);
  if (!membership) return { status: "missing" };
  if (settled > 0) {
    return {
      status: "refused",
      message:
        "Der Teilnehmer kann nicht gelöscht werden: Seine Kursgebühr ist bereits bezahlt oder in Rechnung gestellt. Setze stattdessen den Status auf „Abgemeldet“.",
    };
  }
  const transactionId = await moveToBin(db, {
    main: {
      table: courseMemberships,
      where: eq(courseMemberships.id, id),
      identifiers: [
        sql`(SELECT full_name FROM people WHERE people.id = person_id)`,
        sql`(SELECT common_name FROM dogs WHERE dogs.id = dog_id)`,
        sql`(SELECT name FROM courses WHERE courses.id = course_id)`,
      ],
    },
    dependents: [
      ...attendanceCapture(eq(attendances.courseMembershipId, id)),
      { table: fees, where: eq(fees.courseMembershipId, id), identifiers: [sql`${fees.text}`, sql`${fees.amount}`] },
      // The evidence of a booking made in Mein Wuff goes along and comes back with it.
      ...membershipRecordsCapture(sql`(${id})`),
    ],
    deletedBy: actor.name,
  });
  return { status: "deleted", transactionId };
}

/** What deleting a membership takes into the bin with it. */
export async function membershipDeletionContents(db: Db, id: number) {
  const [[{ feeCount }], attendanceRows] = await Promise.all([
    db.select({ feeCount: count() }).from(fees).where(eq(fees.courseMembershipId, id)),
    attendanceCount(db, { courseMembershipId: id }),
  ]);
  return { feeCount, attendanceCount: attendanceRows };
}
