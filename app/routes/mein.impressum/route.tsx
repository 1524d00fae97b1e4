/** Mein Wuff: the club's imprint (§ 5 DDG), public, from Einstellungen → Texte für Mein Wuff. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { LegalTextPage } from "~/components/legal-text-page";
import { legalTextForPage } from "~/services/legal-texts.server";

export const meta: MetaFunction = () => [{ title: "Impressum – Mein Wuff" }];

export async function loader({ context }: LoaderFunctionArgs) {
  return { text: await legalTextForPage(context.db, "IMPRINT") };
}

export default function Imprint() {
  const { text } = useLoaderData<typeof loader>();
  return <LegalTextPage id="imprint-title" title="Impressum" text={text} missing="Der Verein hat sein Impressum hier noch nicht hinterlegt." />;
}
