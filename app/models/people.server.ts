/**
 * All queries and writes of people (Personen).
 */
import { and, asc, count, desc, eq, gte, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { qualified } from "~/db/columns";
import {
  certifications,
  consents,
  courseDates,
  courseMemberships,
  courses,
  dogPapers,
  dogs,
  fees,
  invoiceHeaders,
  membershipStatuses,
  memberTypes,
  people,
  sepaMandates,
  type SALUTATIONS,
} from "~/db/schema";
import type { SortSpec } from "~/lib/grid";
import { PAGE_SIZE } from "~/lib/grid";
import { pageOfPosition, positionInOrder } from "./paging.server";
import { nameMatches, personNames } from "./search.server";
import { moveToBin } from "./recycle-bin.server";
import { attendanceOfMemberships } from "./attendances.server";
import { membershipRecordsCapture } from "./membership-records.server";
import { mandatesOfPersonCapture } from "./sepa-mandates.server";
import { auditInsert, updateVersioned, type Actor, type UpdateOutcome } from "./audit.server";

/**
 * Whose consent allows the mails that are not part of a contract: mailshots and birthday mails go
 * only to people with the GDPR consent flag (has_gdpr). Invoice, payment link and reminder mails
 * are contractual (Art. 6 (1) b GDPR) and need no consent. The one rule every such mail uses.
 */
export const mailConsentAllows: SQL = sql`${people.hasGdpr} = 1`;

export const PEOPLE_FILTERS = ["all", "members", "nonmembers"] as const;
export type PeopleFilter = (typeof PEOPLE_FILTERS)[number];

/** What every role sees of a person in the grid. */
const publicColumns = {
  id: people.id,
  lastName: people.lastName,
  firstName: people.firstName,
  fullName: people.fullName,
  salutation: people.salutation,
  title: people.title,
  streetNumber: people.streetNumber,
  zip: people.zip,
  city: people.city,
  email: people.email,
  homePhone: people.homePhone,
  mobilePhone: people.mobilePhone,
  dateOfBirth: people.dateOfBirth,
  isMember: people.isMember,
  // Aliased: two joined columns both called "name" would collide in D1's row objects.
  memberType: sql<string>`${memberTypes.name}`.as("member_type_name"),
  membershipStatus: sql<string | null>`${membershipStatuses.name}`.as("membership_status_name"),
  hsvrmNr: people.hsvrmNr,
  isVorstand: people.isVorstand,
  isTrainer: people.isTrainer,
  hasInsurance: people.hasInsurance,
  isBusiness: people.isBusiness,
  comments: people.comments,
  erased: sql<boolean>`${people.erasedOn} IS NOT NULL`.mapWith(Boolean).as("person_erased"),
};

/** Membership dates and GDPR consent: only ADMIN and GDPR see them (spec 000 §6). */
const protectedColumns = {
  memberSince: people.memberSince,
  memberUntil: people.memberUntil,
  hasGdpr: people.hasGdpr,
};

/** The person's active SEPA mandate (ADMIN and FINANCE only): its reference and the IBAN masked
 *  in SQL, so the full IBAN never leaves the database for a grid or an export. */
const bankColumns = {
  mandateReference: sql<string | null>`(SELECT reference FROM sepa_mandates WHERE person_id = ${qualified(people.id)} AND is_active = 1)`.as(
    "mandate_reference",
  ),
  mandateIban: sql<
    string | null
  >`(SELECT substr(iban, 1, 4) || replace(hex(zeroblob(length(iban) - 8)), '00', '*') || substr(iban, -4) FROM sepa_mandates WHERE person_id = ${qualified(people.id)} AND is_active = 1)`.as(
    "mandate_iban_masked",
  ),
};

export type PersonRow = {
  id: number;
  lastName: string;
  firstName: string;
  fullName: string | null;
  salutation: string | null;
  title: string | null;
  streetNumber: string | null;
  zip: string | null;
  city: string | null;
  email: string | null;
  homePhone: string | null;
  mobilePhone: string | null;
  dateOfBirth: string | null;
  isMember: boolean;
  /** Erased (GDPR), kept as 'Gelöschte Person' for retained records: no mail to them. */
  erased: boolean;
  memberType: string;
  membershipStatus: string | null;
  hsvrmNr: string | null;
  isVorstand: boolean;
  isTrainer: boolean;
  hasInsurance: boolean;
  /** Unternehmer (§ 14 BGB): default interest at 9 points above the base rate (§ 288 Abs. 2 BGB). */
  isBusiness: boolean;
  comments: string | null;
  memberSince?: string | null;
  memberUntil?: string | null;
  hasGdpr?: boolean;
  mandateReference?: string | null;
  /** Masked: 'DE89**************3000'. */
  mandateIban?: string | null;
};

/** Sort keys of the people grid and the columns they sort by (spec: lastName, then firstName).
 *  Names sort by their DIN 5007 keys (Ärmel with A), which people_name_key_idx holds in order. */
const SORTS: Record<string, SQL | typeof people.lastName> = {
  id: sql`${people.id}`,
  lastName: sql`${people.lastNameKey}`,
  firstName: sql`${people.firstNameKey}`,
  salutation: sql`${people.salutation}`,
  title: sql`${people.title}`,
  streetNumber: sql`${people.streetNumber} COLLATE NOCASE`,
  zip: sql`${people.zip}`,
  city: sql`${people.city} COLLATE NOCASE`,
  email: sql`${people.email} COLLATE NOCASE`,
  homePhone: sql`${people.homePhone}`,
  mobilePhone: sql`${people.mobilePhone}`,
  dateOfBirth: sql`${people.dateOfBirth}`,
  isMember: sql`${people.isMember}`,
  memberType: sql`${memberTypes.name}`,
  membershipStatus: sql`${membershipStatuses.name}`,
  hsvrmNr: sql`${people.hsvrmNr}`,
  isVorstand: sql`${people.isVorstand}`,
  isTrainer: sql`${people.isTrainer}`,
  hasInsurance: sql`${people.hasInsurance}`,
  isBusiness: sql`${people.isBusiness}`,
  comments: sql`${people.comments}`,
  memberSince: sql`${people.memberSince}`,
  memberUntil: sql`${people.memberUntil}`,
  hasGdpr: sql`${people.hasGdpr}`,
  mandateReference: sql`(SELECT reference FROM sepa_mandates WHERE person_id = ${qualified(people.id)} AND is_active = 1)`,
};
export const PEOPLE_DEFAULT_SORT: SortSpec = { id: "lastName", descending: false };

const membershipCondition = (filter: PeopleFilter) =>
  filter === "members" ? eq(people.isMember, true) : filter === "nonmembers" ? eq(people.isMember, false) : undefined;

/** The toggle and the name search (DIN 5007, as the phone's Personen). */
const filterCondition = (query: Pick<PeopleQuery, "filter" | "term">) =>
  and(membershipCondition(query.filter), nameMatches(query.term ?? "", personNames(people)));

function orderBy(sort: SortSpec, withProtected: boolean, withBankData: boolean): SQL[] {
  const hidden = (!withProtected && sort.id in protectedColumns) || (!withBankData && sort.id in bankColumns);
  const key = hidden ? PEOPLE_DEFAULT_SORT.id : sort.id;
  const expression = SORTS[key] ?? SORTS.lastName;
  // Name order breaks ties, the id keeps paging stable. A key is never repeated: SQLite would
  // then sort all rows instead of reading people_name_key_idx in order.
  const tieBreakers = ["lastName", "firstName"].filter((tie) => tie !== key).map((tie) => asc(SORTS[tie]));
  return [sort.descending ? desc(expression) : asc(expression), ...tieBreakers, asc(people.id)];
}

export type PeopleQuery = {
  filter: PeopleFilter;
  /** A name search: people whose name contains it (empty: everyone). */
  term?: string;
  sort: SortSpec;
  page: number;
  withProtected: boolean;
  withBankData?: boolean;
  pageSize?: number;
};
type PeopleListQuery = Omit<PeopleQuery, "page" | "pageSize">;
type ListQuery = PeopleListQuery;

/** The people of the grid, filtered and in grid order, with the given columns. */
function orderedPeople<Columns extends Record<string, unknown>>(db: Db, columns: Columns, query: ListQuery) {
  return db
    .select(columns as never as typeof publicColumns)
    .from(people)
    .leftJoin(memberTypes, eq(memberTypes.id, people.memberTypeId))
    .leftJoin(membershipStatuses, eq(membershipStatuses.id, people.membershipStatusId))
    .where(filterCondition(query))
    .orderBy(...orderBy(query.sort, query.withProtected, Boolean(query.withBankData)));
}

const gridColumns = ({ withProtected, withBankData }: ListQuery) => ({
  ...publicColumns,
  ...(withProtected ? protectedColumns : {}),
  ...(withBankData ? bankColumns : {}),
});

/** One page of people plus the number of all filtered people, in one round trip. */
export async function listPeople(db: Db, { page, pageSize = PAGE_SIZE, ...query }: PeopleQuery) {
  const [rows, [{ total }]] = await db.batch([
    orderedPeople(db, gridColumns(query), query)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(people).where(filterCondition(query)),
  ]);
  return { rows: rows as PersonRow[], total };
}

/** The whole filtered list in grid order (Excel export). */
export async function listAllPeople(db: Db, query: ListQuery): Promise<PersonRow[]> {
  return (await orderedPeople(db, gridColumns(query), query)) as PersonRow[];
}

/** The page (1-based) on which a person appears in the sorted, filtered list: one number from
 *  the database, not every id of the list. */
export async function pageOfPerson(db: Db, personId: number, query: ListQuery, pageSize = PAGE_SIZE) {
  const ordered = db
    .select({ id: people.id, position: positionInOrder(orderBy(query.sort, query.withProtected, Boolean(query.withBankData))) })
    .from(people)
    .leftJoin(memberTypes, eq(memberTypes.id, people.memberTypeId))
    .leftJoin(membershipStatuses, eq(membershipStatuses.id, people.membershipStatusId))
    .where(filterCondition(query))
    .as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, personId));
  return pageOfPosition(row?.position, pageSize);
}

type ProtectedField = "memberSince" | "memberUntil" | "hasGdpr";
/** A person as a user may see them: the protected fields are absent for most roles. */
export type PersonRecord = Omit<typeof people.$inferSelect, ProtectedField> & Partial<Pick<typeof people.$inferSelect, ProtectedField>>;

/** Leaves out membership dates and GDPR consent unless the user may see them. */
export function visiblePerson(row: typeof people.$inferSelect, withProtected: boolean): PersonRecord {
  if (withProtected) return row;
  const { memberSince: _since, memberUntil: _until, hasGdpr: _gdpr, ...visible } = row;
  return visible;
}

/** One person with everything the edit dialog shows; protected fields only when allowed. */
export async function getPerson(db: Db, id: number, withProtected: boolean): Promise<PersonRecord | undefined> {
  const [row] = await db.select().from(people).where(eq(people.id, id));
  return row && visiblePerson(row, withProtected);
}

export async function personName(db: Db, id: number): Promise<{ id: number; fullName: string | null } | undefined> {
  const [row] = await db.select({ id: people.id, fullName: people.fullName }).from(people).where(eq(people.id, id));
  return row;
}

export type PersonInput = {
  salutation: (typeof SALUTATIONS)[number] | null;
  title: string | null;
  firstName: string;
  lastName: string;
  streetNumber: string | null;
  zip: string | null;
  city: string | null;
  email: string | null;
  homePhone: string | null;
  mobilePhone: string | null;
  dateOfBirth: string | null;
  isMember: boolean;
  memberTypeId: number;
  membershipStatusId: number | null;
  hsvrmNr: string | null;
  isVorstand: boolean;
  isTrainer: boolean;
  hasInsurance: boolean;
  /** Left out (the quick add): not an Unternehmer. */
  isBusiness?: boolean;
  comments: string | null;
  /** Only written when the user may see them (ADMIN, GDPR); otherwise left as they are. */
  memberSince?: string | null;
  memberUntil?: string | null;
  hasGdpr?: boolean;
};

export async function insertPerson(db: Db, input: PersonInput, actor: Actor): Promise<number> {
  const [row] = await db
    .insert(people)
    .values({ ...input, ...auditInsert(actor) })
    .returning({ id: people.id });
  return row.id;
}

export async function updatePerson(
  db: Db,
  id: number,
  rowVersion: number,
  input: PersonInput,
  actor: Actor,
): Promise<UpdateOutcome<typeof people.$inferSelect>> {
  return updateVersioned(db, people, { id, rowVersion }, input, actor, async () => (await db.select().from(people).where(eq(people.id, id)))[0]);
}

/** Is there already a person with exactly this first and last name (quick add)? */
async function personWithNameExists(db: Db, firstName: string, lastName: string): Promise<boolean> {
  const [row] = await db
    .select({ id: people.id })
    .from(people)
    .where(and(sql`lower(${people.firstName}) = lower(${firstName.trim()})`, sql`lower(${people.lastName}) = lower(${lastName.trim()})`))
    .limit(1);
  return row !== undefined;
}

/** A delete's outcome; deleted: the bin's transaction id, for 'Rückgängig'. */
export type DeleteOutcome = { status: "deleted"; transactionId: number } | { status: "refused"; message: string } | { status: "missing" };

/**
 * Deletes a person into the recycle bin together with their dogs, the certifications of both and
 * their course participations (one transaction). Refused while fees or invoices exist: money
 * records are never deleted along.
 */
export async function deletePerson(db: Db, id: number, actor: Actor): Promise<DeleteOutcome> {
  const [[person], [{ feeCount }], [{ invoiceCount }], [{ paidCourses }]] = await db.batch([
    db.select({ id: people.id }).from(people).where(eq(people.id, id)),
    db.select({ feeCount: count() }).from(fees).where(eq(fees.personId, id)),
    db.select({ invoiceCount: count() }).from(invoiceHeaders).where(eq(invoiceHeaders.personId, id)),
    db
      .select({ paidCourses: count() })
      .from(courseMemberships)
      .innerJoin(dogs, eq(dogs.id, courseMemberships.dogId))
      .where(and(eq(dogs.ownerId, id), ne(courseMemberships.personId, id))),
  ]);
  if (!person) return { status: "missing" };
  if (feeCount > 0 || invoiceCount > 0) {
    return {
      status: "refused",
      message: `Die Person kann nicht gelöscht werden: Es gibt ${feeCount} offene Posten und ${invoiceCount} Rechnungen für sie. Buchungsdaten werden nie mitgelöscht.`,
    };
  }
  if (paidCourses > 0) {
    return { status: "refused", message: "Die Person kann nicht gelöscht werden: Ein Hund von ihr ist mit einer anderen Person in einem Kurs angemeldet." };
  }
  const ownDogs = db.select({ id: dogs.id }).from(dogs).where(eq(dogs.ownerId, id));
  const transactionId = await moveToBin(db, {
    main: { table: people, where: eq(people.id, id), identifiers: [sql`${people.lastName}`, sql`${people.firstName}`, sql`${people.city}`] },
    dependents: [
      ...attendanceOfMemberships(sql`(SELECT id FROM course_memberships WHERE person_id = ${id})`),
      ...membershipRecordsCapture(sql`(SELECT id FROM course_memberships WHERE person_id = ${id})`),
      {
        table: certifications,
        where: or(eq(certifications.personId, id), inArray(certifications.dogId, ownDogs))!,
        identifiers: [sql`(SELECT name FROM certification_masters WHERE id = certification_master_id)`, sql`${certifications.date}`],
      },
      {
        table: courseMemberships,
        where: eq(courseMemberships.personId, id),
        identifiers: [sql`(SELECT name FROM courses WHERE id = course_id)`, sql`(SELECT common_name FROM dogs WHERE id = dog_id)`],
      },
      // Mein Wuff: the papers of their dogs (the files stay in R2 while the bin can restore them) and their consents.
      { table: dogPapers, where: inArray(dogPapers.dogId, ownDogs), identifiers: [sql`${dogPapers.kind}`, sql`${dogPapers.fileName}`] },
      { table: consents, where: eq(consents.personId, id), identifiers: [sql`${consents.kind}`, sql`${consents.givenOn}`] },
      { table: dogs, where: eq(dogs.ownerId, id), identifiers: [sql`${dogs.commonName}`, sql`${dogs.breed}`] },
      mandatesOfPersonCapture(id),
    ],
    deletedBy: actor.name,
  });
  return { status: "deleted", transactionId };
}

/** What deleting a person takes into the bin with them (deletePerson's dependents). */
export async function personDeletionContents(db: Db, id: number) {
  const ownDogs = db.select({ id: dogs.id }).from(dogs).where(eq(dogs.ownerId, id));
  const [[{ dogCount }], [{ membershipCount }], [{ certificationCount }], [{ mandateCount }]] = await db.batch([
    db.select({ dogCount: count() }).from(dogs).where(eq(dogs.ownerId, id)),
    db.select({ membershipCount: count() }).from(courseMemberships).where(eq(courseMemberships.personId, id)),
    db
      .select({ certificationCount: count() })
      .from(certifications)
      .where(or(eq(certifications.personId, id), inArray(certifications.dogId, ownDogs))),
    db.select({ mandateCount: count() }).from(sepaMandates).where(eq(sepaMandates.personId, id)),
  ]);
  return { dogCount, membershipCount, certificationCount, mandateCount };
}

export type NextSession = { id: number; startDateTime: string; courseName: string };

/** Replaces the NextSessionsForPerson procedure: upcoming dates of the person's courses. */
export async function nextSessionsForPerson(db: Db, personId: number, now = new Date(), limit = 50): Promise<NextSession[]> {
  const activeCourses = db
    .select({ courseId: courseMemberships.courseId })
    .from(courseMemberships)
    .innerJoin(membershipStatuses, eq(membershipStatuses.id, courseMemberships.statusId))
    .where(and(eq(courseMemberships.personId, personId), ne(membershipStatuses.code, "CANCELLED")));
  return db
    .select({ id: courseDates.id, startDateTime: courseDates.startDateTime, courseName: courses.name })
    .from(courseDates)
    .innerJoin(courses, eq(courses.id, courseDates.courseId))
    .where(and(inArray(courseDates.courseId, activeCourses), gte(courseDates.startDateTime, now.toISOString())))
    .orderBy(asc(courseDates.startDateTime))
    .limit(limit);
}

/** Member types and person-scope statuses for the person form's selects. */
export async function personFormOptions(db: Db) {
  const [types, statuses] = await db.batch([
    db.select({ id: memberTypes.id, code: memberTypes.code, name: memberTypes.name }).from(memberTypes).orderBy(asc(memberTypes.id)),
    db
      .select({ id: membershipStatuses.id, name: membershipStatuses.name })
      .from(membershipStatuses)
      .where(eq(membershipStatuses.appliesTo, "PERSON"))
      .orderBy(asc(membershipStatuses.id)),
  ]);
  return { memberTypes: types, membershipStatuses: statuses };
}

export type QuickAddInput = { salutation: (typeof SALUTATIONS)[number]; firstName: string; lastName: string; dogCommonName: string; dogGender: number };
export type QuickAddOutcome = { status: "added"; personId: number; dogId: number } | { status: "duplicate" } | { status: "no-member-type" };

/**
 * Mensch/Hund Mini+: a non-member (member type NONE, which must exist exactly once) and their
 * dog, inserted together in one batch; refused when a person of that name exists.
 */
export async function quickAddPersonWithDog(db: Db, input: QuickAddInput, actor: Actor): Promise<QuickAddOutcome> {
  const [noneTypes, duplicate] = await Promise.all([
    db.select({ id: memberTypes.id }).from(memberTypes).where(eq(memberTypes.code, "NONE")),
    personWithNameExists(db, input.firstName, input.lastName),
  ]);
  if (noneTypes.length !== 1) return { status: "no-member-type" };
  if (duplicate) return { status: "duplicate" };
  const [[person], [dog]] = await db.batch([
    db
      .insert(people)
      .values({ salutation: input.salutation, firstName: input.firstName, lastName: input.lastName, memberTypeId: noneTypes[0].id, ...auditInsert(actor) })
      .returning({ id: people.id }),
    // Same batch, same transaction: the dog's owner is the person just inserted.
    db
      .insert(dogs)
      .values({ ownerId: sql`last_insert_rowid()`, commonName: input.dogCommonName, gender: input.dogGender, ...auditInsert(actor) })
      .returning({ id: dogs.id }),
  ]);
  return { status: "added", personId: person.id, dogId: dog.id };
}
