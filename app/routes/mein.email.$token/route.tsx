/**
 * Mein Wuff: the link that confirms a new e-mail address (issue 32 item 2). Opening it changes
 * nothing (mail programs open links to check them); its button does, once. Whoever holds the link
 * reads the new mailbox, which is all it proves: the change was asked for by the person signed in.
 */
import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { PortalLinkPage } from "~/components/portal";
import { EMAIL_CONFIRMED, EMAIL_LINK_UNUSABLE, PORTAL_SOURCE } from "~/lib/portal";
import { setWriteActor, setWriteSource } from "~/models/audit.server";
import { confirmEmailChange, pendingEmailChange } from "~/models/portal-profile.server";
import { redirectWithToast } from "~/services/toast.server";

export const meta: MetaFunction = () => [{ title: "E-Mail-Adresse bestätigen – Mein Wuff" }];

export async function action({ params, context }: ActionFunctionArgs) {
  const token = params.token ?? "";
  const pending = await pendingEmailChange(context.db, token);
  if (!pending) return data({ error: EMAIL_LINK_UNUSABLE }, { status: 400 });
  const actor = { name: `${pending.firstName} ${pending.lastName} (${PORTAL_SOURCE})`.trim() };
  setWriteActor(context.db, actor.name);
  setWriteSource(context.db, PORTAL_SOURCE);
  if (!(await confirmEmailChange(context.db, token, pending, actor))) return data({ error: EMAIL_LINK_UNUSABLE }, { status: 400 });
  return redirectWithToast(context.cloudflare.env, "/mein", { type: "success", message: EMAIL_CONFIRMED(pending.email) });
}

export default function ConfirmEmail() {
  const actionData = useActionData<{ error?: string }>();
  return (
    <PortalLinkPage
      id="confirm-email-title"
      title="Neue E-Mail-Adresse bestätigen"
      intro="Mit einem Klick wird diese Adresse deine E-Mail-Adresse beim Verein."
      button="E-Mail-Adresse bestätigen"
      error={actionData?.error}
      back={{ to: "/mein", label: "Zu Mein Wuff" }}
    />
  );
}
