/**
 * A dog's paper as a download, for its owner in Mein Wuff and for staff alike: always an
 * attachment (never shown inline by the app's origin), its type as read from its bytes, no
 * sniffing, and a CSP that sandboxes it should a browser open it anyway.
 */
import { downloadResponse } from "~/lib/download";
import type { PaperFile } from "~/models/dog-papers.server";

export async function paperDownload(bucket: R2Bucket, file: PaperFile | undefined): Promise<Response> {
  if (!file) return downloadResponse({ status: "missing", message: "Diesen Nachweis gibt es nicht." });
  const object = await bucket.get(file.objectKey);
  if (!object) return downloadResponse({ status: "missing", message: "Die Datei dieses Nachweises ist nicht mehr im Speicher." });
  return downloadResponse({
    status: "found",
    body: object.body,
    fileName: file.fileName,
    contentType: file.contentType,
    size: object.size,
    disposition: "attachment",
    headers: { "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "sandbox; default-src 'none'" },
  });
}
