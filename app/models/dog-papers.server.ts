/**
 * A dog's papers (issue 32 item 3; rules in app/lib/dog-papers.ts): members upload them in Mein
 * Wuff for their own dogs, staff confirm or decline them. Confirming writes the dates the paper
 * proves to the dog in the same batch, so the warnings (Tollwutimpfung läuft ab) count them from
 * then on; before that they count nothing. A decided paper is never decided again.
 */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { render, runAtomically, type Db } from "~/db/client.server";
import { dogPapers, dogs, people } from "~/db/schema";
import { randomToken } from "~/lib/bytes";
import {
  MAX_PAPER_BYTES,
  PAPER_EXTENSIONS,
  PAPER_MISSING,
  PAPER_TOO_LARGE,
  PAPER_WRONG_TYPE,
  paperContentType,
  safePaperFileName,
  type DogPaperKind,
  type DogPaperStatus,
  type PaperContentType,
} from "~/lib/dog-papers";
import { auditInsert, type Actor } from "./audit.server";

/** What a paper says it proves (the member's entry). */
export type PaperClaims = {
  rabiesValidUntil: string | null;
  insuranceCompany: string | null;
  insurancePolicyNr: string | null;
  insuranceValidUntil: string | null;
};

export type PaperRow = PaperClaims & {
  id: number;
  dogId: number;
  kind: DogPaperKind;
  status: DogPaperStatus;
  fileName: string;
  uploadedOn: string;
  decidedOn: string | null;
  declineReason: string | null;
};

const paperColumns = {
  id: dogPapers.id,
  dogId: dogPapers.dogId,
  kind: dogPapers.kind,
  status: dogPapers.status,
  fileName: dogPapers.fileName,
  uploadedOn: dogPapers.createdOn,
  decidedOn: dogPapers.decidedOn,
  declineReason: dogPapers.declineReason,
  rabiesValidUntil: dogPapers.rabiesValidUntil,
  insuranceCompany: dogPapers.insuranceCompany,
  insurancePolicyNr: dogPapers.insurancePolicyNr,
  insuranceValidUntil: dogPapers.insuranceValidUntil,
};

export type OwnDog = {
  id: number;
  commonName: string;
  breed: string | null;
  chipNr: string | null;
  rabiesValidUntil: string | null;
  insuranceCompany: string | null;
  insurancePolicyNr: string | null;
  insuranceValidUntil: string | null;
  papers: PaperRow[];
};

/** The person's dogs (not archived), by name, each with its papers, newest first. */
export async function ownDogs(db: Db, personId: number): Promise<OwnDog[]> {
  const [rows, papers] = await Promise.all([
    db
      .select({
        id: dogs.id,
        commonName: dogs.commonName,
        breed: dogs.breed,
        chipNr: dogs.chipNr,
        rabiesValidUntil: dogs.rabiesValidUntil,
        insuranceCompany: dogs.insuranceCompany,
        insurancePolicyNr: dogs.insurancePolicyNr,
        insuranceValidUntil: dogs.insuranceValidUntil,
      })
      .from(dogs)
      .where(and(eq(dogs.ownerId, personId), eq(dogs.archived, false)))
      .orderBy(dogs.commonNameKey, dogs.id),
    db
      .select(paperColumns)
      .from(dogPapers)
      .innerJoin(dogs, eq(dogs.id, dogPapers.dogId))
      .where(and(eq(dogs.ownerId, personId), eq(dogs.archived, false)))
      .orderBy(desc(dogPapers.id)),
  ]);
  return rows.map((dog) => ({ ...dog, papers: papers.filter((paper) => paper.dogId === dog.id) }));
}

export type UploadOutcome = { status: "uploaded"; paperId: number } | { status: "refused"; message: string } | { status: "missing" };

/**
 * Stores an uploaded paper for a dog of `personId` (anyone else's dog is 'missing'): the type read
 * from its bytes, at most 10 MB, then the file in R2 and the row in D1. Should the row fail, the
 * file is removed again.
 */
export async function uploadPaper(
  bucket: R2Bucket,
  db: Db,
  input: { personId: number; dogId: number; kind: DogPaperKind; file: File | null; claims: PaperClaims },
  actor: Actor,
): Promise<UploadOutcome> {
  const [dog] = await db
    .select({ id: dogs.id })
    .from(dogs)
    .where(and(eq(dogs.id, input.dogId), eq(dogs.ownerId, input.personId), eq(dogs.archived, false)));
  if (!dog) return { status: "missing" };
  const { file } = input;
  if (!file || file.size === 0) return { status: "refused", message: PAPER_MISSING };
  if (file.size > MAX_PAPER_BYTES) return { status: "refused", message: PAPER_TOO_LARGE };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const contentType = paperContentType(bytes.subarray(0, 16));
  if (!contentType) return { status: "refused", message: PAPER_WRONG_TYPE };
  const objectKey = `dogs/${dog.id}/${randomToken()}.${PAPER_EXTENSIONS[contentType]}`;
  await bucket.put(objectKey, bytes, { httpMetadata: { contentType } });
  const claims =
    input.kind === "RABIES"
      ? { rabiesValidUntil: input.claims.rabiesValidUntil, insuranceCompany: null, insurancePolicyNr: null, insuranceValidUntil: null }
      : { ...input.claims, rabiesValidUntil: null };
  try {
    const [row] = await db
      .insert(dogPapers)
      .values({
        dogId: dog.id,
        kind: input.kind,
        objectKey,
        fileName: safePaperFileName(file.name, contentType),
        contentType,
        sizeBytes: bytes.byteLength,
        ...claims,
        ...auditInsert(actor),
      })
      .returning({ id: dogPapers.id });
    return { status: "uploaded", paperId: row.id };
  } catch (error) {
    await bucket.delete(objectKey);
    throw error;
  }
}

export type PaperFile = { objectKey: string; fileName: string; contentType: PaperContentType; sizeBytes: number };

const fileColumns = { objectKey: dogPapers.objectKey, fileName: dogPapers.fileName, contentType: dogPapers.contentType, sizeBytes: dogPapers.sizeBytes };

/** A paper's file, for the owner of its dog only (`personId`), or for staff (no personId). */
export async function paperFile(db: Db, paperId: number, personId?: number): Promise<PaperFile | undefined> {
  const [row] = await db
    .select(fileColumns)
    .from(dogPapers)
    .innerJoin(dogs, eq(dogs.id, dogPapers.dogId))
    .where(and(eq(dogPapers.id, paperId), personId === undefined ? undefined : eq(dogs.ownerId, personId)));
  return row;
}

export type PendingPaper = PaperRow & { dogName: string; ownerId: number; ownerName: string };

/** Papers waiting for staff, the oldest first. */
export async function pendingPapers(db: Db, limit = 100): Promise<PendingPaper[]> {
  return db
    .select({ ...paperColumns, dogName: dogs.commonName, ownerId: people.id, ownerName: sql<string>`${people.fullName}` })
    .from(dogPapers)
    .innerJoin(dogs, eq(dogs.id, dogPapers.dogId))
    .innerJoin(people, eq(people.id, dogs.ownerId))
    .where(eq(dogPapers.status, "PENDING"))
    .orderBy(asc(dogPapers.id))
    .limit(limit);
}

/** How many papers wait for staff (the home page's count). */
export async function pendingPaperCount(db: Db): Promise<number> {
  const [{ pending }] = await db
    .select({ pending: sql<number>`count(*)` })
    .from(dogPapers)
    .where(eq(dogPapers.status, "PENDING"));
  return pending;
}

export type DecisionOutcome = { status: "decided" } | { status: "already" } | { status: "missing" };

/**
 * Confirms or declines a pending paper. Confirming writes what it proves to its dog in the same
 * batch (rabies: the date; insurance: company, policy number, valid until). A paper decided
 * already (by someone else a moment ago) is left as it is.
 */
export async function decidePaper(
  db: Db,
  input: { paperId: number; confirm: boolean; reason: string | null },
  actor: Actor,
  now = new Date(),
): Promise<DecisionOutcome> {
  const iso = now.toISOString();
  const [paper] = await db.select({ id: dogPapers.id, status: dogPapers.status }).from(dogPapers).where(eq(dogPapers.id, input.paperId));
  if (!paper) return { status: "missing" };
  if (paper.status !== "PENDING") return { status: "already" };
  const decided = render(
    sql`UPDATE ${dogPapers} SET status = ${input.confirm ? "CONFIRMED" : "DECLINED"}, decided_by = ${actor.name}, decided_on = ${iso},
      decline_reason = ${input.confirm ? null : input.reason}, last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
      WHERE id = ${input.paperId} AND status = 'PENDING' RETURNING id`,
  );
  // Only when this very batch confirmed it: the dog takes the paper's dates.
  const justConfirmed = sql`EXISTS (SELECT 1 FROM ${dogPapers} WHERE id = ${input.paperId} AND status = 'CONFIRMED' AND decided_on = ${iso})`;
  const paperValue = (column: string) => sql.raw(`(SELECT ${column} FROM dog_papers WHERE id = ${Number(input.paperId)})`);
  const statements = [decided];
  if (input.confirm) {
    statements.push(
      render(
        sql`UPDATE ${dogs} SET
          rabies_valid_until = CASE WHEN ${paperValue("kind")} = 'RABIES' THEN ${paperValue("rabies_valid_until")} ELSE rabies_valid_until END,
          insurance_company = CASE WHEN ${paperValue("kind")} = 'INSURANCE' THEN ${paperValue("insurance_company")} ELSE insurance_company END,
          insurance_policy_nr = CASE WHEN ${paperValue("kind")} = 'INSURANCE' THEN ${paperValue("insurance_policy_nr")} ELSE insurance_policy_nr END,
          insurance_valid_until = CASE WHEN ${paperValue("kind")} = 'INSURANCE' THEN ${paperValue("insurance_valid_until")} ELSE insurance_valid_until END,
          last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
          WHERE id = (SELECT dog_id FROM ${dogPapers} WHERE id = ${input.paperId}) AND ${justConfirmed}`,
      ),
    );
  }
  const [result] = await runAtomically(db, statements);
  return result.results.length === 1 ? { status: "decided" } : { status: "already" };
}
