import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { debitNoticePrintPdf } from "~/jobs/direct-debit-run.server";
import { downloadResponse } from "~/lib/download";
import { parseId } from "~/lib/ids";
import { requireAccess } from "~/services/auth.server";

/**
 * GET /directdebits/letters/{runId}: 'Vorabankündigungen drucken', the pre-notifications of a
 * finished Lastschriftlauf that go by post (people without an e-mail address, or whose mail
 * failed), one letter each (ADMIN, FINANCE). Made on the first download and kept in R2.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "directdebits");
  const id = parseId(args.params.runId);
  if (!id) return downloadResponse({ status: "invalid", message: "Ungültiger Lastschriftlauf." });
  return downloadResponse(await debitNoticePrintPdf(args.context.cloudflare.env, args.context.db, id));
}
