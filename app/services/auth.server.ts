/**
 * Login at an external OpenID Connect provider (remix-auth + remix-auth-oauth2), server-side
 * sessions in D1, and the guards every loader and action calls.
 *
 * Flow: /login stores where the user wanted to go and redirects to the provider (authorization
 * code with PKCE and state); /auth/callback exchanges the code, verifies the ID token (signature,
 * issuer, audience, expiry), reads the roles claim and starts a session; /logout ends the session
 * here and at the provider.
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { Authenticator } from "remix-auth";
import { OAuth2Strategy } from "remix-auth-oauth2";
import { accessDeniedMessage, mayUse, ROLES, rolesFromClaim, type Area, type User } from "~/lib/access";
import { createSession, deleteSession, findSession, sessionKey, touchSession, type SessionKey, type StoredSession } from "~/models/session.server";
import { setWriteActor, setWriteSource } from "~/models/audit.server";
import { screenSourceLabel } from "~/lib/labels";
import { appEnv } from "./env.server";
import { isSecureOrigin, readCookie, returnToCookie, SESSION_MAX_AGE_SECONDS, sessionCookie } from "./cookies.server";
import { safeReturnPath } from "./return-path.server";
import { redirectWithToast, toastCookieHeader } from "./toast.server";
/** lastSeenOn is written at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 30_000;
const OAUTH_STATE_COOKIE = "wuff_oauth";

export const IDLE_LOGOUT_MESSAGE = "Du wurdest wegen Inaktivität abgemeldet.";
const LOGIN_FAILED_MESSAGE = "Die Anmeldung ist fehlgeschlagen. Bitte versuche es noch einmal.";

type GuardArgs = { request: Request; context: AppLoadContext };

export function idleSettings(env: Env) {
  const settings = appEnv(env);
  return {
    timeoutSeconds: settings.IDLE_TIMEOUT_SECONDS,
    countdownSeconds: settings.IDLE_COUNTDOWN_SECONDS,
    keepaliveSeconds: settings.KEEPALIVE_PING_SECONDS,
  };
}

// The one rule for return paths lives on its own (the worker entry uses it too); re-exported for
// the routes that already import it from here.
export { safeReturnPath } from "./return-path.server";

// ---------------------------------------------------------------------------------------------
// The provider

type ProviderMetadata = {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  end_session_endpoint?: string;
};

// Per isolate: discovery and keys are fetched once, not on every login.
const metadataCache = new Map<string, Promise<ProviderMetadata>>();
const keySets = new Map<string, JWTVerifyGetKey>();

function providerMetadata(issuer: string): Promise<ProviderMetadata> {
  let metadata = metadataCache.get(issuer);
  if (!metadata) {
    metadata = fetch(new URL(".well-known/openid-configuration", issuer.endsWith("/") ? issuer : `${issuer}/`)).then(async (response) => {
      if (!response.ok) throw new Error(`OpenID-Discovery bei ${issuer} fehlgeschlagen: HTTP ${response.status}`);
      return (await response.json()) as ProviderMetadata;
    });
    metadataCache.set(issuer, metadata);
    metadata.catch(() => metadataCache.delete(issuer));
  }
  return metadata;
}

function keySetFor(jwksUri: string): JWTVerifyGetKey {
  let keySet = keySets.get(jwksUri);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(jwksUri));
    keySets.set(jwksUri, keySet);
  }
  return keySet;
}

/** Verifies signature, issuer, audience and expiry of an ID token. Throws when any is wrong. */
export async function verifyIdToken(
  idToken: string,
  { keys, issuer, audience }: { keys: JWTVerifyGetKey | CryptoKey | Uint8Array; issuer: string; audience: string },
): Promise<JWTPayload> {
  const { payload } = await jwtVerify(idToken, keys as JWTVerifyGetKey, { issuer, audience, clockTolerance: 30, requiredClaims: ["sub", "exp", "iat"] });
  return payload;
}

export function userFromClaims(payload: JWTPayload, rolesClaim: string): User {
  const name = typeof payload.name === "string" && payload.name ? payload.name : undefined;
  const email = typeof payload.email === "string" ? payload.email : null;
  return { id: payload.sub!, name: name ?? email ?? payload.sub!, email, roles: rolesFromClaim(payload[rolesClaim]) };
}

type LoginResult = { user: User; idToken: string };

async function authenticator(env: Env): Promise<Authenticator<LoginResult>> {
  const metadata = await providerMetadata(env.OIDC_ISSUER);
  const strategy = new OAuth2Strategy<LoginResult>(
    {
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
      authorizationEndpoint: metadata.authorization_endpoint,
      tokenEndpoint: metadata.token_endpoint,
      redirectURI: new URL("/auth/callback", env.APP_URL),
      scopes: ["openid", "profile", "email"],
      cookie: { name: OAUTH_STATE_COOKIE, sameSite: "Lax", httpOnly: true, path: "/", ...(isSecureOrigin(env.APP_URL) ? { secure: true } : {}) },
    },
    async ({ tokens }) => {
      const idToken = tokens.idToken();
      const payload = await verifyIdToken(idToken, { keys: keySetFor(metadata.jwks_uri), issuer: metadata.issuer, audience: env.OIDC_CLIENT_ID });
      return { user: userFromClaims(payload, env.OIDC_ROLES_CLAIM), idToken };
    },
  );
  return new Authenticator<LoginResult>().use(strategy, "oidc");
}

/** GET /login: remember where to go afterwards, then off to the provider. */
export async function beginLogin(request: Request, env: Env, returnTo: string): Promise<Response> {
  try {
    await (await authenticator(env)).authenticate("oidc", request);
  } catch (thrown) {
    // The strategy throws its redirect to the provider (with the state/PKCE cookie).
    if (thrown instanceof Response) {
      thrown.headers.append("Set-Cookie", await returnToCookie(env).serialize(safeReturnPath(returnTo)));
      return thrown;
    }
    console.error("Login konnte nicht beginnen", thrown);
    return redirectWithToast(env, "/", { type: "error", message: LOGIN_FAILED_MESSAGE });
  }
  return redirect("/");
}

/** The state/PKCE cookies the strategy left behind (it does not clear them itself). */
function clearOAuthStateCookies(request: Request, headers: Headers) {
  const names = (request.headers.get("Cookie") ?? "")
    .split(";")
    .map((part) => part.split("=")[0].trim())
    .filter((name) => name.startsWith(`${OAUTH_STATE_COOKIE}:`));
  for (const name of names) headers.append("Set-Cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
}

/** GET /auth/callback: code -> tokens -> verified user -> session -> back where they wanted. */
export async function completeLogin(request: Request, context: AppLoadContext): Promise<Response> {
  const { env } = context.cloudflare;
  const headers = new Headers();
  clearOAuthStateCookies(request, headers);
  let result: LoginResult;
  try {
    result = await (await authenticator(env)).authenticate("oidc", request);
  } catch (error) {
    console.error("Login fehlgeschlagen", error);
    return redirectWithToast(env, "/", { type: "error", message: LOGIN_FAILED_MESSAGE }, headers);
  }
  const sessionId = await createSession(context.db, {
    user: result.user,
    idToken: result.idToken,
    now: new Date(),
    maxAgeSeconds: SESSION_MAX_AGE_SECONDS,
  });
  headers.append("Set-Cookie", await sessionCookie(env).serialize(sessionCookieValue(sessionId, result.user)));
  const returnTo = safeReturnPath(await readCookie(returnToCookie(env), request));
  headers.append("Set-Cookie", await returnToCookie(env).serialize("", { maxAge: 0 }));
  return redirect(returnTo, { headers });
}

/** Starts a session without the provider: only for tests, which log in as a given user. */
export async function sessionCookieFor(context: AppLoadContext, user: User, now = new Date()): Promise<string> {
  const sessionId = await createSession(context.db, { user, idToken: null, now, maxAgeSeconds: SESSION_MAX_AGE_SECONDS });
  return sessionCookie(context.cloudflare.env).serialize(sessionCookieValue(sessionId, user));
}

// ---------------------------------------------------------------------------------------------
// Sessions and guards

/**
 * The signed session cookie holds the session's id and the user it was started for (a cookie with
 * the id alone still works). D1 decides whether the session is still valid (expiry, idle limit,
 * logout); the user lets reads start before that answer (readForUser). Read, the cookie gives the
 * key D1 stores the session under (the id's hash), computed once per request.
 */
type SessionCookie = { key: SessionKey; user: User | null };

const sessionCookieValue = (id: string, user: User) => ({ id, user });

function isUser(value: unknown): value is User {
  if (!value || typeof value !== "object") return false;
  const { id, name, email, roles } = value as Record<string, unknown>;
  return (
    typeof id === "string" &&
    typeof name === "string" &&
    (email === null || typeof email === "string") &&
    Array.isArray(roles) &&
    roles.every((role) => (ROLES as readonly unknown[]).includes(role))
  );
}

/** The session cookie of this request (its signature checked), read once. */
function readSessionCookie(request: Request, context: AppLoadContext): Promise<SessionCookie | null> {
  context.sessionCookie ??= readCookie(sessionCookie(context.cloudflare.env), request).then(async (value): Promise<SessionCookie | null> => {
    if (typeof value === "string" && value) return { key: await sessionKey(value), user: null };
    if (!value || typeof value !== "object") return null;
    const { id, user } = value as Record<string, unknown>;
    return typeof id === "string" && id ? { key: await sessionKey(id), user: isUser(user) ? user : null } : null;
  });
  return context.sessionCookie as Promise<SessionCookie | null>;
}

type SessionState = { status: "none" } | { status: "idle"; session: StoredSession } | { status: "active"; session: StoredSession };

/** The session of this request; all loaders of one request share one lookup. */
function readSession(request: Request, context: AppLoadContext): Promise<SessionState> {
  context.sessionState ??= lookUpSession(request, context);
  return context.sessionState as Promise<SessionState>;
}

async function lookUpSession(request: Request, context: AppLoadContext): Promise<SessionState> {
  const { env } = context.cloudflare;
  const cookie = await readSessionCookie(request, context);
  if (!cookie) return { status: "none" };
  const session = await findSession(context.db, cookie.key);
  const now = Date.now();
  if (!session || Date.parse(session.expiresOn) <= now) return { status: "none" };
  // The server's own idle limit: the browser's countdown included, so it never cuts in first.
  const { timeoutSeconds, countdownSeconds } = idleSettings(env);
  if (now - Date.parse(session.lastSeenOn) > (timeoutSeconds + countdownSeconds) * 1000) return { status: "idle", session };
  if (now - Date.parse(session.lastSeenOn) > TOUCH_INTERVAL_MS) {
    context.cloudflare.ctx.waitUntil(touchSession(context.db, session.key, new Date(now)));
  }
  // From here on this request's writes are this user's in the Änderungsverlauf.
  setWriteActor(context.db, session.user.name);
  setWriteSource(context.db, screenSourceLabel(new URL(request.url).pathname));
  return { status: "active", session };
}

/** The logged-in user, or null: for pages that anyone may see (home, the app shell). */
export async function getOptionalUser({ request, context }: GuardArgs): Promise<User | null> {
  const state = await readSession(request, context);
  return state.status === "active" ? state.session.user : null;
}

const isApiRequest = (request: Request) => new URL(request.url).pathname.startsWith("/api/");

function apiError(status: 401 | 403, message: string): Response {
  return Response.json({ message }, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * The logged-in user, or it throws: to the login and back for pages, 401 for API calls, home
 * with a toast when the session ended for inactivity.
 */
export async function requireUser({ request, context }: GuardArgs): Promise<User> {
  const state = await readSession(request, context);
  if (state.status === "active") return state.session.user;
  if (isApiRequest(request)) throw apiError(401, "Nicht angemeldet");
  const { env } = context.cloudflare;
  if (state.status === "idle") {
    await deleteSession(context.db, state.session.key);
    const headers = new Headers({ "Set-Cookie": await sessionCookie(env).serialize("", { maxAge: 0 }) });
    throw await redirectWithToast(env, "/", { type: "warning", message: IDLE_LOGOUT_MESSAGE }, headers);
  }
  const url = new URL(request.url);
  throw redirect(`/login?${new URLSearchParams({ redirectTo: url.pathname + url.search })}`);
}

/** requireUser plus the role check of the route table (app/lib/access.ts). */
export async function requireAccess(args: GuardArgs, area: Area): Promise<User> {
  const user = await requireUser(args);
  if (mayUse(user, area)) return user;
  if (isApiRequest(args.request)) throw apiError(403, accessDeniedMessage(area));
  throw await redirectWithToast(args.context.cloudflare.env, "/", { type: "error", message: accessDeniedMessage(area) });
}

/** requireAccess for every area a page needs (screen, tab, dialog): the user, or it throws. */
export async function requireAccessToAll(args: GuardArgs, areas: readonly [Area, ...Area[]]): Promise<User> {
  let user = await requireAccess(args, areas[0]);
  for (const area of areas.slice(1)) user = await requireAccess(args, area);
  return user;
}

const sameUser = (a: User, b: User) =>
  a.id === b.id && a.name === b.name && a.email === b.email && a.roles.length === b.roles.length && a.roles.every((role) => b.roles.includes(role));

/**
 * The guard of requireAccessToAll, and reads for the page that start at the same moment as the
 * session lookup, with the user the signed cookie names, so they share its round trip to D1.
 * What they read is handed out only after D1 confirmed the session of that very user; otherwise
 * it is read again for the confirmed user, or the guard throws (login, idle, no access).
 */
export async function readForUser<T>(args: GuardArgs, areas: readonly [Area, ...Area[]], read: (user: User) => Promise<T>): Promise<{ user: User; value: T }> {
  const cookie = await readSessionCookie(args.request, args.context);
  const claimed = cookie?.user && areas.every((area) => mayUse(cookie.user, area)) ? cookie.user : null;
  const guard = requireAccessToAll(args, areas);
  const early = claimed ? read(claimed) : null;
  // Unused if the guard throws; otherwise its outcome is awaited below.
  early?.catch(() => {});
  const user = await guard;
  return { user, value: await (early && claimed && sameUser(user, claimed) ? early : read(user)) };
}

/**
 * readForUser for a page anyone may see (home): reads for the user the signed cookie names start
 * with the session lookup and share its round trip; they are handed out only when D1 confirms
 * that very user's active session, otherwise read again for the confirmed user. Without a session
 * cookie nothing is read and D1 is not asked at all; logged out (or idle), the value is null.
 */
export async function readForOptionalUser<T>(args: GuardArgs, read: (user: User) => Promise<T>): Promise<{ user: User | null; value: T | null }> {
  const cookie = await readSessionCookie(args.request, args.context);
  if (!cookie) return { user: null, value: null };
  const confirmed = getOptionalUser(args);
  const early = cookie.user ? read(cookie.user) : null;
  // Unused if the session is not confirmed; otherwise its outcome is awaited below.
  early?.catch(() => {});
  const user = await confirmed;
  if (!user) return { user: null, value: null };
  return { user, value: await (early && cookie.user && sameUser(user, cookie.user) ? early : read(user)) };
}

/** Keep-alive ping: counts as activity. */
export async function keepSessionAlive(args: GuardArgs): Promise<void> {
  await requireUser(args);
}

/** POST /logout: end the session here, then at the provider if it offers an end-session endpoint. */
export async function logout({ request, context }: GuardArgs, reason: "user" | "idle"): Promise<Response> {
  const { env } = context.cloudflare;
  const state = await readSession(request, context);
  const headers = new Headers({ "Set-Cookie": await sessionCookie(env).serialize("", { maxAge: 0 }) });
  if (reason === "idle") headers.append("Set-Cookie", await toastCookieHeader(env, { type: "warning", message: IDLE_LOGOUT_MESSAGE }));
  if (state.status === "none") return redirect("/", { headers });
  await deleteSession(context.db, state.session.key);

  const home = new URL("/", env.APP_URL).toString();
  const endSession = await providerMetadata(env.OIDC_ISSUER)
    .then((metadata) => metadata.end_session_endpoint)
    .catch(() => undefined);
  if (!endSession) return redirect("/", { headers });
  const params = new URLSearchParams({ post_logout_redirect_uri: home, client_id: env.OIDC_CLIENT_ID });
  if (state.session.idToken) params.set("id_token_hint", state.session.idToken);
  return redirect(`${endSession}?${params}`, { headers });
}
