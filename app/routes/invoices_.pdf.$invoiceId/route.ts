import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { contentDisposition } from "~/lib/file-names";
import { parseId } from "~/lib/ids";
import { GET_PDF_ERROR, storedInvoicePdf } from "~/services/invoice-pdfs.server";
import { requireAccess } from "~/services/auth.server";

const failure = (message: string, status: number) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * GET /invoices/pdf/{invoiceId}: the invoice's PDF from R2 ('PDF anzeigen', ADMIN and FINANCE as
 * the invoices). Only the file the header names is read, never a key from the request. A failure
 * answers a German page starting with 'getPDF error:' (spec 001 §8).
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "invoices");
  const id = parseId(args.params.invoiceId);
  if (!id) return failure(`${GET_PDF_ERROR} Ungültige Rechnung.`, 400);
  const pdf = await storedInvoicePdf(args.context.cloudflare.env, args.context.db, id);
  if (pdf.status === "missing") return failure(pdf.message, 404);
  return new Response(pdf.body, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.size),
      "Content-Disposition": contentDisposition("inline", pdf.fileName),
      // Personal data: the browser may keep it, no shared cache may.
      "Cache-Control": "private, no-store",
    },
  });
}
