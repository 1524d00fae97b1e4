import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { previewBirthdayMails, sendBirthdayMails } from "~/jobs/mails.server";
import { requireAccess } from "~/services/auth.server";

/**
 * /api/protected/mailer/sendBirthdayMailsForToday (spec 001 §7), for a logged-in ADMIN (401/403
 * otherwise). GET only shows what would be sent ({today, people with their state, problem}): a
 * link followed from another site sends nothing. POST sends today's birthday mails now and answers
 * {message, sent}; a second post sends nothing again. A post from another site is refused before
 * it gets here (app/services/cross-site.server.ts).
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "tasks");
  const { context } = args;
  const preview = await previewBirthdayMails(context.cloudflare.env, context.db);
  const open = preview.people.filter((person) => person.status === "offen").length;
  const message = preview.problem ?? `${open === 1 ? "1 Geburtstagsmail würde" : `${open} Geburtstagsmails würden`} mit POST versandt.`;
  return Response.json({ message, ...preview });
}

export async function action(args: ActionFunctionArgs) {
  const user = await requireAccess(args, "tasks");
  const { context } = args;
  const outcome = await sendBirthdayMails(context.cloudflare.env, context.db, user);
  return Response.json({ message: outcome.message, sent: outcome.sent });
}
