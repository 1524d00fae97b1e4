/**
 * Mein Wuff's cookies and guards (issue 32 item 1), apart from the staff's: the portal session
 * (wuff_portal) and the browser's own mark (wuff_portal_browser), set when a link is asked for, so
 * that the link signs in only in the browser that asked. A portal route answers only to a portal
 * session; the staff's routes never read wuff_portal (app/services/auth.server.ts), so a portal
 * session opens none of them.
 */
import { createCookie, type AppLoadContext } from "@remix-run/cloudflare";
import { randomToken } from "~/lib/bytes";
import { PORTAL_MAX_AGE_SECONDS, SESSION_ENDED } from "~/lib/portal";
import { findPortalSession, isTokenShaped, type PortalPerson, type PortalSession } from "~/models/portal-auth.server";
import type { Db } from "~/db/client.server";
import { composeMail, loadTemplate, mailSettings } from "~/jobs/mails.server";
import { isSecureOrigin, readCookie } from "./cookies.server";
import { openTransport } from "./mail.server";
import { redirectWithToast } from "./toast.server";

const options = (env: Env) => ({ path: "/", httpOnly: true, sameSite: "lax" as const, secure: isSecureOrigin(env.APP_URL), secrets: [env.SESSION_SECRET] });

/** The signed id of the portal session. */
const portalCookie = (env: Env) => createCookie("wuff_portal", { ...options(env), maxAge: PORTAL_MAX_AGE_SECONDS });
/** The browser's mark: a random value the link's request remembers (its hash). A day is enough. */
const browserCookie = (env: Env) => createCookie("wuff_portal_browser", { ...options(env), maxAge: 24 * 60 * 60 });

const SIGN_IN_TEMPLATE = "Anmeldelink (Mein Wuff)";

/** The browser's mark, and the header that sets it when the browser has none yet. */
export async function browserMark(request: Request, env: Env): Promise<{ browserId: string; setCookie: string | null }> {
  const value = await readCookie(browserCookie(env), request);
  if (typeof value === "string" && isTokenShaped(value)) return { browserId: value, setCookie: null };
  const browserId = randomToken();
  return { browserId, setCookie: await browserCookie(env).serialize(browserId) };
}

/** The browser's mark if it has one (signing in with a link), else an empty string. */
export async function existingBrowserMark(request: Request, env: Env): Promise<string> {
  const value = await readCookie(browserCookie(env), request);
  return typeof value === "string" ? value : "";
}

export const portalSessionCookie = (env: Env, sessionId: string) => portalCookie(env).serialize(sessionId);
export const clearPortalSessionCookie = (env: Env) => portalCookie(env).serialize("", { maxAge: 0 });

type PortalArgs = { request: Request; context: AppLoadContext };

/** The portal session of this request, or null (no cookie, expired, idle, or nobody has its address). */
export async function optionalPortalSession({ request, context }: PortalArgs): Promise<PortalSession | null> {
  const value = await readCookie(portalCookie(context.cloudflare.env), request);
  if (typeof value !== "string" || !value) return null;
  return findPortalSession(context.db, value);
}

/** The portal session, or back to the sign-in with a German word why (a cookie that no longer works is cleared). */
export async function requirePortalSession(args: PortalArgs): Promise<PortalSession> {
  const session = await optionalPortalSession(args);
  if (session) return session;
  const { env } = args.context.cloudflare;
  const headers = new Headers({ "Set-Cookie": await clearPortalSessionCookie(env) });
  throw await redirectWithToast(env, "/mein", { type: "info", message: SESSION_ENDED }, headers);
}

/** The client's address as Cloudflare names it (locally, where there is none, one shared 'local'). */
export const clientAddress = (request: Request) => request.headers.get("CF-Connecting-IP") ?? "local";

/** The mail with the sign-in link (template 'Anmeldelink (Mein Wuff)'), once, to the address
 *  asked for (outside production to the test account, as every mail). Not in the mail log: the
 *  link is a secret, and it lives 15 minutes. */
export async function mailSignInLink(env: Env, db: Db, input: { email: string; people: PortalPerson[]; link: string }): Promise<void> {
  const [settings, template] = await Promise.all([mailSettings(env, db), loadTemplate(db, SIGN_IN_TEMPLATE)]);
  const first = input.people[0];
  const person = { id: first.id, salutation: null, title: null, firstName: first.firstName, lastName: first.lastName, email: input.email };
  const { rendered, route } = composeMail(env, settings, template, { person, extra: { link: input.link } });
  if (route.status === "blocked") throw new Error(route.message);
  const transport = await openTransport(env);
  try {
    await transport.send({ to: route.to, cc: null, intendedTo: input.email, ...rendered, attachments: [] });
  } finally {
    await transport.close();
  }
}
