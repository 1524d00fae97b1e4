/** Mein Wuff: the club's withdrawal notice (Widerrufsbelehrung), public, from Einstellungen → Texte für Mein Wuff; shown with a booking online. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { LegalTextPage } from "~/components/legal-text-page";
import { legalTextForPage } from "~/services/legal-texts.server";

export const meta: MetaFunction = () => [{ title: "Widerrufsbelehrung – Mein Wuff" }];

export async function loader({ context }: LoaderFunctionArgs) {
  return { text: await legalTextForPage(context.db, "WITHDRAWAL") };
}

export default function Withdrawal() {
  const { text } = useLoaderData<typeof loader>();
  return (
    <LegalTextPage id="withdrawal-title" title="Widerrufsbelehrung" text={text} missing="Der Verein hat seine Widerrufsbelehrung hier noch nicht hinterlegt." />
  );
}
