/**
 * Letters of a bulk run as PDFs in R2 (the Mahnlauf's reminders, the Lastschriftlauf's
 * pre-notifications): one letter stored once under its key, and a finished run's print PDF, its
 * letters to post one after the other, made on the first download and kept.
 */
import type { Db } from "~/db/client.server";
import type { Download } from "~/lib/download";
import { contentDisposition } from "~/lib/file-names";
import type { JobType } from "~/lib/jobs";
import { printDocument } from "~/lib/reminder-letter";
import { getJob, type JobRecord } from "~/models/jobs.server";
import { lazyRenderer } from "~/services/invoice-pdfs.server";
import { RENDERING_FAILED, type PdfRenderer } from "~/services/pdf.server";
import { ItemFailure } from "./item";

/** The letter's PDF: the one stored under its key (a retried message), else rendered and stored
 *  create-only (a file another attempt stored meanwhile is taken, never overwritten). */
export async function letterPdf(env: Env, key: string, html: string, renderer: () => Promise<PdfRenderer>, fileName: string): Promise<Uint8Array> {
  const stored = await env.INVOICES.get(key);
  if (stored) return new Uint8Array(await stored.arrayBuffer());
  let pdf: Uint8Array;
  try {
    pdf = await (await renderer()).render(html);
  } catch (error) {
    console.error("Brief: PDF-Erzeugung fehlgeschlagen", key, error);
    throw new ItemFailure(RENDERING_FAILED);
  }
  await env.INVOICES.put(key, pdf, {
    httpMetadata: { contentType: "application/pdf", contentDisposition: contentDisposition("inline", fileName) },
    customMetadata: { fileName },
    onlyIf: new Headers({ "If-None-Match": "*" }),
  });
  return pdf;
}

/**
 * A finished run's print PDF under `run.key`: the stored one, else `letters` (each a whole letter's
 * HTML, or a Download saying why there are none) rendered as one document and stored create-only.
 * A run under way has none yet (409); a missing template is the club's to fix (404, the letters
 * throw an ItemFailure), the browser failing something to try again (503).
 */
export async function runPrintPdf(
  env: Env,
  db: Db,
  jobId: number,
  run: { type: JobType; name: string; key: string; title: string },
  letters: (job: JobRecord) => Promise<string[] | Download>,
): Promise<Download> {
  const job = await getJob(db, jobId);
  if (!job || job.type !== run.type) return { status: "missing", message: `Diesen ${run.name} gibt es nicht.` };
  if (job.status === "QUEUED" || job.status === "RUNNING") return { status: "conflict", message: `Der ${run.name} ist noch nicht fertig.` };
  const found = (body: BodyInit) => ({ status: "found", body, fileName: run.key, contentType: "application/pdf" }) as const;
  const stored = await env.INVOICES.get(run.key);
  if (stored) return found(stored.body);
  const renderer = lazyRenderer(env);
  try {
    const htmls = await letters(job);
    if (!Array.isArray(htmls)) return htmls;
    const pdf = await letterPdf(env, run.key, printDocument(htmls, run.title), renderer.get, run.key);
    return found(pdf.slice().buffer);
  } catch (error) {
    return error instanceof ItemFailure ? { status: "missing", message: error.message } : { status: "unavailable", message: RENDERING_FAILED };
  } finally {
    await renderer.close();
  }
}
