/**
 * Mitglied werden: the link that confirms an application's address (issue 32 item 6). Opening it
 * changes nothing (mail programs open links to check them); its button sends the application to
 * the club, once.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PortalLinkPage } from "~/components/portal";
import { APPLICATION_LINK_UNUSABLE } from "~/lib/membership-applications";
import { confirmApplication, isConfirmableApplication } from "~/models/membership-applications.server";

export const meta: MetaFunction = () => [{ title: "Mitgliedsantrag bestätigen – Mein Wuff" }];

export async function loader({ params, context }: LoaderFunctionArgs) {
  return { usable: await isConfirmableApplication(context.db, params.token ?? "") };
}

export async function action({ params, context }: ActionFunctionArgs) {
  if (!(await confirmApplication(context.db, params.token ?? ""))) return data({ error: APPLICATION_LINK_UNUSABLE }, { status: 400 });
  return redirect("/mitglied-werden?bestaetigt=1");
}

export default function ConfirmApplication() {
  const { usable } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ error?: string }>();
  return (
    <PortalLinkPage
      id="confirm-application-title"
      title="Mitgliedsantrag bestätigen"
      intro="Mit einem Klick bestätigst du deine E-Mail-Adresse und sendest deinen Mitgliedsantrag an den Verein."
      button="Antrag absenden"
      error={actionData?.error ?? (usable ? undefined : APPLICATION_LINK_UNUSABLE)}
      back={{ to: "/mitglied-werden", label: "Zum Mitgliedsantrag" }}
    />
  );
}
