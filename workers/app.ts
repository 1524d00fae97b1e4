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
    const loadContext = getLoadContext({ request, context: { cloudflare: { env, ctx } } });
    return handleRemixRequest(request, loadContext);
  },
  async queue(batch, env) {
    await handleQueueBatch(batch, env);
  },
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(handleScheduled(controller, env));
  },
} satisfies ExportedHandler<Env>;
