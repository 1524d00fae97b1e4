import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { downloadResponse } from "~/lib/download";
import { parseId } from "~/lib/ids";
import { GET_PDF_ERROR, storedInvoicePdf } from "~/services/invoice-pdfs.server";
import { requireAccess } from "~/services/auth.server";

/**
 * GET /invoices/pdf/{invoiceId}: the invoice's PDF from R2 ('PDF anzeigen', ADMIN and FINANCE as
 * the invoices). Only the file the header names is read, never a key from the request. A failure
 * answers a German page starting with 'getPDF error:' (spec 001 §8).
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "invoices");
  const id = parseId(args.params.invoiceId);
  if (!id) return downloadResponse({ status: "invalid", message: `${GET_PDF_ERROR} Ungültige Rechnung.` });
  const pdf = await storedInvoicePdf(args.context.cloudflare.env, args.context.db, id);
  if (pdf.status === "missing") return downloadResponse(pdf);
  return downloadResponse({ status: "found", body: pdf.body, size: pdf.size, fileName: pdf.fileName, contentType: "application/pdf", disposition: "inline" });
}
