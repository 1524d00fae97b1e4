/**
 * Mein Wuff: the sign-in link from the mail. Opening it signs in nobody (mail programs open links
 * to check them); its page has the button that does, in the browser that asked for the link.
 */
import { data, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData } from "@remix-run/react";
import { LINK_UNUSABLE } from "~/lib/portal";
import { signInWithLink } from "~/models/portal-auth.server";
import { existingBrowserMark, portalSessionCookie } from "~/services/portal.server";

// No referrer meta of its own: the app's Referrer-Policy (strict-origin-when-cross-origin) sends
// no path, so no token, to other sites; 'no-referrer' would make the form's own post Origin: null,
// which the cross-site check refuses.
export const meta: MetaFunction = () => [{ title: "Anmelden – Mein Wuff" }];

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  const sessionId = await signInWithLink(context.db, { token: params.token ?? "", browserId: await existingBrowserMark(request, env) });
  if (!sessionId) return data({ error: LINK_UNUSABLE }, { status: 400 });
  return redirect("/mein", { headers: { "Set-Cookie": await portalSessionCookie(env, sessionId) } });
}

export default function PortalLink() {
  const actionData = useActionData<typeof action>();
  return (
    <section aria-labelledby="portal-link-title">
      <h1 id="portal-link-title" className="text-2xl font-semibold text-wuff-800">
        Bei Mein Wuff anmelden
      </h1>
      {actionData?.error ? (
        <>
          <p role="alert" className="mt-4 rounded border border-red-300 bg-red-50 p-3 text-red-900">
            {actionData.error}
          </p>
          <p className="mt-4">
            <Link to="/mein" className="text-wuff-700 underline">
              Neuen Anmeldelink anfordern
            </Link>
          </p>
        </>
      ) : (
        <Form method="post" className="mt-4">
          <p className="text-slate-700">Mit diesem Link meldest du dich einmal an, in dem Browser, in dem du ihn angefordert hast.</p>
          <button type="submit" className="mt-4 w-full rounded bg-wuff-700 px-4 py-2 font-medium text-white hover:bg-wuff-800 sm:w-auto">
            Jetzt anmelden
          </button>
        </Form>
      )}
    </section>
  );
}
