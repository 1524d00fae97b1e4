/**
 * `npm run bench -- --phases` reads where a request's time goes from Server-Timing: only when the
 * var PHASE_TIMING is "1" (app/services/phase-timing.server.ts); otherwise the header stays as it
 * was, without the clock's wall times.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../workers/app";
import { loginCookie } from "../support/sessions";
import { loadDemoData } from "../support/seed";

async function serverTiming(path: string, settings: Partial<Record<string, string>>) {
  const ctx = createExecutionContext();
  const request = new Request(`http://localhost${path}`, { headers: { cookie: await loginCookie("admin") }, redirect: "manual" }) as Request<
    unknown,
    IncomingRequestCfProperties
  >;
  const response = await worker.fetch(request, { ...env, ...settings } as Env, ctx);
  await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return { status: response.status, timing: response.headers.get("Server-Timing") ?? "" };
}

const metric = (timing: string, name: string) => new RegExp(`(?:^|, )${name};(?:dur=([\\d.]+)|desc="(\\d+)")`).exec(timing);

describe("phase timing for the bench", () => {
  beforeAll(() => loadDemoData());

  it("is off unless PHASE_TIMING is 1", async () => {
    for (const settings of [{}, { PHASE_TIMING: "0" }, { PHASE_TIMING: "" }]) {
      const { status, timing } = await serverTiming("/people", settings);
      expect(status).toBe(200);
      expect(timing).toMatch(/^app;dur=[\d.]+, db;dur=[\d.]+;desc="\d+ D1-Abfragen"$/);
    }
  });

  it("tells a page's phases and when it arrived and left", async () => {
    const before = Date.now();
    const { status, timing } = await serverTiming("/people", { PHASE_TIMING: "1" });
    expect(status).toBe(200);
    const [loaders, render, total] = ["loaders", "render", "worker"].map((name) => Number(metric(timing, name)?.[1]));
    for (const value of [loaders, render, total]) expect(value).toBeGreaterThanOrEqual(0);
    // Rendering follows the loaders; the worker's time holds both.
    expect(loaders + render).toBeLessThanOrEqual(total + 0.1);
    const [arrived, left] = ["arrived", "left"].map((name) => Number(metric(timing, name)?.[2]));
    expect(arrived).toBeGreaterThanOrEqual(before);
    expect(left).toBeGreaterThanOrEqual(arrived);
    expect(timing).toMatch(/^app;dur=[\d.]+, db;dur=[\d.]+;desc="\d+ D1-Abfragen", loaders;dur=/);
  });

  it("tells an answer without a page only the worker's time", async () => {
    const { status, timing } = await serverTiming("/api/public/test", { PHASE_TIMING: "1" });
    expect(status).toBe(200);
    expect(metric(timing, "loaders")).toBeNull();
    expect(Number(metric(timing, "worker")?.[1])).toBeGreaterThanOrEqual(0);
    expect(metric(timing, "arrived")).not.toBeNull();
  });
});
