import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { downloadResponse } from "~/lib/download";
import { parseId } from "~/lib/ids";
import { requireAccess } from "~/services/auth.server";
import { receiptPdfForDownload } from "~/services/donation-receipts.server";
import { RENDERING_FAILED } from "~/services/pdf.server";

/**
 * GET /donations/receipts/pdf/{receiptId} (ADMIN, FINANCE): a Zuwendungsbestätigung's PDF, the
 * stored Doppel (made and stored now if its making failed when it was issued).
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "donations");
  const id = parseId(args.params.receiptId);
  if (!id) return downloadResponse({ status: "invalid", message: "Ungültige Zuwendungsbestätigung." });
  let pdf;
  try {
    pdf = await receiptPdfForDownload(args.context.cloudflare.env, args.context.db, id);
  } catch (error) {
    console.error("Zuwendungsbestätigung: PDF nicht erzeugt", error);
    return downloadResponse({ status: "unavailable", message: RENDERING_FAILED });
  }
  if (!pdf) return downloadResponse({ status: "missing", message: "Diese Zuwendungsbestätigung gibt es nicht." });
  return downloadResponse({
    status: "found",
    body: pdf.bytes as Uint8Array<ArrayBuffer>,
    size: pdf.bytes.byteLength,
    fileName: `Zuwendungsbestätigung ${pdf.number}.pdf`,
    contentType: "application/pdf",
    disposition: "inline",
  });
}
