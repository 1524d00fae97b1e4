/**
 * All queries and writes of certifications (Erfolge) and their masters (Erfolgsarten).
 */
import { and, asc, count, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { alias, type SQLiteSelect } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { certificationMasters, certifications, dogs, people } from "~/db/schema";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { auditInsert, updateVersioned, type Actor, type UpdateOutcome } from "./audit.server";
import { dogNameKey, pageOfPosition, personNameKeys, positionInOrder, sortKey, type SortKey } from "./paging.server";
import { containsPattern } from "./search.server";
import type { DeleteOutcome } from "./people.server";
import { moveToBin } from "./recycle-bin.server";

const owners = alias(people, "owners");

const columns = {
  id: certifications.id,
  personId: certifications.personId,
  // Aliased: the joined tables' columns must not share a name (D1 answers rows as objects).
  personName: sql<string | null>`${people.fullName}`.as("person_name"),
  dogId: certifications.dogId,
  dogName: sql<string | null>`${dogs.commonName}`.as("dog_name"),
  dogOwnerName: sql<string | null>`${owners.fullName}`.as("dog_owner_name"),
  certificationMasterId: certifications.certificationMasterId,
  certificationName: sql<string>`${certificationMasters.name}`.as("certification_name"),
  date: certifications.date,
  comments: certifications.comments,
};

export type CertificationRow = {
  id: number;
  personId: number | null;
  personName: string | null;
  dogId: number | null;
  dogName: string | null;
  dogOwnerName: string | null;
  certificationMasterId: number;
  certificationName: string;
  date: string | null;
  comments: string | null;
};

/** A certification's subject: a person, a dog (or both). Under a person: theirs and their dogs'. */
export type CertificationQuery = { personId?: number; dogId?: number; sort: SortSpec };

/** Names sort by their DIN 5007 keys (Ärmel with A). */
const SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${certifications.id}`),
  personName: sortKey(...personNameKeys(certifications.personId)),
  dogName: sortKey(dogNameKey(certifications.dogId)),
  certificationName: sortKey(sql`${certificationMasters.nameKey}`),
  date: sortKey(sql`${certifications.date}`),
  comments: sortKey(sql`${certifications.comments}`),
};
export const CERTIFICATION_DEFAULT_SORT: SortSpec = { id: "date", descending: true };

function orderBy(sort: SortSpec): SQL[] {
  return [(SORTS[sort.id] ?? SORTS.date)(sort.descending), desc(certifications.date), asc(certifications.id)];
}

function where({ personId, dogId }: Pick<CertificationQuery, "personId" | "dogId">) {
  if (personId) return or(eq(certifications.personId, personId), sql`${certifications.dogId} IN (SELECT id FROM dogs WHERE owner_id = ${personId})`);
  if (dogId) return eq(certifications.dogId, dogId);
  return undefined;
}

/** The joins and the filter every certification query shares. */
function joined<Query extends SQLiteSelect>(select: Query, query: Pick<CertificationQuery, "personId" | "dogId">) {
  return select
    .innerJoin(certificationMasters, eq(certificationMasters.id, certifications.certificationMasterId))
    .leftJoin(people, eq(people.id, certifications.personId))
    .leftJoin(dogs, eq(dogs.id, certifications.dogId))
    .leftJoin(owners, eq(owners.id, dogs.ownerId))
    .where(where(query));
}

/** One page of certifications and the number of all that match, in one round trip. */
export async function listCertifications(db: Db, query: CertificationQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const [rows, [{ total }]] = await db.batch([
    joined(db.select(columns).from(certifications).$dynamic(), query)
      .orderBy(...orderBy(query.sort))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db.select({ total: count() }).from(certifications).where(where(query)),
  ]);
  return { rows: rows as CertificationRow[], total };
}

export async function pageOfCertification(db: Db, id: number, query: CertificationQuery, pageSize = PAGE_SIZE) {
  const ordered = joined(
    db
      .select({ id: certifications.id, position: positionInOrder(orderBy(query.sort)) })
      .from(certifications)
      .$dynamic(),
    query,
  ).as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

export type CertificationRecord = typeof certifications.$inferSelect & { personName: string | null; dogName: string | null; certificationName: string };

export async function getCertification(db: Db, id: number): Promise<CertificationRecord | undefined> {
  const [row] = await db
    .select({ certification: certifications, personName: columns.personName, dogName: columns.dogName, certificationName: columns.certificationName })
    .from(certifications)
    .innerJoin(certificationMasters, eq(certificationMasters.id, certifications.certificationMasterId))
    .leftJoin(people, eq(people.id, certifications.personId))
    .leftJoin(dogs, eq(dogs.id, certifications.dogId))
    .where(eq(certifications.id, id));
  return row ? { ...row.certification, personName: row.personName, dogName: row.dogName, certificationName: row.certificationName } : undefined;
}

export type CertificationMasterOption = { id: number; name: string; isPersonCertification: boolean; isDogCertification: boolean };

const masterColumns = {
  id: certificationMasters.id,
  name: certificationMasters.name,
  isPersonCertification: certificationMasters.isPersonCertification,
  isDogCertification: certificationMasters.isDogCertification,
};

/** The masters a certification can be of; under a person or a dog only those for people or dogs. */
export async function certificationMasterOptions(db: Db, subject: "PERSON" | "DOG" | null): Promise<CertificationMasterOption[]> {
  return db
    .select(masterColumns)
    .from(certificationMasters)
    .where(
      subject === "PERSON"
        ? eq(certificationMasters.isPersonCertification, true)
        : subject === "DOG"
          ? eq(certificationMasters.isDogCertification, true)
          : undefined,
    )
    .orderBy(asc(certificationMasters.nameKey), asc(certificationMasters.id));
}

export async function getCertificationMaster(db: Db, id: number): Promise<CertificationMasterOption | undefined> {
  const [row] = await db.select(masterColumns).from(certificationMasters).where(eq(certificationMasters.id, id));
  return row;
}

export type CertificationInput = { personId: number | null; dogId: number | null; certificationMasterId: number; date: string | null; comments: string | null };

export async function insertCertification(db: Db, input: CertificationInput, actor: Actor): Promise<number> {
  const [row] = await db
    .insert(certifications)
    .values({ ...input, ...auditInsert(actor) })
    .returning({ id: certifications.id });
  return row.id;
}

export async function updateCertification(
  db: Db,
  id: number,
  rowVersion: number,
  input: CertificationInput,
  actor: Actor,
): Promise<UpdateOutcome<CertificationRecord>> {
  return updateVersioned(db, certifications, { id, rowVersion }, input, actor, () => getCertification(db, id));
}

/** Deletes a certification into the recycle bin. */
export async function deleteCertification(db: Db, id: number, actor: Actor): Promise<DeleteOutcome> {
  if (!(await getCertification(db, id))) return { status: "missing" };
  const transactionId = await moveToBin(db, {
    main: {
      table: certifications,
      where: eq(certifications.id, id),
      identifiers: [
        sql`(SELECT name FROM certification_masters WHERE id = certification_master_id)`,
        sql`coalesce((SELECT full_name FROM people WHERE people.id = person_id), (SELECT common_name FROM dogs WHERE dogs.id = dog_id))`,
        sql`${certifications.date}`,
      ],
    },
    deletedBy: actor.name,
  });
  return { status: "deleted", transactionId };
}

/** Dogs for the certification form: one dog, a person's dogs, or those whose name matches. */
export async function dogOptions(db: Db, { id, ownerId, term }: { id?: number; ownerId?: number | null; term?: string }, limit = 20) {
  const pattern = term ? containsPattern(term) : null;
  return db
    .select({ id: dogs.id, fullName: sql<string>`${dogs.commonName} || ' (' || coalesce(${people.fullName}, '') || ')'`.as("dog_label") })
    .from(dogs)
    .innerJoin(people, eq(people.id, dogs.ownerId))
    .where(id ? eq(dogs.id, id) : ownerId ? eq(dogs.ownerId, ownerId) : pattern ? sql`${dogs.commonName} LIKE ${pattern}` : sql`0`)
    .orderBy(asc(dogs.commonNameKey), asc(dogs.id))
    .limit(limit);
}

// ---------------------------------------------------------------------------------------------
// Erfolgsarten (certification masters): kept by ADMIN

export type CertificationMasterRow = CertificationMasterOption & { certificationCount: number };

const MASTER_SORTS: Record<string, SortKey> = {
  id: sortKey(sql`${certificationMasters.id}`),
  name: sortKey(sql`${certificationMasters.nameKey}`),
  isPersonCertification: sortKey(sql`${certificationMasters.isPersonCertification}`),
  isDogCertification: sortKey(sql`${certificationMasters.isDogCertification}`),
  certificationCount: sortKey(sql`certification_count`),
};

export async function listCertificationMasters(db: Db, { sort, page, pageSize = PAGE_SIZE }: { sort: SortSpec; page: number; pageSize?: number }) {
  const [rows, [{ total }]] = await db.batch([
    db
      .select({
        ...masterColumns,
        // certification_masters.id spelled out: drizzle writes a one-table select's columns without
        // their table, and a bare "id" here would be certifications.id.
        certificationCount: sql<number>`(SELECT count(*) FROM certifications WHERE certifications.certification_master_id = certification_masters.id)`.as(
          "certification_count",
        ),
      })
      .from(certificationMasters)
      .orderBy((MASTER_SORTS[sort.id] ?? MASTER_SORTS.name)(sort.descending), asc(certificationMasters.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(certificationMasters),
  ]);
  return { rows: rows as CertificationMasterRow[], total };
}

export async function pageOfCertificationMaster(db: Db, id: number, sort: SortSpec, pageSize = PAGE_SIZE) {
  const ordered = db
    .select({
      id: certificationMasters.id,
      position: positionInOrder([
        (MASTER_SORTS[sort.id === "certificationCount" ? "name" : sort.id] ?? MASTER_SORTS.name)(sort.descending),
        asc(certificationMasters.id),
      ]),
    })
    .from(certificationMasters)
    .as("ordered");
  const [row] = await db.select({ position: ordered.position }).from(ordered).where(eq(ordered.id, id));
  return pageOfPosition(row?.position, pageSize);
}

export type CertificationMasterRecord = typeof certificationMasters.$inferSelect;
export type CertificationMasterInput = { name: string; isPersonCertification: boolean; isDogCertification: boolean };

export async function getCertificationMasterRecord(db: Db, id: number): Promise<CertificationMasterRecord | undefined> {
  const [row] = await db.select().from(certificationMasters).where(eq(certificationMasters.id, id));
  return row;
}

/** Is the name taken by another master (names are unique, without case)? */
export async function certificationMasterNameTaken(db: Db, name: string, exceptId: number | null): Promise<boolean> {
  const [row] = await db
    .select({ id: certificationMasters.id })
    .from(certificationMasters)
    .where(and(sql`lower(${certificationMasters.name}) = lower(${name})`, exceptId ? sql`${certificationMasters.id} <> ${exceptId}` : undefined))
    .limit(1);
  return row !== undefined;
}

export async function insertCertificationMaster(db: Db, input: CertificationMasterInput, actor: Actor): Promise<number> {
  const [row] = await db
    .insert(certificationMasters)
    .values({ ...input, ...auditInsert(actor) })
    .returning({ id: certificationMasters.id });
  return row.id;
}

export async function updateCertificationMaster(
  db: Db,
  id: number,
  rowVersion: number,
  input: CertificationMasterInput,
  actor: Actor,
): Promise<UpdateOutcome<CertificationMasterRecord>> {
  return updateVersioned(db, certificationMasters, { id, rowVersion }, input, actor, () => getCertificationMasterRecord(db, id));
}

/** Deletes a master into the recycle bin; refused while certifications of it exist. */
export async function deleteCertificationMaster(db: Db, id: number, actor: Actor): Promise<DeleteOutcome> {
  const [[master], [{ used }]] = await db.batch([
    db.select({ id: certificationMasters.id }).from(certificationMasters).where(eq(certificationMasters.id, id)),
    db.select({ used: count() }).from(certifications).where(eq(certifications.certificationMasterId, id)),
  ]);
  if (!master) return { status: "missing" };
  if (used > 0) return { status: "refused", message: `Die Erfolgsart kann nicht gelöscht werden: Es gibt ${used} Erfolge dieser Art.` };
  const transactionId = await moveToBin(db, {
    main: { table: certificationMasters, where: eq(certificationMasters.id, id), identifiers: [sql`${certificationMasters.name}`] },
    deletedBy: actor.name,
  });
  return { status: "deleted", transactionId };
}
