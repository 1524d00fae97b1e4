import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { checkHealth } from "~/models/health.server";
import { APP_VERSION } from "~/lib/version";
import { requireAccess } from "~/services/auth.server";

/**
 * GET /api/protected/test (ADMIN; 401/403 otherwise): the self-test as JSON. D1 (migrations and
 * people counted), R2 (an object put, read and deleted) and the queue (a probe message) are each
 * really used; with the build version. 503 when a part fails. The public /api/public/test only
 * says whether Wuff answers.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "test");
  const { healthy, message, checks } = await checkHealth(args.context.db, args.context.cloudflare.env);
  return Response.json({ message, version: APP_VERSION, checks }, { status: healthy ? 200 : 503 });
}
