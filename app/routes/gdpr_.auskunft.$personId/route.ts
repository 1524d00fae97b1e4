import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { downloadResponse } from "~/lib/download";
import { parseId } from "~/lib/ids";
import { getConfiguration } from "~/models/configuration.server";
import { buildAuskunft } from "~/services/auskunft.server";
import { requireAccess } from "~/services/auth.server";
import { RENDERING_FAILED } from "~/services/pdf.server";

/**
 * GET /gdpr/auskunft/{personId} (ADMIN, GDPR): the person's Auskunft (GDPR Art. 15) as one zip,
 * `Auskunft-{Nachname}-{Vorname}-{Datum}.zip`, with auskunft.json, auskunft.pdf and the invoice PDFs.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "gdpr");
  const id = parseId(args.params.personId);
  if (!id) return downloadResponse({ status: "invalid", message: "Ungültige Person." });
  const { env } = args.context.cloudflare;
  const club = await getConfiguration(args.context.db);
  let auskunft;
  try {
    auskunft = await buildAuskunft(env, args.context.db, id, club?.clubName ?? null);
  } catch (error) {
    console.error("Auskunft fehlgeschlagen", id, error);
    return downloadResponse({ status: "unavailable", message: `Die Auskunft konnte nicht erstellt werden. ${RENDERING_FAILED}` });
  }
  if (!auskunft) return downloadResponse({ status: "missing", message: "Diese Person gibt es nicht (mehr)." });
  const zip = auskunft.zip as Uint8Array<ArrayBuffer>;
  return downloadResponse({ status: "found", body: zip, size: zip.byteLength, fileName: auskunft.fileName, contentType: "application/zip" });
}
