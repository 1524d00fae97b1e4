/**
 * Mein Wuff: the link that confirms a new e-mail address (issue 32 item 2). Opening it changes
 * nothing (mail programs open links to check them); its button does, once. Whoever holds the link
 * reads the new mailbox, which is all it proves: the change was asked for by the person signed in.
 */
import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData } from "@remix-run/react";
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
    <section aria-labelledby="confirm-email-title">
      <h1 id="confirm-email-title" className="text-2xl font-semibold text-wuff-800">
        Neue E-Mail-Adresse bestätigen
      </h1>
      {actionData?.error ? (
        <>
          <p role="alert" className="mt-4 rounded border border-red-300 bg-red-50 p-3 text-red-900">
            {actionData.error}
          </p>
          <p className="mt-4">
            <Link to="/mein" className="text-wuff-700 underline">
              Zu Mein Wuff
            </Link>
          </p>
        </>
      ) : (
        <Form method="post" className="mt-4">
          <p className="text-slate-700">Mit einem Klick wird diese Adresse deine E-Mail-Adresse beim Verein.</p>
          <button type="submit" className="mt-4 w-full rounded bg-wuff-700 px-4 py-2 font-medium text-white hover:bg-wuff-800 sm:w-auto">
            E-Mail-Adresse bestätigen
          </button>
        </Form>
      )}
    </section>
  );
}
