import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { checkHealth } from "~/models/health.server";
import { APP_VERSION } from "~/lib/version";

/**
 * GET /api/public/test (spec 001 §7 "public/test"): a public health check. It answers with a
 * message and the state of D1, R2 and the queue, each really exercised, and the build version.
 * Status 503 when any part fails, so monitors can alert on the code alone.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const { healthy, message, checks } = await checkHealth(context.db, context.cloudflare.env);
  return Response.json({ message, version: APP_VERSION, checks }, { status: healthy ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
