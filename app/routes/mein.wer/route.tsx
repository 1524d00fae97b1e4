/**
 * Mein Wuff: several people share the signed-in address (a family): for whom the portal acts. It
 * offers only those, and the action accepts only those.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { returnPathOf } from "~/lib/portal";
import { actFor } from "~/models/portal-auth.server";
import { requirePortalSession } from "~/services/portal.server";
import { readForm } from "~/services/request.server";

export const meta: MetaFunction = () => [{ title: "Für wen? – Mein Wuff" }];

const NOT_YOURS = "Bitte eine der angebotenen Personen wählen.";

export async function loader(args: LoaderFunctionArgs) {
  const session = await requirePortalSession(args);
  return { people: session.people, personId: session.personId, returnPath: returnPathOf(new URL(args.request.url).searchParams.get("weiter")) };
}

export async function action(args: ActionFunctionArgs) {
  const session = await requirePortalSession(args);
  const form = await readForm(args.request);
  const personId = Number(form.get("personId"));
  if (!Number.isSafeInteger(personId) || !(await actFor(args.context.db, session, personId))) return data({ error: NOT_YOURS }, { status: 400 });
  // Back to where the sign-in or a portal page was going (a booking, Meine Kurse).
  return redirect(returnPathOf(String(form.get("weiter") ?? "")) ?? "/mein");
}

export default function PortalWho() {
  const { people, personId, returnPath } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section aria-labelledby="portal-who-title">
      <h1 id="portal-who-title" className="text-2xl font-semibold text-wuff-800">
        Für wen möchtest du handeln?
      </h1>
      <p className="mt-2 text-slate-700">Diese Personen haben bei uns deine E-Mail-Adresse angegeben.</p>
      {actionData?.error && (
        <p role="alert" className="mt-3 text-red-700">
          {actionData.error}
        </p>
      )}
      <ul className="mt-4 space-y-2">
        {people.map((person) => (
          <li key={person.id}>
            <Form method="post">
              <input type="hidden" name="personId" value={person.id} />
              {returnPath && <input type="hidden" name="weiter" value={returnPath} />}
              <button
                type="submit"
                aria-current={person.id === personId ? "true" : undefined}
                className="w-full rounded border border-slate-300 bg-white px-4 py-3 text-left font-medium text-slate-800 hover:bg-slate-50"
              >
                {person.firstName} {person.lastName}
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
