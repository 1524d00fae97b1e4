import { eq, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { sessions } from "~/db/schema";
import type { User } from "~/lib/access";
import { randomToken, sha256Base64Url } from "~/lib/bytes";

/**
 * What D1 stores instead of a session's id: its SHA-256 (base64url). The cookie holds the id; a
 * copy of the database holds only hashes, which hand out no live session.
 */
export type SessionKey = string & { readonly __sessionKey: true };

export type StoredSession = { key: SessionKey; user: User; idToken: string | null; lastSeenOn: string; expiresOn: string };

const newSessionId = randomToken;

/** The key under which the session with this (cookie) id is stored. */
export async function sessionKey(id: string): Promise<SessionKey> {
  return (await sha256Base64Url(id)) as SessionKey;
}

/** Starts a session; answers its id, for the cookie (D1 keeps only its hash). */
export async function createSession(
  db: Db,
  { user, idToken, now, maxAgeSeconds }: { user: User; idToken: string | null; now: Date; maxAgeSeconds: number },
): Promise<string> {
  const id = newSessionId();
  await db.insert(sessions).values({
    id: await sessionKey(id),
    user: JSON.stringify(user),
    idToken,
    createdOn: now.toISOString(),
    lastSeenOn: now.toISOString(),
    expiresOn: new Date(now.getTime() + maxAgeSeconds * 1000).toISOString(),
  });
  return id;
}

export async function findSession(db: Db, key: SessionKey): Promise<StoredSession | undefined> {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, key));
  if (!row) return undefined;
  return { key, user: JSON.parse(row.user) as User, idToken: row.idToken, lastSeenOn: row.lastSeenOn, expiresOn: row.expiresOn };
}

export async function touchSession(db: Db, key: SessionKey, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenOn: now.toISOString() }).where(eq(sessions.id, key));
}

export async function deleteSession(db: Db, key: SessionKey): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, key));
}

/** Housekeeping for the daily cron: sessions past their absolute lifetime. */
export async function deleteExpiredSessions(db: Db, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresOn, now.toISOString()));
}
