/**
 * Mein Wuff: the link that confirms a SEPA mandate given online (issue 32 item 4). Opening it
 * changes nothing (mail programs open links to check them); its button makes the mandate, once.
 * The PDF of the mandate is rendered after the answer (and by the daily cron should that fail).
 */
import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { PortalLinkPage } from "~/components/portal";
import { MANDATE_CONFIRMED, MANDATE_LINK_UNUSABLE, PORTAL_SOURCE } from "~/lib/portal";
import { setWriteActor, setWriteSource } from "~/models/audit.server";
import { confirmMandate, pendingMandate } from "~/models/portal-mandates.server";
import { storeMandatePdf } from "~/services/mandate-pdfs.server";
import { redirectWithToast } from "~/services/toast.server";

export const meta: MetaFunction = () => [{ title: "Lastschriftmandat bestätigen – Mein Wuff" }];

export async function action({ params, context }: ActionFunctionArgs) {
  const token = params.token ?? "";
  const { db } = context;
  const pending = await pendingMandate(db, token);
  if (!pending) return data({ error: MANDATE_LINK_UNUSABLE }, { status: 400 });
  const actor = { name: `${pending.firstName} ${pending.lastName} (${PORTAL_SOURCE})`.trim() };
  setWriteActor(db, actor.name);
  setWriteSource(db, PORTAL_SOURCE);
  const confirmed = await confirmMandate(db, token, pending, actor);
  if (!confirmed) return data({ error: MANDATE_LINK_UNUSABLE }, { status: 400 });
  context.cloudflare.ctx.waitUntil(
    storeMandatePdf(context.cloudflare.env, db, confirmed.mandateId).catch((error: unknown) =>
      console.error("PDF des Lastschriftmandats nicht erzeugt (der tägliche Lauf holt es nach)", error),
    ),
  );
  return redirectWithToast(context.cloudflare.env, "/mein/zahlungen", { type: "success", message: MANDATE_CONFIRMED(confirmed.reference) });
}

export default function ConfirmMandate() {
  const actionData = useActionData<{ error?: string }>();
  return (
    <PortalLinkPage
      id="confirm-mandate-title"
      title="Lastschriftmandat bestätigen"
      intro="Mit einem Klick erteilst du dem Verein das SEPA-Lastschriftmandat, das du in Mein Wuff angegeben hast."
      button="Mandat bestätigen"
      error={actionData?.error}
      back={{ to: "/mein/zahlungen", label: "Zu meinen Zahlungen" }}
    />
  );
}
