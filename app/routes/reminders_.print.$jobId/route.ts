import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { reminderPrintPdf } from "~/jobs/reminder-run.server";
import { contentDisposition } from "~/lib/file-names";
import { parseId } from "~/lib/ids";
import { requireAccess } from "~/services/auth.server";

const failure = (message: string, status: number) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * GET /reminders/print/{jobId}: 'Druck-PDF herunterladen', the letters of a finished Mahnlauf to
 * be posted (its reminders by post), one after the other (ADMIN and FINANCE, as the run). Made on
 * the first download and kept in R2; a failure answers a German text page.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "reminders");
  const id = parseId(args.params.jobId);
  if (!id) return failure("Ungültiger Mahnlauf.", 400);
  const pdf = await reminderPrintPdf(args.context.cloudflare.env, args.context.db, id);
  if (pdf.status === "missing") return failure(pdf.message, 404);
  return new Response(pdf.body, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": contentDisposition("attachment", pdf.fileName),
      // Personal data: the browser may keep it, no shared cache may.
      "Cache-Control": "private, no-store",
    },
  });
}
