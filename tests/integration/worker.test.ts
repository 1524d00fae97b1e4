import { createExecutionContext, createMessageBatch, createScheduledController, env, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../workers/app";

const fetchApp = (path: string, init?: RequestInit) => exports.default.fetch(new Request(`http://localhost${path}`, { redirect: "manual", ...init }));

describe("GET /api/public/test", () => {
  it("reports D1, R2 and the queue as working, and the build version", async () => {
    const response = await fetchApp("/api/public/test");
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
