/**
 * The club's versioned texts and the consents given to them (issue 32 item 2; app/lib/consents.ts).
 * A text is only ever added as a new version; a consent names the version the person was shown,
 * and a withdrawal sets the date on that consent (the row stays as the proof, Art. 7 Abs. 1 DSGVO).
 */
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { consents, legalTexts } from "~/db/schema";
import { CONSENT_KINDS, consentTextKind, type CONSENT_SOURCES, type ConsentKind, type LegalTextKind } from "~/lib/consents";
import { auditInsert, auditUpdate, type Actor } from "./audit.server";

export type LegalText = { id: number; kind: LegalTextKind; version: number; body: string; publishedOn: string };

const legalTextColumns = { id: legalTexts.id, kind: legalTexts.kind, version: legalTexts.version, body: legalTexts.body, publishedOn: legalTexts.createdOn };

/** The newest version of each of `kinds` that has one. */
export async function currentLegalTexts(db: Db, kinds: readonly LegalTextKind[]): Promise<Partial<Record<LegalTextKind, LegalText>>> {
  const rows = await db
    .select(legalTextColumns)
    .from(legalTexts)
    .where(
      and(
        inArray(legalTexts.kind, [...kinds]),
        sql`${legalTexts.version} = (SELECT max(version) FROM legal_texts AS newer WHERE newer.kind = ${legalTexts.kind})`,
      ),
    );
  return Object.fromEntries(rows.map((row) => [row.kind, row]));
}

/** The texts with these ids (the versions a booking accepted), in no particular order. */
export async function legalTextsByIds(db: Db, ids: number[]): Promise<LegalText[]> {
  return ids.length ? db.select(legalTextColumns).from(legalTexts).where(inArray(legalTexts.id, ids)) : [];
}

/**
 * Publishes `body` as the next version of `kind`; a body equal to the current one publishes
 * nothing. Answers the version now in force.
 */
export async function publishLegalText(db: Db, kind: LegalTextKind, body: string, actor: Actor): Promise<{ version: number; changed: boolean }> {
  const text = body.replace(/\r\n/g, "\n").trim();
  const current = (await currentLegalTexts(db, [kind]))[kind];
  if (current && current.body === text) return { version: current.version, changed: false };
  const version = (current?.version ?? 0) + 1;
  // The unique (kind, version) refuses a second publication of the same version at the same moment.
  await db.insert(legalTexts).values({ kind, version, body: text, ...auditInsert(actor) });
  return { version, changed: true };
}

/** A consent's standing: in force since (to which version), or withdrawn on, or never given. */
export type ConsentState = {
  kind: ConsentKind;
  /** The consent in force, or the last one withdrawn. */
  given: { on: string; version: number; withdrawnOn: string | null } | null;
};

/** The standing of each kind of consent of a person. */
export async function consentsOf(db: Db, personId: number): Promise<ConsentState[]> {
  const rows = await db
    .select({ kind: consents.kind, on: consents.givenOn, withdrawnOn: consents.withdrawnOn, version: legalTexts.version })
    .from(consents)
    .innerJoin(legalTexts, eq(legalTexts.id, consents.legalTextId))
    .where(eq(consents.personId, personId))
    .orderBy(desc(consents.givenOn), desc(consents.id));
  return CONSENT_KINDS.map((kind) => {
    const latest = rows.find((row) => row.kind === kind);
    return { kind, given: latest ? { on: latest.on, version: latest.version, withdrawnOn: latest.withdrawnOn } : null };
  });
}

export type ConsentOutcome = { status: "given" | "withdrawn" | "unchanged" } | { status: "refused"; message: string };

/**
 * Gives (`give`) or withdraws a person's consent of `kind`. Giving names the version `versionShown`
 * that the person read; if the club published a newer one meanwhile, nothing is given and the
 * person is asked to read it. Giving what is in force, or withdrawing what is not, changes nothing.
 */
export async function setConsent(
  db: Db,
  input: { personId: number; kind: ConsentKind; give: boolean; versionShown: number | null; source: (typeof CONSENT_SOURCES)[number] },
  actor: Actor,
  now = new Date(),
): Promise<ConsentOutcome> {
  const iso = now.toISOString();
  if (!input.give) {
    const withdrawn = await db
      .update(consents)
      .set({ withdrawnOn: iso, ...auditUpdate(actor, consents.rowVersion, now) })
      .where(and(eq(consents.personId, input.personId), eq(consents.kind, input.kind), isNull(consents.withdrawnOn)))
      .returning({ id: consents.id });
    return { status: withdrawn.length > 0 ? "withdrawn" : "unchanged" };
  }
  const text = (await currentLegalTexts(db, [consentTextKind(input.kind)]))[consentTextKind(input.kind)];
  if (!text) return { status: "refused", message: "Für diese Einwilligung hat der Verein noch keinen Text hinterlegt." };
  if (input.versionShown !== text.version) {
    return { status: "refused", message: "Der Text dieser Einwilligung wurde inzwischen geändert. Bitte lies die neue Fassung und willige dann ein." };
  }
  // The partial unique index (one consent in force per kind) makes a second click a no-op.
  const given = await db
    .insert(consents)
    .values({ personId: input.personId, kind: input.kind, legalTextId: text.id, givenOn: iso, source: input.source, ...auditInsert(actor, now) })
    .onConflictDoNothing()
    .returning({ id: consents.id });
  return { status: given.length > 0 ? "given" : "unchanged" };
}
