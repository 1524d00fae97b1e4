import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { downloadResponse } from "~/lib/download";
import { parseId } from "~/lib/ids";
import { directDebitFile } from "~/models/direct-debits.server";
import { requireAccess } from "~/services/auth.server";

/**
 * GET /directdebits/file/{runId}: 'Datei herunterladen', the run's pain.008 file from R2 (ADMIN,
 * FINANCE), as an attachment. Only the key the run names is read, never one from the request.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "directdebits");
  const id = parseId(args.params.runId);
  if (!id) return downloadResponse({ status: "invalid", message: "Ungültiger Lastschriftlauf." });
  const file = await directDebitFile(args.context.cloudflare.env, args.context.db, id);
  if (!file) return downloadResponse({ status: "missing", message: "Für diesen Lastschriftlauf gibt es keine Datei (noch nicht fertig oder unbekannt)." });
  return downloadResponse({ status: "found", body: file.body, fileName: file.name, contentType: "application/xml; charset=utf-8" });
}
