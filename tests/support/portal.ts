import { createCookie } from "@remix-run/cloudflare";
import { env } from "cloudflare:test";
import { createDb } from "~/db/client.server";
import { actFor, findPortalSession, requestSignIn, signInWithLink } from "~/models/portal-auth.server";

let ipCounter = 0;

const signedCookie = () => createCookie("wuff_portal", { secrets: [env.SESSION_SECRET] });

/** The signed portal cookie for a session id, as the app sets it (Cookie header form). */
export async function portalCookie(sessionId: string): Promise<string> {
  const serialized = await signedCookie().serialize(sessionId);
  return serialized.split(";")[0];
}

/** The session id a portal cookie (Cookie header form) carries; D1 keys the session by its hash. */
export async function portalSessionIdOf(cookie: string): Promise<string> {
  const sessionId: unknown = await signedCookie().parse(cookie);
  if (typeof sessionId !== "string") throw new Error("Kein Portal-Cookie");
  return sessionId;
}

/**
 * A Mein Wuff session as a person gets it: a link asked for `email` and used in the same browser,
 * acting for `personId` (a family's choice) when given. Answers the Cookie header.
 */
export async function portalSessionFor(email: string, personId?: number): Promise<string> {
  const db = createDb(env.DB);
  const browserId = `browser-${crypto.randomUUID()}`;
  const asked = await requestSignIn(db, { email, ip: `portal-test-${++ipCounter}-${crypto.randomUUID()}`, browserId });
  if (asked.status !== "accepted" || !asked.token) throw new Error(`Kein Anmeldelink für ${email}`);
  const sessionId = await signInWithLink(db, { token: asked.token, browserId });
  if (!sessionId) throw new Error("Der Anmeldelink meldet nicht an");
  if (personId !== undefined) {
    const session = await findPortalSession(db, sessionId);
    if (!session || !(await actFor(db, session, personId))) throw new Error(`Die Sitzung kann nicht für ${personId} handeln`);
  }
  return portalCookie(sessionId);
}
