import { createCookie, type Cookie } from "@remix-run/cloudflare";

/** Cookies are Secure everywhere but on the local machine (plain http://localhost). */
export function isSecureOrigin(appUrl: string): boolean {
  const { protocol, hostname } = new URL(appUrl);
  return protocol === "https:" || !["localhost", "127.0.0.1"].includes(hostname);
}

/** Absolute lifetime of a login, however active the user is. */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

const baseOptions = (env: Env) => ({ path: "/", httpOnly: true, sameSite: "lax", secure: isSecureOrigin(env.APP_URL) }) as const;

/** The signed id of the server-side session. */
export const sessionCookie = (env: Env) =>
  createCookie("wuff_session", { ...baseOptions(env), secrets: [env.SESSION_SECRET], maxAge: SESSION_MAX_AGE_SECONDS });

/** Where to go after the login at the provider. */
export const returnToCookie = (env: Env) => createCookie("wuff_return_to", { ...baseOptions(env), secrets: [env.SESSION_SECRET], maxAge: 10 * 60 });

/** The toast for the next page (flash). */
export const toastCookie = (env: Env) => createCookie("wuff_toast", { ...baseOptions(env), secrets: [env.SESSION_SECRET], maxAge: 60 });

/** The cookie's value, or null when it is missing, forged or mangled: never an exception. */
export async function readCookie(cookie: Cookie, request: Request): Promise<unknown> {
  try {
    return (await cookie.parse(request.headers.get("Cookie"))) ?? null;
  } catch {
    return null;
  }
}
