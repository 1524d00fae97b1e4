/**
 * Mein Wuff (issue 32 item 1): signing in by a one-time e-mail link, and the portal's sessions.
 *
 * - A request of a link is counted (hashes of the address and the IP) whether the address is
 *   known or not; over the limits (app/lib/portal.ts) nothing is counted or sent. For an address
 *   of a person who is not erased, a token is made: the mail carries it, D1 keeps its hash and the
 *   hash of the asking browser's cookie.
 * - The link signs in once, within 15 minutes, in that browser: one UPDATE claims it (used_on),
 *   so two clicks at once sign in once.
 * - A portal session holds the address, and the person it acts for once chosen among the people
 *   sharing it (a family). Every request checks that the person still has that address and is not
 *   erased, so what a session may see follows the records, not the moment of signing in.
 */
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { render, runAtomically, type Db } from "~/db/client.server";
import { people, portalEmailChanges, portalMandateRequests, portalSessions, portalSignInRequests } from "~/db/schema";
import { randomToken, sha256Base64Url } from "~/lib/bytes";
import {
  LIMIT_WINDOW_MINUTES,
  LINK_MINUTES,
  minutesFrom,
  normalizeEmail,
  PORTAL_IDLE_MINUTES,
  PORTAL_MAX_AGE_SECONDS,
  REQUESTS_PER_ADDRESS,
  REQUESTS_PER_IP,
} from "~/lib/portal";

/** A person the portal may act for: one of those with the signed-in address. */
export type PortalPerson = { id: number; firstName: string; lastName: string };

/** People with this address (compared trimmed and in lower case), not erased, by name. */
async function peopleWithEmail(db: Db, email: string): Promise<PortalPerson[]> {
  return db
    .select({ id: people.id, firstName: people.firstName, lastName: people.lastName })
    .from(people)
    .where(and(sql`lower(trim(${people.email})) = ${normalizeEmail(email)}`, isNull(people.erasedOn)))
    .orderBy(people.lastNameKey, people.firstNameKey, people.id);
}

export type SignInRequestOutcome = { status: "limited" } | { status: "accepted"; token: string | null; people: PortalPerson[] };

/**
 * A request of a sign-in link for `email` from `ip` in the browser whose cookie is `browserId`:
 * refused over the limits, else counted, and for a person's address a token made (null for an
 * unknown address: the caller answers alike and mails nothing).
 */
export async function requestSignIn(db: Db, input: { email: string; ip: string; browserId: string; now?: Date }): Promise<SignInRequestOutcome> {
  const now = input.now ?? new Date();
  const email = normalizeEmail(input.email);
  const [emailHash, ipHash] = await Promise.all([sha256Base64Url(`email:${email}`), sha256Base64Url(`ip:${input.ip}`)]);
  const since = minutesFrom(now, -LIMIT_WINDOW_MINUTES);
  const [[{ perAddress, perIp }], found] = await Promise.all([
    db.all<{ perAddress: number; perIp: number }>(sql`SELECT
        (SELECT count(*) FROM ${portalSignInRequests} WHERE email_hash = ${emailHash} AND created_on > ${since}) AS perAddress,
        (SELECT count(*) FROM ${portalSignInRequests} WHERE ip_hash = ${ipHash} AND created_on > ${since}) AS perIp`),
    peopleWithEmail(db, email),
  ]);
  if (perAddress >= REQUESTS_PER_ADDRESS || perIp >= REQUESTS_PER_IP) return { status: "limited" };
  const token = found.length > 0 ? randomToken() : null;
  await db.insert(portalSignInRequests).values({
    emailHash,
    ipHash,
    email: token ? email : null,
    tokenHash: token ? await sha256Base64Url(token) : null,
    browserHash: token ? await sha256Base64Url(input.browserId) : null,
    createdOn: now.toISOString(),
    expiresOn: minutesFrom(now, LINK_MINUTES),
  });
  return { status: "accepted", token, people: found };
}

/** Whether a text has the shape of a token Wuff makes (anything else is not looked up). */
export const isTokenShaped = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * Signs in with the link's token in the browser whose cookie is `browserId`: claims the link once
 * (not used, not expired, asked for in this browser) and starts a portal session. Answers the
 * session's id for the cookie, or null when the link does not (or no longer) sign in.
 */
export async function signInWithLink(db: Db, input: { token: string; browserId: string; now?: Date }): Promise<string | null> {
  if (!isTokenShaped(input.token) || !input.browserId) return null;
  const now = input.now ?? new Date();
  const [tokenHash, browserHash] = await Promise.all([sha256Base64Url(input.token), sha256Base64Url(input.browserId)]);
  const sessionId = randomToken();
  const iso = now.toISOString();
  // One batch: the claim, then the session only if this very batch claimed the link.
  const [claimed] = await runAtomically(db, [
    render(sql`UPDATE ${portalSignInRequests} SET used_on = ${iso}
      WHERE token_hash = ${tokenHash} AND browser_hash = ${browserHash} AND used_on IS NULL AND expires_on > ${iso} RETURNING email`),
    render(sql`INSERT INTO ${portalSessions} (id, email, person_id, created_on, last_seen_on, expires_on)
      SELECT ${await sha256Base64Url(sessionId)}, email, NULL, ${iso}, ${iso}, ${new Date(now.getTime() + PORTAL_MAX_AGE_SECONDS * 1000).toISOString()}
      FROM ${portalSignInRequests} WHERE token_hash = ${tokenHash} AND used_on = ${iso} AND email IS NOT NULL`),
  ]);
  return claimed.results.length === 1 ? sessionId : null;
}

/** `person`: whom the portal acts for, the one chosen or the only one with the address; null
 *  while a family has not chosen yet. */
export type PortalSession = { key: string; email: string; personId: number | null; people: PortalPerson[]; person: PortalPerson | null };

/**
 * The portal session of a cookie's id, or null when there is none, it expired, it was idle too
 * long or nobody has its address any more. The person it acts for is kept only while they still
 * have the address. Touches the session (its idle limit counts from now).
 */
export async function findPortalSession(db: Db, sessionId: string, now = new Date()): Promise<PortalSession | null> {
  if (!isTokenShaped(sessionId)) return null;
  const key = await sha256Base64Url(sessionId);
  const [session] = await db
    .select()
    .from(portalSessions)
    .where(
      and(eq(portalSessions.id, key), gt(portalSessions.expiresOn, now.toISOString()), gt(portalSessions.lastSeenOn, minutesFrom(now, -PORTAL_IDLE_MINUTES))),
    );
  if (!session) return null;
  const found = await peopleWithEmail(db, session.email);
  if (found.length === 0) return null;
  await db.update(portalSessions).set({ lastSeenOn: now.toISOString() }).where(eq(portalSessions.id, key));
  const chosen = found.find((person) => person.id === session.personId) ?? null;
  return { key, email: session.email, personId: chosen?.id ?? null, people: found, person: chosen ?? (found.length === 1 ? found[0] : null) };
}

/** The person the session acts for from now on: only one of those sharing its address. */
export async function actFor(db: Db, session: PortalSession, personId: number): Promise<boolean> {
  if (!session.people.some((person) => person.id === personId)) return false;
  await db.update(portalSessions).set({ personId }).where(eq(portalSessions.id, session.key));
  return true;
}

/** Logout: the session is gone. */
export async function endPortalSession(db: Db, session: Pick<PortalSession, "key">): Promise<void> {
  await db.delete(portalSessions).where(eq(portalSessions.id, session.key));
}

/** Housekeeping for the daily cron: links, sessions, address changes and unconfirmed mandates past their time (the counts need 15 minutes). */
export async function deleteExpiredPortalRecords(db: Db, now: Date): Promise<void> {
  const iso = now.toISOString();
  await runAtomically(db, [
    render(sql`DELETE FROM ${portalSignInRequests} WHERE expires_on < ${minutesFrom(now, -LIMIT_WINDOW_MINUTES)}`),
    render(sql`DELETE FROM ${portalSessions} WHERE expires_on < ${iso}`),
    render(sql`DELETE FROM ${portalEmailChanges} WHERE expires_on < ${iso}`),
    // A mandate nobody confirmed: its IBAN is kept for nothing (the confirmed ones are the
    // mandate's record of when it was asked for).
    render(sql`DELETE FROM ${portalMandateRequests} WHERE confirmed_on IS NULL AND expires_on < ${iso}`),
  ]);
}
