/**
 * The Worker entry: HTTP goes to Remix, queue batches and cron events go to app/jobs.
 */
import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// The server build is produced by `remix vite:build` (npm run build) before wrangler starts; it
// does not exist before the first build, when the type checker may already run.
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import * as build from "../build/server";
import { handleQueueBatch, handleScheduled } from "../app/jobs/index.server";
import { getLoadContext } from "../app/load-context";
import { refuseCrossSiteWrite } from "../app/services/cross-site.server";
import { appEnv, EnvError, envErrorResponse } from "../app/services/env.server";
import { phaseMetrics } from "../app/services/phase-timing.server";
import { onSiteLocation } from "../app/services/return-path.server";
import { cacheControl, securityHeaders } from "../app/services/security-headers.server";

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);

/**
 * Every response gets the security headers, Server-Timing and 'Cache-Control: private, no-store'
 * (unless its route chose 'public'); a redirect that would leave the site (a relative Location
 * such as '//evil.example') goes home instead.
 */
function finish(response: Response, headers: [string, string][]): Response {
  const apply = (target: Response) => {
    for (const [name, value] of headers) {
      // A route's own policy stays: a download sets a stricter one (sandbox) than a page's.
      if (name === "Content-Security-Policy" && target.headers.has(name)) continue;
      target.headers.set(name, value);
    }
    target.headers.set("Cache-Control", cacheControl(target.headers.get("Cache-Control")));
    const location = target.headers.get("Location");
    if (location) target.headers.set("Location", onSiteLocation(location));
    return target;
  };
  try {
    return apply(response);
  } catch {
    // Some responses (e.g. from fetch) have immutable headers: a copy has not.
    return apply(new Response(response.body, response));
  }
}

/**
 * The environment, checked before an isolate's first work (app/services/env.server.ts): a missing
 * or malformed variable is logged by name and stops the request, batch or cron run.
 */
function checkEnv(env: Env): void {
  try {
    appEnv(env);
  } catch (error) {
    if (error instanceof EnvError) console.error(error.message);
    throw error;
  }
}

export default {
  async fetch(request, env, ctx) {
    try {
      checkEnv(env);
    } catch (error) {
      if (error instanceof EnvError) return envErrorResponse(error);
      throw error;
    }
    const started = performance.now();
    const loadContext = getLoadContext({ request, context: { cloudflare: { env, ctx } } });
    const response = refuseCrossSiteWrite(request) ?? (await handleRemixRequest(request, loadContext));
    // Server time and D1 time of this request, for browsers' dev tools and `npm run bench`.
    const { count, milliseconds } = loadContext.queryTimer;
    const metrics = [`app;dur=${(performance.now() - started).toFixed(1)}`, `db;dur=${milliseconds.toFixed(1)};desc="${count} D1-Abfragen"`];
    if (loadContext.phases) metrics.push(...(await phaseMetrics(loadContext.phases)));
    const timing = metrics.join(", ");
    return finish(response, [...securityHeaders(request, env, loadContext.nonce), ["Server-Timing", timing]]);
  },
  async queue(batch, env) {
    checkEnv(env);
    await handleQueueBatch(batch, env);
  },
  async scheduled(controller, env, ctx) {
    checkEnv(env);
    ctx.waitUntil(handleScheduled(controller, env));
  },
} satisfies ExportedHandler<Env>;
