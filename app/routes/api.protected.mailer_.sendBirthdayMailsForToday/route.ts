import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { sendBirthdayMails } from "~/jobs/mails.server";
import { requireAccess } from "~/services/auth.server";

/**
 * GET /api/protected/mailer/sendBirthdayMailsForToday (spec 001 §7): today's birthday mails now,
 * for a logged-in ADMIN (401/403 otherwise). Answers {message}; a second call sends nothing again.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireAccess(args, "tasks");
  const { context } = args;
  const outcome = await sendBirthdayMails(context.cloudflare.env, context.db, user);
  return Response.json({ message: outcome.message, sent: outcome.sent }, { headers: { "Cache-Control": "no-store" } });
}
