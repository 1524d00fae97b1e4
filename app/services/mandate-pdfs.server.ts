/**
 * The PDF of a SEPA mandate given online (issue 32 item 4): rendered from the mandate as it was
 * confirmed (app/lib/mandate-document.ts) through Browser Rendering, stored in R2 (bucket PAPERS,
 * 'mandates/{reference}.pdf', create-only: a stored mandate is never overwritten) and named on the
 * mandate. Right after the confirmation, and by the daily cron for any whose rendering failed. The
 * browser is opened only when there is something to render.
 */
import type { Db } from "~/db/client.server";
import { mandateDocumentHtml, mandateFileName } from "~/lib/mandate-document";
import { mandateDocumentData, mandatesWithoutDocument, setMandateDocument } from "~/models/portal-mandates.server";
import { lazyRenderer } from "./invoice-pdfs.server";

type PdfEnv = Pick<Env, "BROWSER" | "PAPERS">;

async function storeWith(renderer: ReturnType<typeof lazyRenderer>, env: PdfEnv, db: Db, mandateId: number): Promise<boolean> {
  const data = await mandateDocumentData(db, mandateId);
  if (!data || data.documentKey) return false;
  const key = `mandates/${data.reference}.pdf`;
  // Stored already by an attempt that could not name it: that file is the document.
  if (!(await env.PAPERS.head(key))) {
    const pdf = await (await renderer.get()).render(mandateDocumentHtml(data));
    await env.PAPERS.put(key, pdf, {
      onlyIf: new Headers({ "If-None-Match": "*" }),
      httpMetadata: { contentType: "application/pdf" },
      customMetadata: { fileName: mandateFileName(data.reference) },
    });
  }
  await setMandateDocument(db, mandateId, key);
  return true;
}

/** Stores the PDF of the mandates given online (one after its confirmation; the cron's missing ones). */
async function storeMandatePdfs(env: PdfEnv, db: Db, mandateIds: readonly number[]): Promise<number> {
  const renderer = lazyRenderer(env);
  try {
    let stored = 0;
    for (const id of mandateIds) if (await storeWith(renderer, env, db, id)) stored += 1;
    return stored;
  } finally {
    await renderer.close();
  }
}

export const storeMandatePdf = (env: PdfEnv, db: Db, mandateId: number) => storeMandatePdfs(env, db, [mandateId]);

/** The daily cron: the PDFs that are missing (their rendering failed after the confirmation). */
export const storeMissingMandatePdfs = async (env: PdfEnv, db: Db) => storeMandatePdfs(env, db, await mandatesWithoutDocument(db));
