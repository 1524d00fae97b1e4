/**
 * The PDFs of Zuwendungsbestätigungen (issue 35 item 5): made through Browser Rendering when a
 * receipt is issued and stored in R2 as the Doppel the club keeps (§ 50 Abs. 7 EStDV). If the
 * browser cannot be reached then, the receipt stands without its PDF and the first download makes
 * it from the receipt as issued (the same text: nothing of it can change).
 */
import type { Db } from "~/db/client.server";
import { receiptPdf } from "~/models/donations.server";
import { PdfRenderer, withPdfRenderer } from "./pdf.server";

/** Stores the PDF of each receipt just issued with one browser; '' or a German note when it could not. */
export async function storeReceiptPdfs(env: Env, db: Db, receipts: { id: number }[]): Promise<string> {
  if (receipts.length === 0) return "";
  try {
    await withPdfRenderer(env, async (renderer) => {
      for (const receipt of receipts) await receiptPdf(env, db, receipt.id, (html) => renderer.render(html));
    });
    return "";
  } catch (error) {
    console.error("Zuwendungsbestätigung: PDF nicht erzeugt", error);
    return " Das PDF wird beim ersten Öffnen erzeugt (Browser Rendering gerade nicht erreichbar).";
  }
}

/** A receipt's PDF for download: the stored one, else made now (a browser only then). */
export async function receiptPdfForDownload(env: Env, db: Db, id: number) {
  let renderer: PdfRenderer | null = null;
  try {
    return await receiptPdf(env, db, id, async (html) => {
      renderer = await PdfRenderer.open(env);
      return renderer.render(html);
    });
  } finally {
    await (renderer as PdfRenderer | null)?.close();
  }
}
