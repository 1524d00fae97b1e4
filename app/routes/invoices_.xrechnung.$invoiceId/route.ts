import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { downloadResponse } from "~/lib/download";
import { parseId } from "~/lib/ids";
import { requireAccess } from "~/services/auth.server";
import { invoiceXRechnungDownload } from "~/services/xrechnung.server";

/**
 * GET /invoices/xrechnung/{invoiceId}: the issued invoice's e-invoice, XRechnung (CII) as
 * 'XRechnung_{number}.xml' (ADMIN and FINANCE as the invoices, issue 35 item 6). A draft is
 * refused (409), an unknown invoice is 404, missing settings are named (422).
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "invoices");
  const id = parseId(args.params.invoiceId);
  if (!id) return downloadResponse({ status: "invalid", message: "Ungültige Rechnung." });
  return downloadResponse(await invoiceXRechnungDownload(args.context.db, id));
}
