import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { reminderLetterPdf } from "~/jobs/reminder-run.server";
import { downloadResponse } from "~/lib/download";
import { parseId } from "~/lib/ids";
import { requireAccess } from "~/services/auth.server";

/**
 * GET /reminders/letter/{reminderId}: 'Brief (PDF)', the letter a reminder went out with (or is to
 * be posted with, after 'Als Brief drucken'), as stored by its run (ADMIN and FINANCE).
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "reminders");
  const id = parseId(args.params.reminderId);
  if (!id) return downloadResponse({ status: "invalid", message: "Ungültige Mahnung." });
  return downloadResponse(await reminderLetterPdf(args.context.cloudflare.env, args.context.db, id));
}
