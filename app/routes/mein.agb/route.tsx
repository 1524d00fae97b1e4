/** Mein Wuff: the club's terms for courses (AGB), public, from Einstellungen → Texte für Mein Wuff; what a booking online agrees to. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { LegalTextPage } from "~/components/legal-text-page";
import { legalTextForPage } from "~/services/legal-texts.server";

export const meta: MetaFunction = () => [{ title: "Allgemeine Geschäftsbedingungen – Mein Wuff" }];

export async function loader({ context }: LoaderFunctionArgs) {
  return { text: await legalTextForPage(context.db, "TERMS") };
}

export default function Terms() {
  const { text } = useLoaderData<typeof loader>();
  return (
    <LegalTextPage
      id="terms-title"
      title="Allgemeine Geschäftsbedingungen"
      text={text}
      missing="Der Verein hat seine Allgemeinen Geschäftsbedingungen hier noch nicht hinterlegt."
    />
  );
}
