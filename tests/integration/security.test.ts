/**
 * What an attacker tries first: return paths that lead off the site, pages framed or fed
 * scripts of others, posts from opaque origins. Issue 9, items 2, 3 and 4.
 */
import { exports } from "cloudflare:workers";
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { INVALID_RETURN_PATH_MESSAGE, safeReturnPath } from "~/services/return-path.server";
import { fetchApp, postForm } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const APP = "http://localhost";

beforeAll(async () => {
  await loadDemoData();
});

// ---------------------------------------------------------------------------------------------
// Item 2: return paths

/** Hostile return paths: refused with 400 (control characters, backslashes) or kept on-site ('/'). */
const HOSTILE: [string, 400 | "/"][] = [
  ["/\t/evil.example/x", 400],
  ["/\n/evil.example", 400],
  ["/\r\n//evil.example", 400],
  ["\t//evil.example", 400],
  ["/people\u0000", 400],
  ["/\u007f/evil.example", 400],
  ["/\\evil.example", 400],
  ["\\\\evil.example", 400],
  ["/\\/evil.example", 400],
  ["/people\\..\\..\\evil.example", 400],
  ["//evil.example", "/"],
  ["///evil.example", "/"],
  ["//evil.example/people?x=1", "/"],
  ["https://evil.example/x", "/"],
  ["HTTPS://evil.example", "/"],
  ["http:evil.example", "/"],
  ["javascript:alert(1)", "/"],
  ["data:text/html,<script>alert(1)</script>", "/"],
  ["evil.example", "/"],
  [" //evil.example", "/"],
  ["/.//evil.example", "/"],
  ["/a/../..//evil.example", "/"],
  ["/%2F%2Fevil.example", "/"],
  ["/%2f/evil.example", "/"],
  ["/%5Cevil.example", "/"],
  ["/%09/evil.example", "/"],
  ["/%0A/evil.example", "/"],
  ["/%E0%A4%A", "/"],
];

/** Paths of the app itself are kept as they are. */
const OWN = ["/", "/dogs?dogList=archived&sel=3", "/people/12/dogs?dog=7#grid", "/people?q=M%C3%BCller%5C", "/people?q=a\\b"];

/** A redirect's target resolved as a browser resolves it: on this site, and no '//' left to reinterpret. */
function expectOnSite(location: string | null, context: string) {
  expect(location, context).not.toBeNull();
  expect(new URL(location!, APP).origin, context).toBe(APP);
  expect(location, context).toMatch(/^\/(?![/\\])/);
}

describe("return paths (the one rule: safeReturnPath)", () => {
  it.each(HOSTILE)("%j is refused or kept on-site", (value, expected) => {
    if (expected === 400) {
      expect(() => safeReturnPath(value)).toThrow();
    } else {
      expect(safeReturnPath(value)).toBe(expected);
    }
  });

  it("keeps the app's own paths", () => {
    for (const path of OWN) expect(safeReturnPath(path)).toBe(path);
    for (const missing of ["", null, undefined, 17]) expect(safeReturnPath(missing)).toBe("/");
  });

  it("the login's redirectTo: a logged-in user goes only to paths of this app, hostile ones get a German 400", async () => {
    const cookie = await loginCookie("staff");
    for (const [value, expected] of HOSTILE) {
      const response = await fetchApp(`/login?${new URLSearchParams({ redirectTo: value })}`, { cookie });
      if (expected === 400) {
        expect(response.status, JSON.stringify(value)).toBe(400);
        expect((await response.text()).replaceAll("<!-- -->", ""), JSON.stringify(value)).toContain(INVALID_RETURN_PATH_MESSAGE);
      } else {
        expect(response.status, JSON.stringify(value)).toBe(302);
        expect(response.headers.get("Location"), JSON.stringify(value)).toBe(expected);
      }
    }
    for (const path of OWN) expect((await fetchApp(`/login?${new URLSearchParams({ redirectTo: path })}`, { cookie })).headers.get("Location")).toBe(path);
  });

  it("the login's redirectTo before the login: the remembered path is on-site, hostile ones get a German 400", async () => {
    // The provider is not reachable in these tests: the login goes home with a toast, the
    // remembered path is decided before.
    for (const [value, expected] of HOSTILE) {
      const response = await fetchApp(`/login?${new URLSearchParams({ redirectTo: value })}`);
      expect(response.status, JSON.stringify(value)).toBe(expected === 400 ? 400 : 302);
      if (expected !== 400) expectOnSite(response.headers.get("Location"), JSON.stringify(value));
    }
  });

  it("the quick add's returnTo: the dialog closes only to paths of this app, hostile ones get a German 400", async () => {
    const cookie = await loginCookie("staff");
    for (const [value, expected] of HOSTILE) {
      const response = await fetchApp(`/quickAdd?${new URLSearchParams({ returnTo: value })}`, { cookie });
      const html = (await response.text()).replaceAll("<!-- -->", "");
      if (expected === 400) {
        expect(response.status, JSON.stringify(value)).toBe(400);
        expect(html, JSON.stringify(value)).toContain(INVALID_RETURN_PATH_MESSAGE);
        continue;
      }
      expect(response.status, JSON.stringify(value)).toBe(200);
      expect(html).toContain('<input type="hidden" name="returnTo" value="/"/>');
      // Links to a part of this page (the skip link, #inhalt) stay on it anyway.
      for (const [, href] of html.matchAll(/href="([^"#][^"]*)"/g)) expectOnSite(href.replaceAll("&amp;", "&"), `${JSON.stringify(value)}: ${href}`);
    }
    const own = await fetchApp(`/quickAdd?${new URLSearchParams({ returnTo: "/dogs?sel=3" })}`, { cookie });
    expect(await own.text()).toContain('<input type="hidden" name="returnTo" value="/dogs?sel=3"/>');
  });

  it("the column chooser's redirectTo: back only to paths of this app, hostile ones get a German 400 and save nothing", async () => {
    const cookie = await loginCookie("staff");
    const saved = async () => (await db.select().from(schema.userPreferences)).filter((row) => row.userId === "staff").map((row) => row.value);
    for (const [value, expected] of HOSTILE) {
      const response = await postForm("/preferences/columns", cookie, { grid: "people", visible: expected === 400 ? "city" : "lastName", redirectTo: value });
      if (expected === 400) {
        expect(response.status, JSON.stringify(value)).toBe(400);
        expect(await response.text(), JSON.stringify(value)).toBe(INVALID_RETURN_PATH_MESSAGE);
        expect(await saved()).not.toContain('["city"]');
      } else {
        expect(response.status, JSON.stringify(value)).toBe(302);
        expect(response.headers.get("Location"), JSON.stringify(value)).toBe(expected);
      }
    }
    const own = await postForm("/preferences/columns", cookie, { grid: "people", visible: "lastName", redirectTo: "/people?sort=-lastName" });
    expect(own.headers.get("Location")).toBe("/people?sort=-lastName");
  });
});

// ---------------------------------------------------------------------------------------------
// Item 3: security headers

function expectSecurityHeaders(response: Response, context: string) {
  const csp = response.headers.get("Content-Security-Policy") ?? "";
  for (const directive of [
    "default-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ]) {
    expect(csp, `${context}: ${directive}`).toContain(directive);
  }
  expect(csp, context).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]{22}=='(;|$)/);
  expect(csp, context).not.toMatch(/script-src[^;]*unsafe-inline/);
  // The identity provider (logout) and Mollie's checkout (paying in Mein Wuff; here the fake).
  expect(csp, context).toContain(`form-action 'self' http://127.0.0.1:9 ${new URL(env.MOLLIE_API_URL).origin};`);
  expect(response.headers.get("X-Frame-Options"), context).toBe("DENY");
  expect(response.headers.get("X-Content-Type-Options"), context).toBe("nosniff");
  expect(response.headers.get("Referrer-Policy"), context).toBe("strict-origin-when-cross-origin");
  expect(response.headers.get("Permissions-Policy"), context).toContain("camera=(), microphone=(), geolocation=()");
  // Plain http (localhost): no HSTS, it would pin the name to https.
  expect(response.headers.get("Strict-Transport-Security"), context).toBeNull();
  // Issue 29: nothing the worker answers stays in a shared cache or in the browser after logout.
  expect(response.headers.get("Cache-Control"), context).toBe("private, no-store");
}

const nonceOf = (response: Response) => /'nonce-([^']+)'/.exec(response.headers.get("Content-Security-Policy") ?? "")?.[1];

describe("security headers on every response", () => {
  it("on HTML pages, redirects, .data requests, API answers and refusals", async () => {
    const cookie = await loginCookie("admin");
    const cases: [string, Promise<Response>, number][] = [
      ["HTML page", fetchApp("/"), 200],
      ["HTML page, logged in", fetchApp("/people", { cookie }), 200],
      ["redirect to the login", fetchApp("/people"), 302],
      ["redirect home", fetchApp("/gibt-es-nicht"), 302],
      [".data request", fetchApp("/people.data", { cookie }), 200],
      [".data request of a redirect", fetchApp("/people.data"), 202],
      ["API answer", fetchApp("/api/session/ping", { method: "POST" }), 401],
      ["error page", fetchApp("/login?redirectTo=%5Cevil.example", { cookie }), 400],
      ["cross-site refusal", fetchApp("/logout", { method: "POST", cookie, headers: { Origin: "https://evil.example" } }), 403],
    ];
    for (const [name, pending, status] of cases) {
      const response = await pending;
      expect(response.status, name).toBe(status);
      expectSecurityHeaders(response, name);
      expect(response.headers.get("Server-Timing"), name).toContain("app;dur=");
    }
  });

  it("HSTS only over https", async () => {
    const response = await exports.default.fetch(new Request("https://localhost/", { redirect: "manual" }));
    expect(response.headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("every inline script of a page carries the nonce of the CSP, which is new for every request", async () => {
    const cookie = await loginCookie("admin");
    // A page with a (lazily loaded) dialog open: React's own inline scripts need the nonce too.
    for (const path of ["/", "/people?dialog=person-add", "/quickAdd"]) {
      const response = await fetchApp(path, { cookie });
      const nonce = nonceOf(response);
      expect(nonce, path).toBeTruthy();
      const html = await response.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
      expect(scripts.length, path).toBeGreaterThan(2);
      for (const tag of scripts) expect(tag, path).toContain(` nonce="${nonce}"`);
      // No inline event handlers either: the CSP would block them.
      expect(html, path).not.toMatch(/<[^>]+\son[a-z]+=/);
    }
    const [a, b] = await Promise.all([fetchApp("/"), fetchApp("/")]);
    expect(nonceOf(a)).not.toBe(nonceOf(b));
  });
});

// ---------------------------------------------------------------------------------------------
// Item 4: posts from an opaque origin

describe("posts with Origin: null", () => {
  it("are refused with a German 403 and change nothing", async () => {
    const cookie = await loginCookie("admin");
    const before = await db.$count(schema.people);
    const headers = { Origin: "null", "Content-Type": "application/x-www-form-urlencoded" };
    const save = await fetchApp("/people", {
      method: "POST",
      cookie,
      headers,
      body: new URLSearchParams({ intent: "person:save", firstName: "Nul", lastName: "Origin", memberTypeId: "2" }),
    });
    expect(save.status).toBe(403);
    expect(await save.text()).toBe("Anfrage von einer fremden Seite abgelehnt.");
    expect(await db.$count(schema.people)).toBe(before);

    const logout = await fetchApp("/logout", { method: "POST", cookie, headers });
    expect(logout.status).toBe(403);
    // Still logged in.
    expect((await fetchApp("/people", { cookie })).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------
// Issue 29, item 5: a post without Origin, whose Referer names another site

describe("posts without Origin", () => {
  const save = (cookie: string, headers: Record<string, string>, lastName: string) =>
    fetchApp("/people?dialog=person-add", {
      method: "POST",
      cookie,
      headers,
      body: new URLSearchParams({ intent: "person:save", firstName: "Ohne", lastName, memberTypeId: "2" }),
    });

  it("are refused with a German 403 when the Referer names another site (or is no address), and change nothing", async () => {
    const cookie = await loginCookie("admin");
    const before = await db.$count(schema.people);
    for (const referer of [
      "https://evil.example/people",
      "http://localhost.evil.example/",
      "http://localhost:8080/people",
      "https://localhost/people",
      "kein-url",
    ]) {
      const response = await save(cookie, { Referer: referer }, "Fremd");
      expect(response.status, referer).toBe(403);
      expect(await response.text(), referer).toBe("Anfrage von einer fremden Seite abgelehnt.");
    }
    expect(await db.$count(schema.people)).toBe(before);
    // Logout from another site's page: refused, still logged in.
    expect((await fetchApp("/logout", { method: "POST", cookie, headers: { Referer: "https://evil.example/" } })).status).toBe(403);
    expect((await fetchApp("/people", { cookie })).status).toBe(200);
  });

  it("pass when the Referer is a page of the app, or when neither header is sent (a webhook, a browser sending no referrer)", async () => {
    const cookie = await loginCookie("admin");
    const before = await db.$count(schema.people);
    expect((await save(cookie, { Referer: "http://localhost/people?sort=lastName" }, "Eigen")).status).toBe(302);
    expect((await save(cookie, {}, "Ohne-Kopf")).status).toBe(302);
    expect(await db.$count(schema.people)).toBe(before + 2);
  });

  it("an Origin of the app wins over a Referer (the Origin is what the browser vouches for)", async () => {
    const cookie = await loginCookie("admin");
    // Host as every browser sends it: Remix compares it with the Origin of a document's post.
    const response = await save(cookie, { Origin: "http://localhost", Host: "localhost", Referer: "https://evil.example/" }, "Mit-Origin");
    expect(response.status).toBe(302);
  });
});
