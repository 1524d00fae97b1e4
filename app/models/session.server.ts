import { eq, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { sessions } from "~/db/schema";
import type { User } from "~/lib/access";

export type StoredSession = { id: string; user: User; idToken: string | null; lastSeenOn: string; expiresOn: string };

function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export async function createSession(
  db: Db,
  { user, idToken, now, maxAgeSeconds }: { user: User; idToken: string | null; now: Date; maxAgeSeconds: number },
): Promise<string> {
  const id = newSessionId();
  await db.insert(sessions).values({
    id,
    user: JSON.stringify(user),
    idToken,
    createdOn: now.toISOString(),
    lastSeenOn: now.toISOString(),
    expiresOn: new Date(now.getTime() + maxAgeSeconds * 1000).toISOString(),
  });
  return id;
}

export async function findSession(db: Db, id: string): Promise<StoredSession | undefined> {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
  if (!row) return undefined;
  return { id: row.id, user: JSON.parse(row.user) as User, idToken: row.idToken, lastSeenOn: row.lastSeenOn, expiresOn: row.expiresOn };
}

export async function touchSession(db: Db, id: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenOn: now.toISOString() }).where(eq(sessions.id, id));
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}

/** Housekeeping for the daily cron: sessions past their absolute lifetime. */
export async function deleteExpiredSessions(db: Db, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresOn, now.toISOString()));
}
