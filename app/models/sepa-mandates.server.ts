/**
 * SEPA direct-debit mandates of people (sepa_mandates). The full IBAN is read here and leaves the
 * server only for ADMIN and FINANCE: every read that others may see masks it in SQL or here.
 */
import { and, desc, eq, getTableColumns, ne, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { deletedRecords, people, sepaMandates } from "~/db/schema";
import { mandateReference, maskIban, MANDATE_REFERENCE_PREFIX, sequenceTypeOf, type SequenceType } from "~/lib/banking";
import { errorText } from "./constraints.server";
import { auditInsert, auditUpdate, type Actor } from "./audit.server";
import { mandateValidUntilSql } from "./direct-debits.server";
import { moveToBin } from "./recycle-bin.server";

/** A mandate and the last day it may be collected on (36 months after its last use). */
export type MandateRecord = typeof sepaMandates.$inferSelect & { validUntil: string };

const withValidity = { ...getTableColumns(sepaMandates), validUntil: sql<string>`${mandateValidUntilSql("sepa_mandates")}` };

export type MandateInput = {
  accountHolder: string;
  iban: string;
  bic: string | null;
  mandateDate: string;
  /** The last collection under it before Wuff, if known. */
  previousUseOn: string | null;
  /** The day the debtor's revocation takes effect (nothing collected on or after it). */
  revokedOn: string | null;
  isActive: boolean;
  comments: string | null;
};

const ACTIVE_MANDATE_EXISTS = (reference: string) =>
  `Die Person hat schon ein aktives Mandat (${reference}). Es kann nur ein Mandat je Person aktiv sein: Deaktiviere erst das andere.`;

/** A person's mandates, the active one first, then the newest. */
export async function mandatesOfPerson(db: Db, personId: number): Promise<MandateRecord[]> {
  return db.select(withValidity).from(sepaMandates).where(eq(sepaMandates.personId, personId)).orderBy(desc(sepaMandates.isActive), desc(sepaMandates.id));
}

export async function getMandate(db: Db, id: number): Promise<MandateRecord | undefined> {
  const [row] = await db.select(withValidity).from(sepaMandates).where(eq(sepaMandates.id, id));
  return row;
}

/** What anyone may see of a person's active mandate: the IBAN masked unless `withIban`. */
export type MandateSummary = { id: number; reference: string; iban: string; mandateDate: string; sequence: SequenceType };
export async function activeMandateSummary(db: Db, personId: number, withIban: boolean): Promise<MandateSummary | null> {
  const [row] = await db
    .select({
      id: sepaMandates.id,
      reference: sepaMandates.reference,
      iban: sepaMandates.iban,
      mandateDate: sepaMandates.mandateDate,
      firstCollectionOn: sepaMandates.firstCollectionOn,
    })
    .from(sepaMandates)
    .where(and(eq(sepaMandates.personId, personId), eq(sepaMandates.isActive, true)));
  if (!row) return null;
  return { id: row.id, reference: row.reference, iban: withIban ? row.iban : maskIban(row.iban), mandateDate: row.mandateDate, sequence: sequenceTypeOf(row) };
}

/**
 * The next free number n of 'WUFF-{personId}-{n}': past the person's mandates in the table and in
 * the Papierkorb, so a reference is never given twice (a restored mandate keeps its own).
 */
export async function nextMandateNumber(db: Db, personId: number): Promise<number> {
  const prefix = `${MANDATE_REFERENCE_PREFIX}-${personId}-`;
  const numberOf = (reference: ReturnType<typeof sql>) => sql`CAST(substr(${reference}, ${prefix.length + 1}) AS INTEGER)`;
  const [[live], [binned]] = await db.batch([
    db
      .select({ n: sql<number | null>`max(${numberOf(sql`${sepaMandates.reference}`)})` })
      .from(sepaMandates)
      .where(and(eq(sepaMandates.personId, personId), sql`${sepaMandates.reference} LIKE ${`${prefix}%`}`)),
    db
      .select({ n: sql<number | null>`max(${numberOf(sql`json_extract(${deletedRecords.json}, '$[0].reference')`)})` })
      .from(deletedRecords)
      .where(and(eq(deletedRecords.tableName, "sepa_mandates"), sql`json_extract(${deletedRecords.json}, '$[0].person_id') = ${personId}`)),
  ]);
  return Math.max(live?.n ?? 0, binned?.n ?? 0) + 1;
}

export type MandateSaveOutcome = { status: "created"; id: number; reference: string; replaced: string | null } | { status: "refused"; message: string };

/**
 * A new mandate with a generated reference. An active new mandate replaces the person's active
 * one: that one is deactivated in the same batch (the partial unique index keeps it one).
 */
export async function insertMandate(db: Db, personId: number, input: MandateInput, actor: Actor): Promise<MandateSaveOutcome> {
  const [current] = input.isActive
    ? await db
        .select({ id: sepaMandates.id, reference: sepaMandates.reference })
        .from(sepaMandates)
        .where(and(eq(sepaMandates.personId, personId), eq(sepaMandates.isActive, true)))
    : [];
  const reference = mandateReference(personId, await nextMandateNumber(db, personId));
  try {
    const insert = db
      .insert(sepaMandates)
      .values({ ...input, personId, reference, ...auditInsert(actor) })
      .returning({ id: sepaMandates.id });
    if (current) {
      const [, [row]] = await db.batch([
        db
          .update(sepaMandates)
          .set({ isActive: false, ...auditUpdate(actor, sepaMandates.rowVersion) })
          .where(eq(sepaMandates.id, current.id)),
        insert,
      ]);
      return { status: "created", id: row.id, reference, replaced: current.reference };
    }
    const [row] = await insert;
    return { status: "created", id: row.id, reference, replaced: null };
  } catch (error) {
    if (errorText(error).includes("UNIQUE"))
      return { status: "refused", message: "Das Mandat wurde gleichzeitig anderweitig geändert. Bitte erneut speichern." };
    throw error;
  }
}

export type MandateUpdateOutcome =
  { status: "updated" } | { status: "conflict"; current: MandateRecord } | { status: "missing" } | { status: "refused"; message: string };

/**
 * Changes a mandate, quoting its rowVersion. A changed IBAN keeps the mandate's series (FRST or
 * RCUR): the next collection tells the bank of it as an amendment (direct-debits.server.ts,
 * originalIbanSql). Activating it while another mandate of the person is active is refused.
 */
export async function updateMandate(db: Db, id: number, rowVersion: number, input: MandateInput, actor: Actor): Promise<MandateUpdateOutcome> {
  const stored = await getMandate(db, id);
  if (!stored) return { status: "missing" };
  if (input.isActive) {
    const [other] = await db
      .select({ reference: sepaMandates.reference })
      .from(sepaMandates)
      .where(and(eq(sepaMandates.personId, stored.personId), eq(sepaMandates.isActive, true), ne(sepaMandates.id, id)));
    if (other) return { status: "refused", message: ACTIVE_MANDATE_EXISTS(other.reference) };
  }
  // A revocation date staff change is theirs: a returned debit's reason for the old one goes.
  const revocationReason = input.revokedOn === stored.revokedOn ? {} : { revocationReason: null };
  try {
    const updated = await db
      .update(sepaMandates)
      .set({ ...input, ...revocationReason, ...auditUpdate(actor, sepaMandates.rowVersion) })
      .where(and(eq(sepaMandates.id, id), eq(sepaMandates.rowVersion, rowVersion)))
      .returning({ id: sepaMandates.id });
    if (updated.length === 1) return { status: "updated" };
  } catch (error) {
    if (errorText(error).includes("UNIQUE")) return { status: "refused", message: ACTIVE_MANDATE_EXISTS("inzwischen angelegt") };
    throw error;
  }
  const current = await getMandate(db, id);
  return current ? { status: "conflict", current } : { status: "missing" };
}

/** Moves a mandate into the Papierkorb (reference, person, active or not as its fields). */
export async function deleteMandate(db: Db, id: number, actor: Actor): Promise<{ status: "deleted"; transactionId: number } | { status: "missing" }> {
  if (!(await getMandate(db, id))) return { status: "missing" };
  const transactionId = await moveToBin(db, {
    main: {
      table: sepaMandates,
      where: eq(sepaMandates.id, id),
      identifiers: [
        sql`${sepaMandates.reference}`,
        sql`(SELECT full_name FROM people WHERE id = person_id)`,
        sql`CASE WHEN is_active THEN 'aktiv' ELSE 'inaktiv' END`,
      ],
    },
    deletedBy: actor.name,
  });
  return { status: "deleted", transactionId };
}

/** The mandates deleted with their person (the person's delete takes them into the bin). */
export const mandatesOfPersonCapture = (personId: number) => ({
  table: sepaMandates,
  where: eq(sepaMandates.personId, personId),
  identifiers: [sql`${sepaMandates.reference}`, sql`CASE WHEN is_active THEN 'aktiv' ELSE 'inaktiv' END`] as [ReturnType<typeof sql>, ReturnType<typeof sql>],
});

/** The person's name for the dialog's title. */
export async function mandatePersonName(db: Db, personId: number): Promise<string | null | undefined> {
  const [row] = await db.select({ fullName: people.fullName }).from(people).where(eq(people.id, personId));
  return row ? (row.fullName ?? "") : undefined;
}
