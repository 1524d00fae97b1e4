/**
 * Mein Wuff (issue 32 item 1): signing in by a one-time e-mail link. Known and unknown addresses
 * answer alike; a link works once, for 15 minutes, in the browser that asked; 5 requests per
 * address and 29 per IP in 15 minutes; a family chooses whom the portal acts for; portal and staff
 * sessions open nothing of each other.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { LINK_SENT, LINK_UNUSABLE, SESSION_ENDED, TOO_MANY_REQUESTS } from "~/lib/portal";
import { findPortalSession, requestSignIn, signInWithLink } from "~/models/portal-auth.server";
import { fetchApp, toastOf } from "../support/app";
import { mailsTo, useTestAccount } from "../support/mail-catcher";
import { portalCookie } from "../support/portal";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
let testAccount: string;
let erika: number;
let max: number;
let mia: number;

beforeAll(async () => {
  await db.insert(schema.memberTypes).values({ id: 1, code: "NONE", name: "Kein Mitglied" }).onConflictDoNothing();
  await db.insert(schema.configuration).values({ id: 1, hsvrmVereinName: "Hundefreunde Portal" }).onConflictDoNothing();
  testAccount = await useTestAccount("portal");
  [{ id: erika }, { id: max }, { id: mia }] = await db
    .insert(schema.people)
    .values([
      { firstName: "Erika", lastName: "Portal", email: "Erika.Portal@example.org ", memberTypeId: 1 },
      // A family: two people with one address.
      { firstName: "Max", lastName: "Familie", email: "familie@example.org", memberTypeId: 1 },
      { firstName: "Mia", lastName: "Familie", email: "FAMILIE@example.org", memberTypeId: 1 },
    ])
    .returning({ id: schema.people.id });
  await db
    .insert(schema.people)
    .values({ firstName: "", lastName: "Gelöschte Person", email: "geloescht@example.org", memberTypeId: 1, erasedOn: "2026-01-01" });
});

const at = (iso: string) => new Date(iso);
/** A page's HTML as read: React's text separators gone. */
const pageText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");
let ipCounter = 0;
const freshIp = () => `192.0.2.${++ipCounter}`;

/** Asks for a link as a browser does: a POST of the form; answers the response and the browser's cookie. */
async function askForLink(email: string, ip = freshIp(), browserCookie?: string) {
  const response = await fetchApp("/mein", {
    method: "POST",
    cookie: browserCookie,
    headers: { "CF-Connecting-IP": ip },
    body: new URLSearchParams({ email }),
  });
  const set = response.headers.getSetCookie().find((header) => header.startsWith("wuff_portal_browser="));
  return { response, browser: browserCookie ?? set?.split(";")[0] };
}

const portalCookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((header) => header.startsWith("wuff_portal="))
    ?.split(";")[0];

describe("asking for a sign-in link", () => {
  it("answers a known and an unknown address alike; only the known one gets a mail with the link", async () => {
    const before = (await mailsTo(testAccount)).length;
    const known = await askForLink("  erika.portal@EXAMPLE.org");
    const unknown = await askForLink("niemand@example.org");
    const erased = await askForLink("geloescht@example.org");
    for (const { response } of [known, unknown, erased]) {
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/mein?gesendet=1");
      expect(response.headers.getSetCookie().map((header) => header.split("=")[0])).toEqual(["wuff_portal_browser"]);
    }
    const page = await pageText(await fetchApp("/mein?gesendet=1"));
    expect(page).toContain(LINK_SENT);
    const mails = (await mailsTo(testAccount)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/^Dein Anmeldelink für Mein Wuff von /);
    expect(mails[0].text).toMatch(/http:\/\/localhost\/mein\/link\/[A-Za-z0-9_-]{43}/);
    // Only hashes are kept: nothing of the unknown address, no token.
    const rows = await db.select().from(schema.portalSignInRequests);
    expect(rows.filter((row) => row.email !== null).map((row) => row.email)).toEqual(["erika.portal@example.org"]);
    expect(JSON.stringify(rows)).not.toContain("niemand");
  });

  it("refuses the 6th request per address and the 30th per IP within 15 minutes, in German", async () => {
    const now = at("2026-11-29T10:00:00.000Z");
    for (let n = 1; n <= 5; n++) expect((await requestSignIn(db, { email: "limit@example.org", ip: freshIp(), browserId: "b", now })).status).toBe("accepted");
    expect((await requestSignIn(db, { email: "LIMIT@example.org", ip: freshIp(), browserId: "b", now })).status).toBe("limited");
    // 15 minutes later the address may ask again.
    expect((await requestSignIn(db, { email: "limit@example.org", ip: freshIp(), browserId: "b", now: at("2026-11-29T10:15:00.001Z") })).status).toBe(
      "accepted",
    );
    const ip = "198.51.100.7";
    for (let n = 1; n <= 29; n++) expect((await requestSignIn(db, { email: `ip${n}@example.org`, ip, browserId: "b", now })).status).toBe("accepted");
    expect((await requestSignIn(db, { email: "ip30@example.org", ip, browserId: "b", now })).status).toBe("limited");
    // By the form: a German 429 that says so.
    const ipOfForm = freshIp();
    for (let n = 1; n <= 5; n++) await askForLink("form-limit@example.org", ipOfForm);
    const refused = await askForLink("form-limit@example.org", ipOfForm);
    expect(refused.response.status).toBe(429);
    expect(await refused.response.text()).toContain(TOO_MANY_REQUESTS);
  });
});

describe("signing in with the link", () => {
  it("signs in once, within 15 minutes, only in the browser that asked", async () => {
    const now = at("2026-11-29T11:00:00.000Z");
    const asked = await requestSignIn(db, { email: "erika.portal@example.org", ip: freshIp(), browserId: "browser-a", now });
    if (asked.status !== "accepted" || !asked.token) throw new Error("kein Link");
    expect(await signInWithLink(db, { token: asked.token, browserId: "browser-b", now })).toBeNull();
    expect(await signInWithLink(db, { token: asked.token, browserId: "browser-a", now: at("2026-11-29T11:15:00.000Z") })).toBeNull();
    const sessionId = await signInWithLink(db, { token: asked.token, browserId: "browser-a", now: at("2026-11-29T11:14:59.999Z") });
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await signInWithLink(db, { token: asked.token, browserId: "browser-a", now })).toBeNull();
    // Only the session's hash is stored.
    expect(await db.select().from(schema.portalSessions).where(eq(schema.portalSessions.id, sessionId!))).toEqual([]);
  });

  it("by the form: the link's page signs in nobody, its button does in the asking browser; another browser gets a German refusal", async () => {
    const before = (await mailsTo(testAccount)).length;
    const { browser } = await askForLink("erika.portal@example.org");
    const [mail] = (await mailsTo(testAccount)).slice(before);
    const path = /\/mein\/link\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0];
    const opened = await fetchApp(path, { cookie: browser });
    expect(opened.status).toBe(200);
    expect(portalCookieOf(opened)).toBeUndefined();
    expect(await pageText(opened)).toContain("Jetzt anmelden");

    const elsewhere = await fetchApp(path, { method: "POST", body: new URLSearchParams() });
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain(LINK_UNUSABLE);

    const signedIn = await fetchApp(path, { method: "POST", cookie: browser, body: new URLSearchParams() });
    expect([signedIn.status, signedIn.headers.get("Location")]).toEqual([302, "/mein"]);
    const portal = portalCookieOf(signedIn)!;
    const start = await pageText(await fetchApp("/mein", { cookie: portal }));
    expect(start).toContain("Hallo Erika");
    expect(start).toContain("Abmelden");

    // Once only.
    expect((await fetchApp(path, { method: "POST", cookie: browser, body: new URLSearchParams() })).status).toBe(400);

    // Logout ends the session on the server too.
    const out = await fetchApp("/mein", { method: "POST", cookie: portal, body: new URLSearchParams({ intent: "logout" }) });
    expect(toastOf(out)?.message).toBe("Du bist abgemeldet.");
    const after = await fetchApp("/mein/wer", { cookie: portal });
    expect([after.status, after.headers.get("Location"), toastOf(after)?.message]).toEqual([302, "/mein", SESSION_ENDED]);
  });

  it("a family chooses whom the portal acts for, among themselves only", async () => {
    const asked = await requestSignIn(db, { email: "familie@example.org", ip: freshIp(), browserId: "family-browser" });
    if (asked.status !== "accepted" || !asked.token) throw new Error("kein Link");
    expect(asked.people.map((person) => person.firstName)).toEqual(["Max", "Mia"]);
    const sessionId = (await signInWithLink(db, { token: asked.token, browserId: "family-browser" }))!;
    const cookie = await portalCookie(sessionId);
    const start = await fetchApp("/mein", { cookie });
    expect([start.status, start.headers.get("Location")]).toEqual([302, "/mein/wer"]);
    const choice = await pageText(await fetchApp("/mein/wer", { cookie }));
    expect(choice).toContain("Max Familie");
    expect(choice).toContain("Mia Familie");
    expect(choice).not.toContain("Erika");
    // Someone else's id: refused, nothing chosen.
    const foreign = await fetchApp("/mein/wer", { method: "POST", cookie, body: new URLSearchParams({ personId: String(erika) }) });
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain("Bitte eine der angebotenen Personen wählen.");
    expect((await findPortalSession(db, sessionId))?.personId).toBeNull();
    const chosen = await fetchApp("/mein/wer", { method: "POST", cookie, body: new URLSearchParams({ personId: String(mia) }) });
    expect([chosen.status, chosen.headers.get("Location")]).toEqual([302, "/mein"]);
    expect(await pageText(await fetchApp("/mein", { cookie }))).toContain("Hallo Mia");
    // Mia's address changes: the session no longer acts for her; Max is the only one left.
    await db.update(schema.people).set({ email: "mia@example.org" }).where(eq(schema.people.id, mia));
    expect(await pageText(await fetchApp("/mein", { cookie }))).toContain("Hallo Max");
    expect(max).toBeGreaterThan(0);
  });
});

describe("portal and staff apart", () => {
  it("no staff route answers a portal session; no portal page answers a staff session", async () => {
    const asked = await requestSignIn(db, { email: "erika.portal@example.org", ip: freshIp(), browserId: "apart" });
    if (asked.status !== "accepted" || !asked.token) throw new Error("kein Link");
    const portal = await portalCookie((await signInWithLink(db, { token: asked.token, browserId: "apart" }))!);
    for (const path of ["/", "/people", "/fees", "/invoices", "/configuration", "/gdpr", "/api/session/ping"]) {
      const response = await fetchApp(path, { cookie: portal, method: path.startsWith("/api/") ? "POST" : "GET" });
      if (path === "/") expect(await response.text()).not.toContain("Erika");
      else expect([302, 401]).toContain(response.status);
    }
    const staff = await loginCookie("admin");
    const start = await pageText(await fetchApp("/mein", { cookie: staff }));
    expect(start).toContain("Bei Mein Wuff anmelden");
    expect(start).not.toContain("Anna Admin");
    const who = await fetchApp("/mein/wer", { cookie: staff });
    expect([who.status, who.headers.get("Location")]).toEqual([302, "/mein"]);
  });
});
