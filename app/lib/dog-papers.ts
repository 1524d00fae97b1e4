/**
 * A dog's papers in Mein Wuff (issue 32 item 3): the proofs Wuff warns about, the rabies
 * vaccination and the liability insurance. A member uploads a document with the dates it proves;
 * the dates count only once staff confirmed the document.
 *
 * The file's type is read from its first bytes, never from its name or the browser's word: only a
 * PDF, JPEG or PNG is taken, and it is served back only as a download (Content-Disposition:
 * attachment, nosniff, a sandboxing CSP), so no upload can run as a page of the app's origin.
 */

export const DOG_PAPER_KINDS = ["RABIES", "INSURANCE"] as const;
export type DogPaperKind = (typeof DOG_PAPER_KINDS)[number];

export const DOG_PAPER_LABELS: Record<DogPaperKind, string> = {
  RABIES: "Tollwutimpfung",
  INSURANCE: "Haftpflichtversicherung",
};

export const DOG_PAPER_STATUSES = ["PENDING", "CONFIRMED", "DECLINED"] as const;
export type DogPaperStatus = (typeof DOG_PAPER_STATUSES)[number];

export const DOG_PAPER_STATUS_LABELS: Record<DogPaperStatus, string> = {
  PENDING: "wird geprüft",
  CONFIRMED: "bestätigt",
  DECLINED: "abgelehnt",
};

/** 10 MB, as the issue allows. */
export const MAX_PAPER_BYTES = 10 * 1024 * 1024;

export const PAPER_CONTENT_TYPES = ["application/pdf", "image/jpeg", "image/png"] as const;
export type PaperContentType = (typeof PAPER_CONTENT_TYPES)[number];

const SIGNATURES: { type: PaperContentType; bytes: number[] }[] = [
  { type: "application/pdf", bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { type: "image/jpeg", bytes: [0xff, 0xd8, 0xff] },
  { type: "image/png", bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
];

/** The file's type by its first bytes (its signature), or null for anything else. */
export function paperContentType(head: Uint8Array): PaperContentType | null {
  return SIGNATURES.find(({ bytes }) => bytes.every((byte, index) => head[index] === byte))?.type ?? null;
}

export const PAPER_EXTENSIONS: Record<PaperContentType, string> = { "application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png" };

/** The name a paper is downloaded as: the upload's name of letters, digits, dash and underscore
 *  (umlauts kept, contentDisposition encodes them), with the extension its content has, whatever
 *  the upload was called. */
export function safePaperFileName(name: string, type: PaperContentType): string {
  const base =
    name
      .replace(/\.[^.]*$/, "")
      .normalize("NFC")
      .replace(/[^\p{L}\p{N}_-]+/gu, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "nachweis";
  return `${base}.${PAPER_EXTENSIONS[type]}`;
}

export const PAPER_TOO_LARGE = "Die Datei ist zu groß (höchstens 10 MB).";
export const PAPER_WRONG_TYPE = "Bitte ein PDF, JPEG oder PNG hochladen.";
export const PAPER_MISSING = "Bitte eine Datei auswählen.";
