/**
 * Mein Wuff, my data (issue 32 item 2): what a person keeps current themselves. Every write goes
 * through the same table and triggers as the staff's edits, so the change history records it, as
 * made by the person in Mein Wuff (app/services/portal.server.ts: requirePortalPerson).
 *
 * A new e-mail address takes effect only once confirmed by the link mailed to it: the portal signs
 * in by address, so an address typed in but not owned must never open anyone's data.
 */
import { and, count, eq, gt, isNull, sql } from "drizzle-orm";
import { render, runAtomically, type Db } from "~/db/client.server";
import { people, portalEmailChanges, portalSessions } from "~/db/schema";
import { randomToken, sha256Base64Url } from "~/lib/bytes";
import { minutesFrom, normalizeEmail } from "~/lib/portal";
import { auditUpdate, updateVersioned, type Actor, type UpdateOutcome } from "./audit.server";
import { isTokenShaped } from "./portal-auth.server";

/** The fields a person edits in Mein Wuff. */
export type OwnData = {
  salutation: (typeof people.$inferSelect)["salutation"];
  title: string | null;
  firstName: string;
  lastName: string;
  streetNumber: string | null;
  zip: string | null;
  city: string | null;
  homePhone: string | null;
  mobilePhone: string | null;
};

const ownColumns = {
  salutation: people.salutation,
  title: people.title,
  firstName: people.firstName,
  lastName: people.lastName,
  streetNumber: people.streetNumber,
  zip: people.zip,
  city: people.city,
  homePhone: people.homePhone,
  mobilePhone: people.mobilePhone,
};

export type OwnRecord = OwnData & { id: number; email: string | null; rowVersion: number };

/** The person's own data as Mein Wuff shows it. */
export async function ownData(db: Db, personId: number): Promise<OwnRecord | undefined> {
  const [row] = await db
    .select({ id: people.id, ...ownColumns, email: people.email, rowVersion: people.rowVersion })
    .from(people)
    .where(and(eq(people.id, personId), isNull(people.erasedOn)));
  return row;
}

/** Saves the person's own data if nobody changed it since the form was shown (rowVersion). */
export async function saveOwnData(db: Db, personId: number, rowVersion: number, values: OwnData, actor: Actor): Promise<UpdateOutcome<OwnRecord>> {
  return updateVersioned(db, people, { id: personId, rowVersion }, values, actor, () => ownData(db, personId));
}

/** A confirmation link lives a day: long enough to reach a mailbox read in the evening. */
const EMAIL_CHANGE_MINUTES = 24 * 60;
/** At most this many addresses asked for per person in a day (each mails a stranger's address). */
const EMAIL_CHANGES_PER_DAY = 5;

/**
 * token null: the address belongs to another person in Wuff. The portal never makes two people
 * share an address (a family, who see each other's data): whoever confirmed such a link would join
 * the asker to that family. The caller answers alike (the answer must not tell that the address is
 * known) and mails nothing; a shared family address is for staff to enter.
 */
export type EmailChangeRequest = { status: "same" } | { status: "limited" } | { status: "asked"; token: string | null; email: string };

/** Another living person has this (normalised) address. */
const addressOfAnother = (email: string, personId: number) =>
  sql`EXISTS (SELECT 1 FROM ${people} WHERE lower(trim(email)) = ${email} AND erased_on IS NULL AND id <> ${personId})`;

/** Asks to change the person's address to `newEmail`: a token for the link to that address. */
export async function requestEmailChange(
  db: Db,
  input: { personId: number; currentEmail: string | null; newEmail: string; now?: Date },
): Promise<EmailChangeRequest> {
  const now = input.now ?? new Date();
  const email = normalizeEmail(input.newEmail);
  if (input.currentEmail && normalizeEmail(input.currentEmail) === email) return { status: "same" };
  const [{ asked }] = await db
    .select({ asked: count() })
    .from(portalEmailChanges)
    .where(and(eq(portalEmailChanges.personId, input.personId), gt(portalEmailChanges.createdOn, minutesFrom(now, -24 * 60))));
  if (asked >= EMAIL_CHANGES_PER_DAY) return { status: "limited" };
  const [{ taken }] = await db.select({ taken: sql<number>`${addressOfAnother(email, input.personId)}` }).from(sql`(SELECT 1)`);
  const token = randomToken();
  await db.insert(portalEmailChanges).values({
    personId: input.personId,
    newEmail: email,
    tokenHash: await sha256Base64Url(token),
    createdOn: now.toISOString(),
    expiresOn: minutesFrom(now, EMAIL_CHANGE_MINUTES),
  });
  return { status: "asked", token: taken ? null : token, email };
}

export type PendingEmailChange = { personId: number; email: string; firstName: string; lastName: string };

/** The change a link's token asks for, while it still works (not used, not expired, person not erased). */
export async function pendingEmailChange(db: Db, token: string, now = new Date()): Promise<PendingEmailChange | null> {
  if (!isTokenShaped(token)) return null;
  const [pending] = await db
    .select({ personId: portalEmailChanges.personId, email: portalEmailChanges.newEmail, firstName: people.firstName, lastName: people.lastName })
    .from(portalEmailChanges)
    .innerJoin(people, eq(people.id, portalEmailChanges.personId))
    .where(
      and(
        eq(portalEmailChanges.tokenHash, await sha256Base64Url(token)),
        isNull(portalEmailChanges.usedOn),
        gt(portalEmailChanges.expiresOn, now.toISOString()),
        isNull(people.erasedOn),
      ),
    );
  return pending ?? null;
}

/**
 * Confirms a new address with the link's token: claims the link once, writes the address to the
 * person and moves the portal sessions acting for the person to it, one batch (two clicks at once
 * change it once). Answers whether this call changed it.
 */
export async function confirmEmailChange(db: Db, token: string, pending: PendingEmailChange, actor: Actor, now = new Date()): Promise<boolean> {
  const tokenHash = await sha256Base64Url(token);
  const iso = now.toISOString();
  const audit = auditUpdate(actor, people.rowVersion, now);
  const claimedNow = sql`EXISTS (SELECT 1 FROM ${portalEmailChanges} WHERE token_hash = ${tokenHash} AND used_on = ${iso})`;
  const oldEmail = sql`(SELECT lower(trim(email)) FROM ${people} WHERE id = ${pending.personId})`;
  const [claimed] = await runAtomically(db, [
    render(
      sql`UPDATE ${portalEmailChanges} SET used_on = ${iso} WHERE token_hash = ${tokenHash} AND used_on IS NULL AND expires_on > ${iso}
        AND NOT ${addressOfAnother(pending.email, pending.personId)} RETURNING person_id`,
    ),
    // Before the address changes: the sessions acting for the person, by choice or as the only
    // one with the old address, follow it (and from now on name the person).
    render(
      sql`UPDATE ${portalSessions} SET email = ${pending.email}, person_id = ${pending.personId}
        WHERE ${claimedNow} AND (person_id = ${pending.personId} OR (person_id IS NULL AND email = ${oldEmail}
          AND (SELECT count(*) FROM ${people} WHERE lower(trim(email)) = ${oldEmail} AND erased_on IS NULL) = 1))`,
    ),
    render(
      sql`UPDATE ${people} SET email = ${pending.email}, last_modified_by = ${audit.lastModifiedBy}, last_modified_on = ${audit.lastModifiedOn},
        row_version = row_version + 1
        WHERE id = ${pending.personId} AND erased_on IS NULL AND ${claimedNow}`,
    ),
  ]);
  return claimed.results.length === 1;
}
