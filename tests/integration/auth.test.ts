import { env } from "cloudflare:test";
import { generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { rolesFromClaim } from "~/lib/access";
import { IDLE_LOGOUT_MESSAGE, safeReturnPath, userFromClaims, verifyIdToken } from "~/services/auth.server";
import { createSession } from "~/models/session.server";
import { SESSION_MAX_AGE_SECONDS, sessionCookie } from "~/services/cookies.server";
import { fetchApp } from "../support/app";
import { DEMO_USERS, loginCookie } from "../support/sessions";

const ISSUER = "https://login.example.org/";
const CLIENT_ID = "wuff";
const ROLES_CLAIM = "https://wuff.example/roles";

describe("ID token verification", async () => {
  const provider = await generateKeyPair("RS256");
  const stranger = await generateKeyPair("RS256");
  const sign = (claims: Record<string, unknown>, { key = provider.privateKey, issuer = ISSUER, audience = CLIENT_ID, expiresIn = "5m" } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256" })
      .setSubject("admin")
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(key);
  const verify = (token: string) => verifyIdToken(token, { keys: provider.publicKey, issuer: ISSUER, audience: CLIENT_ID });

  it("accepts a token signed by the provider for this client and reads the namespaced roles", async () => {
    const payload = await verify(await sign({ name: "Anna Admin", email: "admin@wuff.example", [ROLES_CLAIM]: ["ADMIN", "SOMETHING_ELSE"] }));
    expect(userFromClaims(payload, ROLES_CLAIM)).toEqual({ id: "admin", name: "Anna Admin", email: "admin@wuff.example", roles: ["ADMIN"] });
  });

  it("refuses a wrong signature, issuer, audience or an expired token", async () => {
    await expect(verify(await sign({}, { key: stranger.privateKey }))).rejects.toThrow(/signature/);
    await expect(verify(await sign({}, { issuer: "https://evil.example/" }))).rejects.toThrow(/iss/);
    await expect(verify(await sign({}, { audience: "another-app" }))).rejects.toThrow(/aud/);
    await expect(verify(await sign({}, { expiresIn: "-5m" }))).rejects.toThrow(/exp/);
  });

  it("reads roles from an array or a comma-separated claim and ignores unknown ones", () => {
    expect(rolesFromClaim(["finance", "GDPR", "root"])).toEqual(["FINANCE", "GDPR"]);
    expect(rolesFromClaim("ADMIN, FINANCE")).toEqual(["ADMIN", "FINANCE"]);
    expect(rolesFromClaim(undefined)).toEqual([]);
  });
});

describe("sessions on the server", () => {
  it("ends a session idle longer than the timeout: home with a German toast, the session deleted", async () => {
    const idleSince = new Date(Date.now() - (600 + 10 + 5) * 1000);
    const cookie = await loginCookie("admin", idleSince);
    const response = await fetchApp("/people", { cookie });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.get("Set-Cookie")).toContain("wuff_toast=");
    expect(await createDb(env.DB).$count(sessions)).toBe(0);

    const home = await fetchApp("/", { cookie: response.headers.get("Set-Cookie")!.match(/wuff_toast=[^;]*/)![0] });
    expect(await home.text()).toContain(IDLE_LOGOUT_MESSAGE);
  });

  it("keeps a session that was active within the timeout", async () => {
    const cookie = await loginCookie("admin", new Date(Date.now() - 500 * 1000));
    expect((await fetchApp("/people", { cookie })).status).toBe(200);
  });

  it("refuses a forged or tampered session cookie", async () => {
    const cookie = await loginCookie("staff");
    // A changed payload (the signature's last character would not do: its lowest bits are padding,
    // so 'A' -> 'B' can leave the signature as it was and the test pass by chance).
    const tampered = cookie.replace(/=(.)/, (_, c: string) => `=${c === "e" ? "f" : "e"}`);
    expect((await fetchApp("/people", { cookie: tampered })).headers.get("Location")).toBe("/login?redirectTo=%2Fpeople");
    expect((await fetchApp("/people", { cookie: "wuff_session=made-up" })).headers.get("Location")).toBe("/login?redirectTo=%2Fpeople");
  });

  it("reads a page together with the session lookup, and shows nothing once the session ended", async () => {
    const cookie = await loginCookie("admin");
    const dogs = await fetchApp("/dogs", { cookie });
    expect(dogs.status).toBe(200);
    // Session and list in one round trip to D1.
    expect(dogs.headers.get("Server-Timing")).toContain('desc="1 D1-Abfragen"');

    // Logged out elsewhere: the signed cookie still names the user, but D1 has no session any more.
    await createDb(env.DB).delete(sessions);
    for (const path of ["/dogs", "/people", "/people/1/dogs"]) {
      const response = await fetchApp(path, { cookie });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
      expect(await response.text()).toBe("");
    }
  });

  it("still accepts a session cookie that holds the session id alone", async () => {
    const id = await createSession(createDb(env.DB), { user: DEMO_USERS.finance, idToken: null, now: new Date(), maxAgeSeconds: SESSION_MAX_AGE_SECONDS });
    const cookie = (await sessionCookie(env).serialize(id)).split(";")[0];
    const response = await fetchApp("/people", { cookie });
    expect(response.status).toBe(200);
    expect((await response.text()).replaceAll("<!-- -->", "")).toContain("Willkommen, Fritz Finanz");
  });

  it("stores only a hash of the session id: the database's copy is no cookie; the login works", async () => {
    const id = await createSession(createDb(env.DB), { user: DEMO_USERS.gdpr, idToken: null, now: new Date(), maxAgeSeconds: SESSION_MAX_AGE_SECONDS });
    const stored = (await createDb(env.DB).select().from(sessions)).map((row) => row.id);
    expect(stored).not.toContain(id);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(id)));
    const hash = btoa(String.fromCharCode(...digest))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    expect(stored).toContain(hash);

    // The cookie carries the id: logged in. A cookie made from what the database holds is not.
    const user = (cookieId: string) =>
      sessionCookie(env)
        .serialize({ id: cookieId, user: DEMO_USERS.gdpr })
        .then((header) => header.split(";")[0]);
    const page = await fetchApp("/people", { cookie: await user(id) });
    expect(page.status).toBe(200);
    expect((await page.text()).replaceAll("<!-- -->", "")).toContain("Willkommen, Dana Datenschutz");
    const copied = await fetchApp("/people", { cookie: await user(hash) });
    expect(copied.headers.get("Location")).toBe("/login?redirectTo=%2Fpeople");

    // Logout deletes the stored row.
    const logout = await fetchApp("/logout", { method: "POST", cookie: await user(id) });
    expect(logout.status).toBe(302);
    expect((await createDb(env.DB).select().from(sessions)).map((row) => row.id)).not.toContain(hash);
  });

  it("the error page shows the logged-in user's top bar, after a page's loader or action failed", async () => {
    const cookie = await loginCookie("admin");
    // A loader's error: a return path with a tab.
    const loaderError = await fetchApp("/quickAdd?returnTo=%2F%09%2Fevil.example", { cookie });
    // An action's error: a post to a page without an action. Remix does not run the loaders at and
    // below the boundary that shows an action's error; the root's, with the user, must still run.
    const actionError = await fetchApp("/?index", { method: "POST", cookie, body: new URLSearchParams({ x: "1" }) });
    for (const [response, status, text] of [
      [loaderError, 400, "Die Rücksprungadresse ist ungültig."],
      [actionError, 405, "Diese Aktion gibt es auf dieser Seite nicht."],
    ] as const) {
      expect(response.status).toBe(status);
      const html = (await response.text()).replaceAll("<!-- -->", "");
      expect(html).toContain("Das hat nicht geklappt");
      expect(html).toContain(`${status} ${text}`);
      expect(html).toContain("Willkommen, Anna Admin");
      expect(html).toContain("Abmelden");
      expect(html).not.toContain(">Anmelden<");
    }
  });

  it("only returns to paths of this app after login", () => {
    expect(safeReturnPath("/courses?selectedCourseId=3")).toBe("/courses?selectedCourseId=3");
    // The whole table of hostile paths: security.test.ts.
    for (const evil of ["//evil.example", "https://evil.example", "", null]) expect(safeReturnPath(evil)).toBe("/");
  });

  it("a logged-in user opening /login goes straight to where they wanted", async () => {
    const cookie = await loginCookie("staff");
    const response = await fetchApp("/login?redirectTo=%2Fdogs", { cookie });
    expect(response.headers.get("Location")).toBe("/dogs");
    expect((await fetchApp("/login?redirectTo=%2F%2Fevil.example", { cookie })).headers.get("Location")).toBe("/");
  });

  it("refuses form posts from another site", async () => {
    const cookie = await loginCookie("admin");
    const response = await fetchApp("/logout", { method: "POST", cookie, headers: { Origin: "https://evil.example" } });
    expect(response.status).toBe(403);
    expect(await response.text()).toBe("Anfrage von einer fremden Seite abgelehnt.");
    expect((await fetchApp("/people", { cookie })).status).toBe(200);
  });
});
