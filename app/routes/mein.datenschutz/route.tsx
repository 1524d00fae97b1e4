/** Mein Wuff: the club's privacy notice (Art. 13 DSGVO), public, from Einstellungen → Texte für Mein Wuff. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { LegalTextPage } from "~/components/legal-text-page";
import { legalTextForPage } from "~/services/legal-texts.server";

export const meta: MetaFunction = () => [{ title: "Datenschutzhinweise – Mein Wuff" }];

export async function loader({ context }: LoaderFunctionArgs) {
  return { text: await legalTextForPage(context.db, "PRIVACY") };
}

export default function Privacy() {
  const { text } = useLoaderData<typeof loader>();
  return (
    <LegalTextPage id="privacy-title" title="Datenschutzhinweise" text={text} missing="Der Verein hat seine Datenschutzhinweise hier noch nicht hinterlegt." />
  );
}
