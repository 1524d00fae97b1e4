import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { contentDisposition } from "~/lib/file-names";
import { parseId } from "~/lib/ids";
import { directDebitFile } from "~/models/direct-debits.server";
import { requireAccess } from "~/services/auth.server";

const failure = (message: string, status: number) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * GET /directdebits/file/{runId}: 'Datei herunterladen', the run's pain.008 file from R2 (ADMIN,
 * FINANCE), as an attachment. Only the key the run names is read, never one from the request.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "directdebits");
  const id = parseId(args.params.runId);
  if (!id) return failure("Ungültiger Lastschriftlauf.", 400);
  const file = await directDebitFile(args.context.cloudflare.env, args.context.db, id);
  if (!file) return failure("Für diesen Lastschriftlauf gibt es keine Datei (noch nicht fertig oder unbekannt).", 404);
  return new Response(file.body, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Content-Disposition": contentDisposition("attachment", file.name),
      // Bank data: the browser may keep it, no shared cache may.
      "Cache-Control": "private, no-store",
    },
  });
}
