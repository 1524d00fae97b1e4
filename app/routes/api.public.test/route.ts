import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { databaseAnswers } from "~/models/health.server";
import { refuseOverLimit } from "~/services/rate-limit.server";

/**
 * GET /api/public/test (spec 001 §7 "public/test"): the public liveness answer for monitors and
 * start scripts. It says only whether Wuff answers and its database reads: no version, no counts,
 * and it writes nothing (the self-test that really uses D1, R2 and the queue is ADMIN's:
 * /api/protected/test, the screen Test and Tasks → Prüfungen). 503 when the database does not
 * answer, so monitors can alert on the code alone; 429 beyond 60 calls a minute per address.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const limited = await refuseOverLimit(request, context.cloudflare.env, "liveness");
  if (limited) return limited;
  const alive = await databaseAnswers(context.db);
  return Response.json({ message: alive ? "Wuff läuft." : "Wuff ist gestört." }, { status: alive ? 200 : 503 });
}
