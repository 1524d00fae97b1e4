import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { keepSessionAlive } from "~/services/auth.server";

/** POST /api/session/ping: the browser's keep-alive while the user is active (401 when the
 *  session has ended). */
export async function action(args: ActionFunctionArgs) {
  await keepSessionAlive(args);
  return new Response(null, { status: 204 });
}
