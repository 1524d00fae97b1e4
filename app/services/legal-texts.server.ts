import type { LegalTextKind } from "~/lib/consents";
import { formatDate } from "~/lib/format";
import type { Db } from "~/db/client.server";
import { currentLegalTexts } from "~/models/consents.server";

/** The current version of a club text as a public page shows it: its body and 'Stand: … (Fassung n)'. */
export async function legalTextForPage(db: Db, kind: LegalTextKind): Promise<{ body: string; stand: string } | null> {
  const text = (await currentLegalTexts(db, [kind]))[kind];
  return text ? { body: text.body, stand: `Stand: ${formatDate(text.publishedOn.slice(0, 10))} (Fassung ${text.version})` } : null;
}
