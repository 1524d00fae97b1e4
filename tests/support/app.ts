import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../workers/app";

/**
 * A request to the whole worker (Remix behind the worker entry), redirects not followed; answers
 * when the work the request left behind (ctx.waitUntil) is done too, so the next step sees it.
 * The worker's handler is called directly: the pool's `exports.default` builds a new entrypoint per
 * request whose prototype proxies nest, which overflows the stack after some thousand requests in
 * one workerd (tests/vitest.config.ts runs many files in one); worker.test.ts keeps that way in.
 */
export async function fetchApp(path: string, { cookie, ...init }: RequestInit & { cookie?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (cookie) headers.set("Cookie", cookie);
  const request = new Request(`http://localhost${path}`, { redirect: "manual", ...init, headers }) as Request<unknown, IncomingRequestCfProperties>;
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** The toast a response sets (the signed flash cookie decoded), or null. */
export function toastOf(response: Response): { type: string; message: string; undo?: number } | null {
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith("wuff_toast="));
  const value = cookie?.slice("wuff_toast=".length).split(";")[0];
  if (!value) return null;
  const payload = decodeURIComponent(value).split(".")[0];
  return JSON.parse(decodeURIComponent(escape(atob(payload))));
}

/** A form post to the app, as a browser without JavaScript sends it. */
export function postForm(path: string, cookie: string, fields: Record<string, string | number | boolean | undefined>): Promise<Response> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === false) continue;
    body.set(name, value === true ? "on" : String(value));
  }
  return fetchApp(path, { method: "POST", cookie, body });
}

/** Fires a cron trigger as Cloudflare does (at `at`, its scheduled time), and waits for what it started. */
export async function fireCron(cron: string, at = new Date()) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: at, cron }), env, ctx);
  await waitOnExecutionContext(ctx);
}
