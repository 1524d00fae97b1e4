/**
 * The two attachment documents of a mailshot, uploaded with its form and kept in R2 under
 * mailshots/{random}/{file name}. Checked before anything is stored: size and type (by the file's
 * first bytes, not by what the browser claims).
 */
import { MAX_DOCUMENT_BYTES } from "./schema";

const SIGNATURES: { type: string; bytes: number[] }[] = [
  { type: "application/pdf", bytes: [0x25, 0x50, 0x44, 0x46] },
  { type: "image/png", bytes: [0x89, 0x50, 0x4e, 0x47] },
  { type: "image/jpeg", bytes: [0xff, 0xd8, 0xff] },
];

export type Upload = { field: "attachDoc1" | "attachDoc2"; name: string; bytes: Uint8Array; type: string };

/** The file posted in `field`, checked; null when none was chosen. */
export async function readUpload(form: FormData, field: Upload["field"]): Promise<{ upload: Upload | null; error?: string }> {
  const file = form.get(field);
  if (!file || typeof file === "string" || file.size === 0) return { upload: null };
  const name =
    file.name
      .replace(/[\\/\r\n"]+/g, "_")
      .trim()
      .slice(0, 100) || "Anhang";
  if (file.size > MAX_DOCUMENT_BYTES) return { upload: null, error: `Die Datei „${name}“ ist zu groß (höchstens 5 MB).` };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = SIGNATURES.find((signature) => signature.bytes.every((byte, index) => bytes[index] === byte));
  if (!kind) return { upload: null, error: `Die Datei „${name}“ ist kein PDF, PNG oder JPEG.` };
  return { upload: { field, name, bytes, type: kind.type } };
}

export async function storeUpload(bucket: R2Bucket, upload: Upload): Promise<string> {
  const key = `mailshots/${crypto.randomUUID()}/${upload.name}`;
  await bucket.put(key, upload.bytes, { httpMetadata: { contentType: upload.type } });
  return key;
}

/** The file name of a stored document (the key's last part). */
export const documentName = (key: string | null) => (key ? (key.split("/").pop() ?? key) : null);
