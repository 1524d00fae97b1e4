/**
 * SEPA mandates given online in Mein Wuff (issue 32 item 4). The person enters the account below
 * the club's mandate text; a link goes to their address, and only its button makes the mandate:
 * proof that the holder of the mailbox the club knows agreed (§ 675j BGB; without a handwritten
 * signature the club keeps the risk of an unauthorised debit: refunded within 13 months, § 675u
 * and § 676b BGB; an authorised one within 8 weeks, § 675x BGB). Confirmed, it is an active
 * mandate like one entered from paper (source PORTAL), replaces the person's active one and is
 * what the next Lastschriftlauf collects with (FRST first). Its PDF follows (mandate-pdfs).
 */
import { and, count, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { render, runAtomically, type Db } from "~/db/client.server";
import { people, portalMandateRequests, sepaMandates } from "~/db/schema";
import { mandateReference, maskIban } from "~/lib/banking";
import { sha256Base64Url, randomToken } from "~/lib/bytes";
import { formatDateTime, todayInBerlin } from "~/lib/format";
import type { MandateDocument } from "~/lib/mandate-document";
import { minutesFrom } from "~/lib/portal";
import type { Actor } from "./audit.server";
import { getConfiguration } from "./configuration.server";
import { errorText } from "./constraints.server";
import { isTokenShaped } from "./portal-auth.server";
import { nextMandateNumber } from "./sepa-mandates.server";

/** The link lives a day; at most five a day per person (each is a mail). */
const MANDATE_LINK_MINUTES = 24 * 60;
const MANDATE_REQUESTS_PER_DAY = 5;

export type MandateAccount = { accountHolder: string; iban: string; bic: string | null };

export type MandateRequestOutcome = { status: "asked"; token: string } | { status: "limited" };

export async function requestMandate(db: Db, personId: number, account: MandateAccount, now = new Date()): Promise<MandateRequestOutcome> {
  const [{ asked }] = await db
    .select({ asked: count() })
    .from(portalMandateRequests)
    .where(and(eq(portalMandateRequests.personId, personId), gt(portalMandateRequests.createdOn, minutesFrom(now, -24 * 60))));
  if (asked >= MANDATE_REQUESTS_PER_DAY) return { status: "limited" };
  const token = randomToken();
  await db.insert(portalMandateRequests).values({
    personId,
    ...account,
    tokenHash: await sha256Base64Url(token),
    createdOn: now.toISOString(),
    expiresOn: minutesFrom(now, MANDATE_LINK_MINUTES),
  });
  return { status: "asked", token };
}

export type PendingMandate = MandateAccount & { requestId: number; personId: number; firstName: string; lastName: string; requestedOn: string };

/** The request a link's token names while it works (not used, not expired, person not erased). */
export async function pendingMandate(db: Db, token: string, now = new Date()): Promise<PendingMandate | null> {
  if (!isTokenShaped(token)) return null;
  const [row] = await db
    .select({
      requestId: portalMandateRequests.id,
      personId: portalMandateRequests.personId,
      accountHolder: portalMandateRequests.accountHolder,
      iban: portalMandateRequests.iban,
      bic: portalMandateRequests.bic,
      requestedOn: portalMandateRequests.createdOn,
      firstName: people.firstName,
      lastName: people.lastName,
    })
    .from(portalMandateRequests)
    .innerJoin(people, eq(people.id, portalMandateRequests.personId))
    .where(
      and(
        eq(portalMandateRequests.tokenHash, await sha256Base64Url(token)),
        isNull(portalMandateRequests.confirmedOn),
        gt(portalMandateRequests.expiresOn, now.toISOString()),
        isNull(people.erasedOn),
      ),
    );
  return row ? { ...row, firstName: row.firstName ?? "", lastName: row.lastName ?? "" } : null;
}

export type ConfirmedMandate = { mandateId: number; reference: string; replaced: string | null; confirmedOn: string };

/**
 * Confirms the request: claims the link once, deactivates the person's active mandate and writes
 * the new one, one batch. Two clicks at once: the second claims nothing and writes nothing.
 */
export async function confirmMandate(db: Db, token: string, pending: PendingMandate, actor: Actor, now = new Date()): Promise<ConfirmedMandate | null> {
  const tokenHash = await sha256Base64Url(token);
  const iso = now.toISOString();
  const [current] = await db
    .select({ reference: sepaMandates.reference })
    .from(sepaMandates)
    .where(and(eq(sepaMandates.personId, pending.personId), eq(sepaMandates.isActive, true)));
  const reference = mandateReference(pending.personId, await nextMandateNumber(db, pending.personId));
  const claimedNow = sql`EXISTS (SELECT 1 FROM ${portalMandateRequests} WHERE token_hash = ${tokenHash} AND confirmed_on = ${iso})`;
  const comment = `Online erteilt in Mein Wuff am ${formatDateTime(pending.requestedOn)}, bestätigt am ${formatDateTime(iso)} über den Link an die E-Mail-Adresse der Person.`;
  try {
    const [claimed] = await runAtomically(db, [
      render(sql`UPDATE ${portalMandateRequests} SET confirmed_on = ${iso}
        WHERE token_hash = ${tokenHash} AND confirmed_on IS NULL AND expires_on > ${iso} RETURNING id`),
      render(sql`UPDATE ${sepaMandates} SET is_active = 0, last_modified_by = ${actor.name}, last_modified_on = ${iso}, row_version = row_version + 1
        WHERE person_id = ${pending.personId} AND is_active = 1 AND ${claimedNow}`),
      render(sql`INSERT INTO ${sepaMandates} (person_id, account_holder, iban, bic, reference, mandate_date, is_active, comments, source, created_by, created_on)
        SELECT ${pending.personId}, ${pending.accountHolder}, ${pending.iban}, ${pending.bic}, ${reference}, ${todayInBerlin(now)}, 1, ${comment}, 'PORTAL',
          ${actor.name}, ${iso} WHERE ${claimedNow}`),
      render(sql`UPDATE ${portalMandateRequests} SET mandate_id = (SELECT id FROM ${sepaMandates} WHERE reference = ${reference})
        WHERE token_hash = ${tokenHash} AND confirmed_on = ${iso}`),
    ]);
    if (claimed.results.length !== 1) return null;
  } catch (error) {
    // Another confirmation of the person wrote this reference a moment ago: this one is not made.
    if (errorText(error).includes("UNIQUE")) return null;
    throw error;
  }
  const [mandate] = await db.select({ id: sepaMandates.id }).from(sepaMandates).where(eq(sepaMandates.reference, reference));
  return { mandateId: mandate.id, reference, replaced: current?.reference ?? null, confirmedOn: iso };
}

/** What the person sees of their mandates: the active one and earlier ones, IBAN masked. */
export async function ownMandates(db: Db, personId: number) {
  const rows = await db
    .select({
      id: sepaMandates.id,
      reference: sepaMandates.reference,
      iban: sepaMandates.iban,
      mandateDate: sepaMandates.mandateDate,
      isActive: sepaMandates.isActive,
      revokedOn: sepaMandates.revokedOn,
      hasDocument: sql<number>`${sepaMandates.documentKey} IS NOT NULL`.mapWith(Boolean),
    })
    .from(sepaMandates)
    .where(eq(sepaMandates.personId, personId))
    .orderBy(desc(sepaMandates.isActive), desc(sepaMandates.id));
  return rows.map((row) => ({ ...row, iban: maskIban(row.iban) }));
}

/** Whether a confirmation link is waiting (the page says so instead of offering the form again). */
export async function openMandateRequest(db: Db, personId: number, now = new Date()): Promise<{ expiresOn: string } | null> {
  const [row] = await db
    .select({ expiresOn: portalMandateRequests.expiresOn })
    .from(portalMandateRequests)
    .where(and(eq(portalMandateRequests.personId, personId), isNull(portalMandateRequests.confirmedOn), gt(portalMandateRequests.expiresOn, now.toISOString())))
    .orderBy(desc(portalMandateRequests.id))
    .limit(1);
  return row ?? null;
}

/** The stored PDF of the person's own mandate: its key, or null (not theirs, none yet). */
export async function ownMandateDocument(db: Db, personId: number, mandateId: number): Promise<{ key: string; reference: string } | null> {
  const [row] = await db
    .select({ key: sepaMandates.documentKey, reference: sepaMandates.reference })
    .from(sepaMandates)
    .where(and(eq(sepaMandates.id, mandateId), eq(sepaMandates.personId, personId)));
  return row?.key ? { key: row.key, reference: row.reference } : null;
}

/** What the PDF of a mandate given online shows, or null (not given online, or gone). */
export async function mandateDocumentData(db: Db, mandateId: number): Promise<(MandateDocument & { documentKey: string | null }) | null> {
  const [[row], configuration] = await Promise.all([
    db
      .select({
        reference: sepaMandates.reference,
        documentKey: sepaMandates.documentKey,
        accountHolder: sepaMandates.accountHolder,
        iban: sepaMandates.iban,
        bic: sepaMandates.bic,
        mandateDate: sepaMandates.mandateDate,
        requestedOn: portalMandateRequests.createdOn,
        confirmedOn: portalMandateRequests.confirmedOn,
        firstName: people.firstName,
        lastName: people.lastName,
        street: people.streetNumber,
        zip: people.zip,
        city: people.city,
        email: people.email,
      })
      .from(sepaMandates)
      .innerJoin(portalMandateRequests, eq(portalMandateRequests.mandateId, sepaMandates.id))
      .innerJoin(people, eq(people.id, sepaMandates.personId))
      .where(and(eq(sepaMandates.id, mandateId), eq(sepaMandates.source, "PORTAL"))),
    getConfiguration(db),
  ]);
  if (!row?.confirmedOn || !configuration) return null;
  return {
    club: {
      name: configuration.clubName ?? "",
      street: configuration.clubStreet,
      zip: configuration.clubZip,
      city: configuration.clubCity,
      creditorId: configuration.creditorId ?? "",
    },
    mandateText: configuration.mandateText ?? "",
    reference: row.reference,
    documentKey: row.documentKey,
    debtor: { name: `${row.firstName ?? ""} ${row.lastName ?? ""}`.trim(), street: row.street, zip: row.zip, city: row.city, email: row.email ?? "" },
    accountHolder: row.accountHolder,
    iban: row.iban,
    bic: row.bic,
    mandateDate: row.mandateDate,
    requestedOn: row.requestedOn,
    confirmedOn: row.confirmedOn,
  };
}

/** Names the mandate's stored PDF, once (a key already there stays). */
export async function setMandateDocument(db: Db, mandateId: number, key: string): Promise<void> {
  await db
    .update(sepaMandates)
    .set({ documentKey: key })
    .where(and(eq(sepaMandates.id, mandateId), isNull(sepaMandates.documentKey)));
}

/** Mandates given online whose PDF is not stored yet (rendering failed): the daily cron's work. */
export async function mandatesWithoutDocument(db: Db, limit = 20): Promise<number[]> {
  const rows = await db
    .select({ id: sepaMandates.id })
    .from(sepaMandates)
    .where(and(eq(sepaMandates.source, "PORTAL"), isNull(sepaMandates.documentKey)))
    .limit(limit);
  return rows.map((row) => row.id);
}
