/**
 * All queries and writes of dogs (Hunde).
 */
import { and, asc, count, eq, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { certifications, courseMemberships, dogPapers, dogs, people } from "~/db/schema";
import { formatAge, todayInBerlin } from "~/lib/format";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { dogGenderText } from "~/lib/labels";
import { hasRunOut, isRabiesExpired } from "~/lib/rabies";
import { auditInsert, updateVersioned, type Actor, type UpdateOutcome } from "./audit.server";
import type { DeleteOutcome } from "./people.server";
import { pageOfPosition, personNameKeys, positionInOrder, sortKey, type SortKey } from "./paging.server";
import { containsPattern, nameMatches, personNames } from "./search.server";
import { moveToBin } from "./recycle-bin.server";
import { attendanceOfMemberships } from "./attendances.server";
import { membershipRecordsCapture } from "./membership-records.server";

export const DOG_LISTS = ["current", "archived"] as const;
export type DogList = (typeof DOG_LISTS)[number];

const columns = {
  id: dogs.id,
  commonName: dogs.commonName,
  ownerId: dogs.ownerId,
  ownerFullName: people.fullName,
  breed: dogs.breed,
  gender: dogs.gender,
  dateOfBirth: dogs.dateOfBirth,
  rabiesValidUntil: dogs.rabiesValidUntil,
  insuranceValidUntil: dogs.insuranceValidUntil,
  chipNr: dogs.chipNr,
  zuchtBuchNr: dogs.zuchtBuchNr,
  comments: dogs.comments,
  archived: dogs.archived,
};

export type DogRow = {
  id: number;
  commonName: string;
  ownerId: number;
  ownerFullName: string | null;
  breed: string | null;
  gender: number;
  genderText: string;
  dateOfBirth: string | null;
  ageText: string;
  ageDays: number | null;
  rabiesValidUntil: string | null;
  /** The rabies vaccination has run out (shown red). */
  rabiesExpired: boolean;
  /** The liability insurance's last day (confirmed papers, issue 32); red once past. */
  insuranceValidUntil: string | null;
  insuranceExpired: boolean;
  chipNr: string | null;
  zuchtBuchNr: string | null;
  comments: string | null;
  archived: boolean;
};

/** Sort keys of the dogs grid; names by their DIN 5007 keys (Ärmel with A). */
const SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${dogs.id}`),
  commonName: sortKey(sql`${dogs.commonNameKey}`),
  ownerFullName: sortKey(...personNameKeys(dogs.ownerId)),
  breed: sortKey(sql`${dogs.breed} COLLATE NOCASE`),
  genderText: sortKey(sql`${dogs.gender}`),
  dateOfBirth: sortKey(sql`${dogs.dateOfBirth}`),
  // Older dogs were born earlier: age ascending is birth date descending; unknown ages last.
  ageText: (descending) => sql`${dogs.dateOfBirth} ${sql.raw(descending ? "ASC" : "DESC")} NULLS LAST`,
  ageDays: (descending) => sql`${dogs.dateOfBirth} ${sql.raw(descending ? "ASC" : "DESC")} NULLS LAST`,
  rabiesValidUntil: sortKey(sql`${dogs.rabiesValidUntil}`),
  insuranceValidUntil: sortKey(sql`${dogs.insuranceValidUntil}`),
  chipNr: sortKey(sql`${dogs.chipNr}`),
  zuchtBuchNr: sortKey(sql`${dogs.zuchtBuchNr}`),
  comments: sortKey(sql`${dogs.comments}`),
  archived: sortKey(sql`${dogs.archived}`),
};
export const DOG_DEFAULT_SORT: SortSpec = { id: "commonName", descending: false };

export type DogQuery = {
  list: DogList;
  ownerId?: number;
  /** A name search: dogs whose name or whose owner's name contains it (empty: all). */
  term?: string;
  sort: SortSpec;
  page: number;
  pageSize?: number;
  today?: string;
};

function toDogRow(row: Omit<DogRow, "genderText" | "ageText" | "ageDays" | "rabiesExpired" | "insuranceExpired">, today: string): DogRow {
  return {
    ...row,
    genderText: dogGenderText(row.gender),
    ...formatAge(row.dateOfBirth, today),
    rabiesExpired: isRabiesExpired(row.rabiesValidUntil, today),
    insuranceExpired: hasRunOut(row.insuranceValidUntil, today),
  };
}

/** Dogs by their name or their owner's (DIN 5007, as the phone's Hunde): 'Bello', 'Müller', 'Anna Müller'. */
export const dogNameMatches = (term: string) => nameMatches(term, [sql`${dogs.commonNameKey}`, ...personNames(people)]);

/** The list, the owner and the name search (the owner is joined as `people`). */
function conditions({ list, ownerId, term }: Pick<DogQuery, "list" | "ownerId" | "term">) {
  return and(eq(dogs.archived, list === "archived"), ownerId ? eq(dogs.ownerId, ownerId) : undefined, dogNameMatches(term ?? ""));
}

function orderBy(sort: SortSpec): SQL[] {
  const ordered = (SORTS[sort.id] ?? SORTS.commonName)(sort.descending);
  // The name breaks ties (never twice: SQLite would sort instead of reading the index), then the id.
  const byName = sort.id === "commonName" ? [] : [asc(dogs.commonNameKey)];
  return [ordered, ...byName, asc(dogs.id)];
}

/** How many dogs the list holds. The owner is joined only for a name search: every dog has one
 *  (owner_id NOT NULL, a foreign key), and without the join the count reads the index alone. */
function countDogs(db: Db, where: SQL | undefined, term: string | undefined) {
  const counted = db.select({ total: count() }).from(dogs);
  return dogNameMatches(term ?? "") ? counted.innerJoin(people, eq(people.id, dogs.ownerId)).where(where) : counted.where(where);
}

export async function listDogs(db: Db, { pageSize = PAGE_SIZE, today = todayInBerlin(), ...query }: DogQuery) {
  const where = conditions(query);
  const [rows, [{ total }]] = await db.batch([
    db
      .select(columns)
      .from(dogs)
      .innerJoin(people, eq(people.id, dogs.ownerId))
      .where(where)
      .orderBy(...orderBy(query.sort))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    countDogs(db, where, query.term),
  ]);
  return { rows: rows.map((row) => toDogRow(row, today)), total };
}

/** The page (1-based) on which a dog appears in the sorted, filtered list. */
export async function pageOfDog(db: Db, dogId: number, query: Pick<DogQuery, "list" | "ownerId" | "term" | "sort">, pageSize = PAGE_SIZE) {
  const ordered = db
    .select({ id: dogs.id, position: positionInOrder(orderBy(query.sort)) })
    .from(dogs)
    .innerJoin(people, eq(people.id, dogs.ownerId))
    .where(conditions(query))
    .as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, dogId));
  return pageOfPosition(row?.position, pageSize);
}

export type DogRecord = typeof dogs.$inferSelect & { ownerFullName: string | null };

export async function getDog(db: Db, id: number): Promise<DogRecord | undefined> {
  const [row] = await db.select({ dog: dogs, ownerFullName: people.fullName }).from(dogs).innerJoin(people, eq(people.id, dogs.ownerId)).where(eq(dogs.id, id));
  return row ? { ...row.dog, ownerFullName: row.ownerFullName } : undefined;
}

export type DogInput = {
  ownerId: number;
  commonName: string;
  breed: string | null;
  gender: number;
  dateOfBirth: string | null;
  rabiesValidUntil: string | null;
  insuranceCompany: string | null;
  insurancePolicyNr: string | null;
  insuranceValidUntil: string | null;
  chipNr: string | null;
  zuchtBuchNr: string | null;
  comments: string | null;
  archived: boolean;
};

export async function insertDog(db: Db, input: DogInput, actor: Actor): Promise<number> {
  const [row] = await db
    .insert(dogs)
    .values({ ...input, ...auditInsert(actor) })
    .returning({ id: dogs.id });
  return row.id;
}

export async function updateDog(db: Db, id: number, rowVersion: number, input: DogInput, actor: Actor): Promise<UpdateOutcome<DogRecord>> {
  return updateVersioned(db, dogs, { id, rowVersion }, input, actor, () => getDog(db, id));
}

/** Deletes a dog into the recycle bin with its certifications and course participations;
 *  refused while a participation carries a course fee (archive the dog instead). */
export async function deleteDog(db: Db, id: number, actor: Actor): Promise<DeleteOutcome> {
  const [[dog], [{ billed }]] = await db.batch([
    db.select({ id: dogs.id }).from(dogs).where(eq(dogs.id, id)),
    db
      .select({ billed: count() })
      .from(courseMemberships)
      .where(and(eq(courseMemberships.dogId, id), isNotNull(courseMemberships.feeId))),
  ]);
  if (!dog) return { status: "missing" };
  if (billed > 0) {
    return {
      status: "refused",
      message: "Der Hund kann nicht gelöscht werden: Er ist in Kursen mit Kursgebühr angemeldet. Archiviere ihn stattdessen.",
    };
  }
  const transactionId = await moveToBin(db, {
    main: {
      table: dogs,
      where: eq(dogs.id, id),
      identifiers: [sql`${dogs.commonName}`, sql`(SELECT full_name FROM people WHERE people.id = owner_id)`, sql`${dogs.breed}`],
    },
    dependents: [
      ...attendanceOfMemberships(sql`(SELECT id FROM course_memberships WHERE dog_id = ${id})`),
      ...membershipRecordsCapture(sql`(SELECT id FROM course_memberships WHERE dog_id = ${id})`),
      {
        table: certifications,
        where: eq(certifications.dogId, id),
        identifiers: [sql`(SELECT name FROM certification_masters WHERE id = certification_master_id)`, sql`${certifications.date}`],
      },
      {
        table: courseMemberships,
        where: eq(courseMemberships.dogId, id),
        identifiers: [sql`(SELECT name FROM courses WHERE id = course_id)`, sql`(SELECT full_name FROM people WHERE people.id = person_id)`],
      },
      { table: dogPapers, where: eq(dogPapers.dogId, id), identifiers: [sql`${dogPapers.kind}`, sql`${dogPapers.fileName}`] },
    ],
    deletedBy: actor.name,
  });
  return { status: "deleted", transactionId };
}

/** What deleting a dog takes into the bin with it (deleteDog's dependents). */
export async function dogDeletionContents(db: Db, id: number) {
  const [[{ membershipCount }], [{ certificationCount }]] = await db.batch([
    db.select({ membershipCount: count() }).from(courseMemberships).where(eq(courseMemberships.dogId, id)),
    db.select({ certificationCount: count() }).from(certifications).where(eq(certifications.dogId, id)),
  ]);
  return { membershipCount, certificationCount };
}

/** Owners for the dog form's owner search: by name, at most `limit`. */
export async function searchOwners(db: Db, term: string, limit = 20) {
  const pattern = containsPattern(term);
  if (!pattern) return [];
  return db
    .select({ id: people.id, fullName: people.fullName, city: people.city })
    .from(people)
    .where(sql`${people.fullName} LIKE ${pattern}`)
    .orderBy(asc(people.lastNameKey), asc(people.firstNameKey), asc(people.id))
    .limit(limit);
}
