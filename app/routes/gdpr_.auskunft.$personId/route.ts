import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { contentDisposition } from "~/lib/file-names";
import { parseId } from "~/lib/ids";
import { getConfiguration } from "~/models/configuration.server";
import { buildAuskunft } from "~/services/auskunft.server";
import { requireAccess } from "~/services/auth.server";
import { RENDERING_FAILED } from "~/services/pdf.server";

const failure = (message: string, status: number) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * GET /gdpr/auskunft/{personId} (ADMIN, GDPR): the person's Auskunft (GDPR Art. 15) as one zip,
 * `Auskunft-{Nachname}-{Vorname}-{Datum}.zip`, with auskunft.json, auskunft.pdf and the invoice PDFs.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "gdpr");
  const id = parseId(args.params.personId);
  if (!id) return failure("Ungültige Person.", 400);
  const { env } = args.context.cloudflare;
  const club = await getConfiguration(args.context.db);
  let auskunft;
  try {
    auskunft = await buildAuskunft(env, args.context.db, id, club?.clubName ?? null);
  } catch (error) {
    console.error("Auskunft fehlgeschlagen", id, error);
    return failure(`Die Auskunft konnte nicht erstellt werden. ${RENDERING_FAILED}`, 503);
  }
  if (!auskunft) return failure("Diese Person gibt es nicht (mehr).", 404);
  return new Response(auskunft.zip as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(auskunft.zip.byteLength),
      "Content-Disposition": contentDisposition("attachment", auskunft.fileName),
      // Personal data: no shared cache may keep it.
      "Cache-Control": "private, no-store",
    },
  });
}
