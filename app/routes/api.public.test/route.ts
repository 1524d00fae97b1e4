import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { probeBucket, probeDatabase, probeQueue } from "~/models/health.server";
import { APP_VERSION } from "~/lib/version";

/**
 * GET /api/public/test (spec 001 §7 "public/test"): a public health check. It answers with a
 * message and the state of D1, R2 and the queue, each really exercised, and the build version.
 * Status 503 when any part fails, so monitors can alert on the code alone.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const [database, storage, queue] = await Promise.all([
    probeDatabase(context.db),
    probeBucket(env.INVOICES),
    probeQueue(env.JOBS),
  ]);
  const healthy = database.ok && storage.ok && queue.ok;
  return Response.json(
    {
      message: healthy ? "Wuff läuft: Datenbank, Speicher und Warteschlange arbeiten." : "Wuff ist gestört.",
      version: APP_VERSION,
      checks: { d1: database, r2: storage, queue },
    },
    { status: healthy ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
