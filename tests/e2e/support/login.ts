import { expect, test, type Page } from "@playwright/test";

export type DemoUser = "admin" | "finance" | "gdpr" | "staff";

export const DEMO_NAMES: Record<DemoUser, string> = {
  admin: "Anna Admin",
  finance: "Fritz Finanz",
  gdpr: "Dana Datenschutz",
  staff: "Sven Mitarbeiter",
};

/** Every demo user's password at the local provider (tests/local/identity-provider.ts). */
const DEMO_PASSWORD = "wuff";
const SESSION_COOKIE = "wuff_session";

/**
 * The fast login for tests that are not about the login itself: logs `user` in over plain HTTP
 * from Node through the real local provider (the app's /login, the provider's form, the app's
 * /auth/callback, so a real session row in D1), hands the new session cookie to the page's
 * browser context and opens `path` there. Every call is a new session of its own.
 */
export async function loginAs(page: Page, user: DemoUser, path = "/people") {
  const appOrigin = test.info().project.use.baseURL;
  if (!appOrigin) throw new Error("loginAs: kein baseURL in der Playwright-Konfiguration");
  await test.step(`Anmelden als ${user} (HTTP, ohne Browser)`, async () => {
    await page.context().addCookies([await sessionCookieFromProvider(new URL(appOrigin).origin, user, path)]);
  });
  await page.goto(path);
  await expect(page.getByText(`Willkommen, ${DEMO_NAMES[user]}`)).toBeVisible();
}

/**
 * Logs in through the local provider's form in the browser, starting from `path` (which needs a
 * login): for the tests of the login flow itself.
 */
export async function loginThroughProvider(page: Page, user: DemoUser, path = "/people") {
  await page.goto(path);
  await expect(page.getByRole("heading", { name: "Bei Wuff anmelden" })).toBeVisible();
  await page.getByLabel("Benutzername").fill(user);
  await page.getByLabel("Passwort").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page.getByText(`Willkommen, ${DEMO_NAMES[user]}`)).toBeVisible();
}

/** Logs out with the top bar button; without JavaScript the provider asks for one more click. */
export async function logout(page: Page, javaScriptEnabled: boolean) {
  await page.getByRole("button", { name: "Abmelden" }).click();
  if (!javaScriptEnabled) {
    await expect(page.getByRole("heading", { name: "Von Wuff abmelden" })).toBeVisible();
    await page.getByRole("button", { name: "Abmelden" }).click();
  }
  await expect(page.getByText("Du bist noch nicht eingeloggt.")).toBeVisible();
}

// ---------------------------------------------------------------------------------------------
// The login over HTTP: what the browser would do, with a cookie jar of our own

type BrowserCookie = Parameters<ReturnType<Page["context"]>["addCookies"]>[0][number];

/** One Set-Cookie header: name, value and its attributes (keys in lower case). */
function parseSetCookie(header: string) {
  const [pair, ...rest] = header.split(";");
  const eq = pair.indexOf("=");
  const attributes = new Map<string, string>();
  for (const attribute of rest) {
    const [key, ...value] = attribute.trim().split("=");
    if (key) attributes.set(key.toLowerCase(), value.join("="));
  }
  return { name: eq > 0 ? pair.slice(0, eq).trim() : "", value: pair.slice(eq + 1).trim(), attributes };
}

/** Whether a Set-Cookie deletes the cookie (Max-Age wins over Expires, RFC 6265). */
function deletes({ attributes }: ReturnType<typeof parseSetCookie>): boolean {
  const maxAge = attributes.get("max-age");
  const expires = attributes.get("expires");
  return maxAge !== undefined ? Number(maxAge) <= 0 : expires !== undefined && Date.parse(expires) <= Date.now();
}

/** Cookies per origin, name=value only (app and provider use different names, paths do not matter here). */
class CookieJar {
  private readonly byOrigin = new Map<string, Map<string, string>>();

  private cookies(url: string): Map<string, string> {
    const origin = new URL(url).origin;
    let cookies = this.byOrigin.get(origin);
    if (!cookies) this.byOrigin.set(origin, (cookies = new Map()));
    return cookies;
  }

  header(url: string): string {
    return [...this.cookies(url)].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  store(url: string, response: Response) {
    const cookies = this.cookies(url);
    for (const header of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(header);
      if (!cookie.name) continue;
      if (deletes(cookie)) cookies.delete(cookie.name);
      else cookies.set(cookie.name, cookie.value);
    }
  }
}

const HTML = { Accept: "text/html" };

/**
 * Requests `url` and follows redirects as a browser does (GET after 301/302/303), across origins,
 * up to a non-redirect or the response of `stopAt` (which is returned unfollowed).
 */
async function follow(jar: CookieJar, url: string, trail: string[], stopAt: string, init: RequestInit = { headers: HTML }) {
  let current = url;
  let currentInit = init;
  for (let hop = 0; hop < 20; hop++) {
    const headers = new Headers(currentInit.headers);
    const cookies = jar.header(current);
    if (cookies) headers.set("Cookie", cookies);
    const response = await fetch(current, { ...currentInit, headers, redirect: "manual", signal: AbortSignal.timeout(15_000) });
    jar.store(current, response);
    const location = response.headers.get("Location");
    trail.push(`${response.status} ${currentInit.method ?? "GET"} ${current}${location ? ` → ${location}` : ""}`);
    const { origin, pathname } = new URL(current);
    if (`${origin}${pathname}` === stopAt || response.status < 300 || response.status >= 400 || !location) {
      return { url: current, response, body: await response.text() };
    }
    await response.arrayBuffer();
    current = new URL(location, current).href;
    currentInit = { headers: HTML };
  }
  throw new Error(`Zu viele Weiterleitungen:\n${trail.join("\n")}`);
}

/**
 * The app's /login?redirectTo=…, the provider's login form (fields login and password), the
 * provider's redirects (consent is granted on its own) and the app's /auth/callback: the
 * callback's wuff_session cookie, ready for BrowserContext.addCookies.
 */
export async function sessionCookieFromProvider(appOrigin: string, user: DemoUser, returnTo: string): Promise<BrowserCookie> {
  const jar = new CookieJar();
  const trail: string[] = [];
  const fail = (message: string) => new Error(`Anmeldung als ${user} über HTTP fehlgeschlagen: ${message}\n${trail.join("\n")}`);
  const callback = `${appOrigin}/auth/callback`;

  const loginPage = await follow(jar, `${appOrigin}/login?${new URLSearchParams({ redirectTo: returnTo })}`, trail, callback);
  const loginUrl = new URL(loginPage.url);
  const uid = /^\/interaction\/([^/]+)$/.exec(loginUrl.pathname)?.[1];
  if (loginPage.response.status !== 200 || loginUrl.origin === appOrigin || !uid) throw fail("keine Anmeldeseite des Anbieters");
  const action = /<form[^>]*method="post"[^>]*action="([^"]+)"/i.exec(loginPage.body)?.[1];
  if (action !== `/interaction/${uid}/login`) throw fail(`unerwartetes Formular (action=${action})`);

  const landed = await follow(jar, new URL(action, loginUrl).href, trail, callback, {
    method: "POST",
    headers: { ...HTML, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ login: user, password: DEMO_PASSWORD }).toString(),
  });
  if (landed.url.split("?")[0] !== callback) throw fail("nicht zurück bei /auth/callback");
  const session = landed.response.headers
    .getSetCookie()
    .map(parseSetCookie)
    .find((cookie) => cookie.name === SESSION_COOKIE && !deletes(cookie));
  if (!session) throw fail(`kein ${SESSION_COOKIE}-Cookie`);

  // As the browser would store it: same host, path, flags and lifetime.
  const { attributes } = session;
  const sameSite = { strict: "Strict", lax: "Lax", none: "None" }[(attributes.get("samesite") ?? "lax").toLowerCase()] as BrowserCookie["sameSite"];
  const maxAge = Number(attributes.get("max-age"));
  return {
    name: session.name,
    value: session.value,
    domain: new URL(appOrigin).hostname,
    path: attributes.get("path") || "/",
    httpOnly: attributes.has("httponly"),
    secure: attributes.has("secure"),
    sameSite,
    ...(Number.isFinite(maxAge) ? { expires: Math.floor(Date.now() / 1000) + maxAge } : {}),
  };
}
