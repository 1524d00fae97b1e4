/**
 * Mein Wuff (issue 32): the portal's start. Signed out, the form that asks for a sign-in link by
 * e-mail; it answers alike whether the address is known or not, and the mail goes out after the
 * answer (waitUntil), so not even the answer's time tells. Signed in, who the portal acts for, and
 * 'Abmelden'. Everything works without JavaScript.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PortalPage } from "~/components/portal";
import { z } from "zod";
import { choosePersonPathTo, LINK_SENT, returnPathOf, SIGNED_OUT, TOO_MANY_REQUESTS } from "~/lib/portal";
import { endPortalSession, requestSignIn } from "~/models/portal-auth.server";
import { browserMark, clearPortalSessionCookie, clientAddress, mailSignInLink, optionalPortalSession, sendAfterAnswer } from "~/services/portal.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

export const meta: MetaFunction = () => [{ title: "Mein Wuff" }];

const emailSchema = z.object({
  email: z.email({ error: "Bitte eine gültige E-Mail-Adresse eingeben" }).max(200, "Die E-Mail-Adresse ist zu lang (höchstens 200 Zeichen)"),
});

export async function loader(args: LoaderFunctionArgs) {
  const session = await optionalPortalSession(args);
  const search = new URL(args.request.url).searchParams;
  const returnPath = returnPathOf(search.get("weiter"));
  if (!session) return { signedIn: false as const, sent: search.has("gesendet"), returnPath };
  if (!session.person) throw redirect(choosePersonPathTo(returnPath));
  if (returnPath) throw redirect(returnPath);
  return { signedIn: true as const, person: session.person, family: session.people.length > 1 };
}

export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  const { env } = context.cloudflare;
  const form = await readForm(request);
  if (form.get("intent") === "logout") {
    const session = await optionalPortalSession(args);
    if (session) await endPortalSession(context.db, session);
    return redirectWithToast(env, "/mein", { type: "success", message: SIGNED_OUT }, new Headers({ "Set-Cookie": await clearPortalSessionCookie(env) }));
  }
  const parsed = emailSchema.safeParse({ email: String(form.get("email") ?? "").trim() });
  if (!parsed.success) return data({ error: parsed.error.issues[0].message }, { status: 400 });
  const { browserId, setCookie } = await browserMark(request, env);
  const outcome = await requestSignIn(context.db, { email: parsed.data.email, ip: clientAddress(request), browserId });
  if (outcome.status === "limited") return data({ error: TOO_MANY_REQUESTS }, { status: 429, headers: { "Retry-After": "900" } });
  if (outcome.token) {
    const returnPath = returnPathOf(String(form.get("weiter") ?? ""));
    const link = `${new URL(request.url).origin}/mein/link/${outcome.token}${returnPath ? `?weiter=${encodeURIComponent(returnPath)}` : ""}`;
    sendAfterAnswer(context, mailSignInLink(env, context.db, { email: parsed.data.email, people: outcome.people, link }), "Anmeldelink");
  }
  return redirect("/mein?gesendet=1", { headers: setCookie ? { "Set-Cookie": setCookie } : undefined });
}

export default function PortalStart() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<{ error?: string }>();
  if (loaded.signedIn) {
    const { person } = loaded;
    return (
      <PortalPage id="portal-title" title={`Hallo ${person.firstName}`}>
        <p className="mt-2 text-slate-700">
          Du bist bei Mein Wuff angemeldet für {person.firstName} {person.lastName}.
          {loaded.family && (
            <>
              {" "}
              <Link to="/mein/wer" className="text-wuff-700 underline">
                Für jemand anderen handeln
              </Link>
            </>
          )}
        </p>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2">
          <StartLink to="/mein/daten" title="Meine Daten" text="Anschrift, Telefon, E-Mail-Adresse und Einwilligungen" />
          <StartLink to="/mein/hunde" title="Meine Hunde" text="Impf- und Versicherungsnachweise hochladen" />
          <StartLink to="/mein/zahlungen" title="Meine Zahlungen" text="Offene Posten bezahlen, Rechnungen, Zahlungen und Lastschriftmandat" />
          <StartLink to="/mein/kurse" title="Meine Kurse" text="Nächste Termine, Anwesenheit, Kalender-Abo und Stornierung" />
          <StartLink to="/mein/karten" title="Meine Karten & Abos" text="Was auf deinen 10er-Karten übrig ist und bis wann sie gelten" />
        </ul>
      </PortalPage>
    );
  }
  const error = actionData?.error ?? null;
  return (
    <section aria-labelledby="portal-title">
      <h1 id="portal-title" className="text-2xl font-semibold text-wuff-800">
        Bei Mein Wuff anmelden
      </h1>
      <p className="mt-2 text-slate-700">
        Gib die E-Mail-Adresse ein, die du bei uns angegeben hast. Wir schicken dir einen Link, mit dem du dich ohne Passwort anmeldest.
      </p>
      {loaded.sent && !error && (
        <p role="status" className="mt-4 rounded border border-emerald-300 bg-emerald-50 p-3 text-emerald-900">
          {LINK_SENT}
        </p>
      )}
      <Form method="post" className="mt-4 space-y-3" aria-label="Anmeldelink anfordern">
        {loaded.returnPath && <input type="hidden" name="weiter" value={loaded.returnPath} />}
        <div>
          <label htmlFor="portal-email" className="block text-sm font-medium text-slate-800">
            E-Mail-Adresse
          </label>
          <input
            id="portal-email"
            name="email"
            type="email"
            required
            autoComplete="email"
            inputMode="email"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "portal-email-error" : undefined}
            className="mt-1 w-full rounded border border-slate-300 px-3 py-2"
          />
          {error && (
            <p id="portal-email-error" role="alert" className="mt-1 text-sm text-red-700">
              {error}
            </p>
          )}
        </div>
        <button type="submit" className="w-full rounded bg-wuff-700 px-4 py-2 font-medium text-white hover:bg-wuff-800 sm:w-auto">
          Anmeldelink anfordern
        </button>
      </Form>
    </section>
  );
}

function StartLink({ to, title, text }: { to: string; title: string; text: string }) {
  return (
    <li>
      <Link to={to} className="block rounded border border-slate-200 bg-white p-4 hover:border-wuff-500">
        <span className="block font-semibold text-wuff-800">{title}</span>
        <span className="mt-1 block text-sm text-slate-700">{text}</span>
      </Link>
    </li>
  );
}
