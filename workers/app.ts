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

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);

export default {
  async fetch(request, env, ctx) {
    const refused = refuseCrossSiteWrite(request);
    if (refused) return refused;
    const started = performance.now();
    const loadContext = getLoadContext({ request, context: { cloudflare: { env, ctx } } });
    const response = await handleRemixRequest(request, loadContext);
    // Server time and D1 time of this request, for browsers' dev tools and `npm run bench`.
    const { count, milliseconds } = loadContext.queryTimer;
    const timing = `app;dur=${(performance.now() - started).toFixed(1)}, db;dur=${milliseconds.toFixed(1)};desc="${count} D1-Abfragen"`;
    try {
      response.headers.append("Server-Timing", timing);
      return response;
    } catch {
      // Some responses (e.g. redirects from fetch) have immutable headers.
      const copy = new Response(response.body, response);
      copy.headers.append("Server-Timing", timing);
      return copy;
    }
  },
  async queue(batch, env) {
    await handleQueueBatch(batch, env);
  },
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(handleScheduled(controller, env));
  },
} satisfies ExportedHandler<Env>;
