import { createExecutionContext, createMessageBatch, createScheduledController, env, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import worker from "../../workers/app";
import { fetchApp as fetchWorker } from "../support/app";
import { loginCookie } from "../support/sessions";

const fetchApp = (path: string, init?: RequestInit) => exports.default.fetch(new Request(`http://localhost${path}`, { redirect: "manual", ...init }));

describe("GET /api/public/test (public liveness)", () => {
  it("answers that Wuff runs, without version or counts, and writes neither to R2 nor to the queue", async () => {
    let writes = 0;
    const spiedEnv = {
      ...env,
      INVOICES: new Proxy(env.INVOICES, { get: (target, name) => (name === "put" ? () => ++writes : Reflect.get(target, name)) }),
      JOBS: new Proxy(env.JOBS, { get: (target, name) => (name === "send" || name === "sendBatch" ? () => ++writes : Reflect.get(target, name)) }),
    } as Env;
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request("http://localhost/api/public/test") as Request<unknown, IncomingRequestCfProperties>, spiedEnv, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await response.json()).toEqual({ message: "Wuff läuft." });
    expect(writes).toBe(0);
    expect((await env.INVOICES.list({ prefix: "health/" })).objects).toHaveLength(0);
  });

  it("is rate-limited per address: 60 a minute, then a German 429; another address still gets its answer", async () => {
    // An address of its own (TEST-NET-3), so no other test's calls count against it.
    // Through the handler itself: the pool's entrypoint nests a proxy per request (tests/support/app.ts).
    const ask = (address: string) => fetchWorker("/api/public/test", { headers: { "CF-Connecting-IP": address } });
    const statuses: number[] = [];
    // The limiter counts in fixed minutes: across one change of minute at most 120 get through.
    for (let call = 0; call < 121; call++) {
      const response = await ask("203.0.113.29");
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get("Retry-After")).toBe("60");
        expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
        expect(await response.text()).toBe("Zu viele Anfragen. Bitte in einer Minute erneut versuchen.");
        break;
      }
      await response.arrayBuffer();
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.indexOf(429)).toBeGreaterThanOrEqual(60);
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect((await ask("203.0.113.30")).status).toBe(200);
  });

  it("the calendar feeds count on their own, with the same German 429", async () => {
    const ask = () => fetchWorker("/feeds/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics", { headers: { "CF-Connecting-IP": "203.0.113.31" } });
    let last: Response | null = null;
    for (let call = 0; call < 121; call++) {
      last = await ask();
      if (last.status === 429) break;
      expect(last.status).toBe(404);
      await last.arrayBuffer();
    }
    expect(last?.status).toBe(429);
    expect(await last!.text()).toBe("Zu viele Anfragen. Bitte in einer Minute erneut versuchen.");
    // The liveness answer of the same address is counted apart.
    expect((await fetchWorker("/api/public/test", { headers: { "CF-Connecting-IP": "203.0.113.31" } })).status).toBe(200);
  });
});

describe("GET /api/protected/test (the self-test, ADMIN)", () => {
  // The sessions logged in here are gone afterwards: the cron test below counts the sessions table.
  afterAll(async () => {
    await env.DB.prepare("DELETE FROM sessions").run();
  });

  it("reports D1, R2 and the queue as working, and the build version", async () => {
    const response = await fetchWorker("/api/protected/test", { cookie: await loginCookie("admin") });
    expect(response.status).toBe(200);
    const body = await response.json<{
      message: string;
      version: string;
      checks: Record<"d1" | "r2" | "queue", { ok: boolean; detail?: string }>;
    }>();
    expect(body.message).toBe("Wuff läuft: Datenbank, Speicher und Warteschlange arbeiten.");
    expect(body.version).toBeTruthy();
    expect(body.checks.d1).toEqual({ ok: true, detail: expect.stringMatching(/Migration/) });
    expect(body.checks.r2).toEqual({ ok: true, detail: "schreiben, lesen, löschen" });
    expect(body.checks.queue).toEqual({ ok: true, detail: "Nachricht gesendet" });
    // The R2 probe cleans up after itself.
    expect((await env.INVOICES.list({ prefix: "health/" })).objects).toHaveLength(0);
  });

  it("401 without a login, 403 without ADMIN, and no probe runs", async () => {
    expect((await fetchWorker("/api/protected/test")).status).toBe(401);
    for (const who of ["staff", "gdpr", "finance"] as const) {
      const response = await fetchWorker("/api/protected/test", { cookie: await loginCookie(who) });
      expect(response.status, who).toBe(403);
      expect(await response.text(), who).not.toMatch(/Migration|Personen|version/);
    }
  });
});

describe("the queue consumer", () => {
  it("acknowledges valid job messages and drops malformed ones instead of retrying them forever", async () => {
    const batch = createMessageBatch("wuff-jobs", [
      { id: "probe", timestamp: new Date(), attempts: 1, body: { type: "health-probe", sentOn: "2026-11-22T10:00:00Z" } },
      { id: "junk", timestamp: new Date(), attempts: 1, body: { type: "nonsense" } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["junk", "probe"]);
    expect(result.retryMessages).toHaveLength(0);
  });
});

describe("the scheduled handler", () => {
  it("removes login sessions past their lifetime in the daily cron, and keeps the others", async () => {
    const session = (id: string, expiresOn: string) =>
      env.DB.prepare("INSERT INTO sessions (id, user, created_on, last_seen_on, expires_on) VALUES (?, '{}', ?, ?, ?)").bind(
        id,
        expiresOn,
        expiresOn,
        expiresOn,
      );
    await env.DB.batch([session("expired", "2026-11-21T18:00:00.000Z"), session("valid", "2026-11-22T12:00:00.000Z")]);
    const controller = createScheduledController({ scheduledTime: new Date("2026-11-22T06:00:00Z"), cron: "0 6 * * *" });
    const ctx = createExecutionContext();
    await worker.scheduled(controller, env, ctx);
    await waitOnExecutionContext(ctx);
    const { results } = await env.DB.prepare("SELECT id FROM sessions").all<{ id: string }>();
    expect(results.map((row) => row.id)).toEqual(["valid"]);
  });
});

describe("pages", () => {
  it("serves the home page in German to anonymous visitors", async () => {
    const response = await fetchApp("/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="de"');
    expect(html).toContain("Willkommen bei Wuff!");
    expect(html).toContain("Du bist noch nicht eingeloggt.");
  });

  it("redirects any other path home", async () => {
    const response = await fetchApp("/gibt-es-nicht/auch-nicht");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
  });
});
