/** Mein Wuff: the club's statutes (Satzung), public, from Einstellungen → Texte für Mein Wuff; what an applicant accepts. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { LegalTextPage } from "~/components/legal-text-page";
import { legalTextForPage } from "~/services/legal-texts.server";

export const meta: MetaFunction = () => [{ title: "Satzung – Mein Wuff" }];

export async function loader({ context }: LoaderFunctionArgs) {
  return { text: await legalTextForPage(context.db, "STATUTES") };
}

export default function Statutes() {
  const { text } = useLoaderData<typeof loader>();
  return <LegalTextPage id="statutes-title" title="Satzung" text={text} missing="Der Verein hat seine Satzung hier noch nicht hinterlegt." />;
}
