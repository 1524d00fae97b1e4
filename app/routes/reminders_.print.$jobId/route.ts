import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { reminderPrintPdf } from "~/jobs/reminder-run.server";
import { downloadResponse } from "~/lib/download";
import { parseId } from "~/lib/ids";
import { requireAccess } from "~/services/auth.server";

/**
 * GET /reminders/print/{jobId}: 'Druck-PDF herunterladen', the letters of a finished Mahnlauf to
 * be posted (its reminders by post), one after the other (ADMIN and FINANCE, as the run). Made on
 * the first download and kept in R2; a failure answers a German text page.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "reminders");
  const id = parseId(args.params.jobId);
  if (!id) return downloadResponse({ status: "invalid", message: "Ungültiger Mahnlauf." });
  return downloadResponse(await reminderPrintPdf(args.context.cloudflare.env, args.context.db, id));
}
