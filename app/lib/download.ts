/**
 * The one answer of every file download (an invoice PDF, a Mahnlauf's print PDF, a pain.008 file,
 * an Auskunft, a calendar feed): the file with its name (contentDisposition, umlauts kept) and no
 * shared cache, or a short German text page with the status that fits. A hand-made request (an
 * unknown id, a run not finished yet) gets 400, 404 or 409, never a 500.
 */
import { contentDisposition } from "./file-names";

type DownloadFile = {
  status: "found";
  body: BodyInit;
  fileName: string;
  contentType: string;
  /** Bytes, when known (the browser shows the download's progress). */
  size?: number;
  /** 'inline' opens in the browser (a PDF to look at), 'attachment' saves it (default). */
  disposition?: "inline" | "attachment";
  headers?: Record<string, string>;
};

/** Why there is no file: the id is not one (400), there is none (404), not yet (409), the template
 *  cannot be used (422), or an outside system did not answer (503). */
type DownloadRefusal = { status: "invalid" | "missing" | "conflict" | "unusable" | "unavailable"; message: string };

export type Download = DownloadFile | DownloadRefusal;

const REFUSAL_STATUS: Record<DownloadRefusal["status"], number> = { invalid: 400, missing: 404, conflict: 409, unusable: 422, unavailable: 503 };

/** A refusal as a German text page; never cached, so the next try asks again. */
const refusalResponse = ({ status, message }: DownloadRefusal) =>
  new Response(message, { status: REFUSAL_STATUS[status], headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export function downloadResponse(download: Download): Response {
  if (download.status !== "found") return refusalResponse(download);
  const { body, fileName, contentType, size, disposition = "attachment", headers } = download;
  return new Response(body, {
    headers: {
      "Content-Type": contentType,
      ...(size === undefined ? {} : { "Content-Length": String(size) }),
      "Content-Disposition": contentDisposition(disposition, fileName),
      // Personal or bank data: the browser may keep it, no shared cache may.
      "Cache-Control": "private, no-store",
      ...headers,
    },
  });
}
