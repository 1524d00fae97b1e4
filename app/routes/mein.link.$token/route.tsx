/**
 * Mein Wuff: the sign-in link from the mail. Opening it signs in nobody (mail programs open links
 * to check them); its page has the button that does, in the browser that asked for the link.
 */
import { data, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { PortalLinkPage } from "~/components/portal";
import { LINK_UNUSABLE, returnPathOf } from "~/lib/portal";
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
  // Back to where the sign-in started (a course's booking page), else to the start.
  const returnPath = returnPathOf(new URL(request.url).searchParams.get("weiter"));
  return redirect(returnPath ?? "/mein", { headers: { "Set-Cookie": await portalSessionCookie(env, sessionId) } });
}

export default function PortalLink() {
  const actionData = useActionData<typeof action>();
  return (
    <PortalLinkPage
      id="portal-link-title"
      title="Bei Mein Wuff anmelden"
      intro="Mit diesem Link meldest du dich einmal an, in dem Browser, in dem du ihn angefordert hast."
      button="Jetzt anmelden"
      error={actionData?.error}
      back={{ to: "/mein", label: "Neuen Anmeldelink anfordern" }}
    />
  );
}
