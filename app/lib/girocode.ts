/**
 * The GiroCode (EPC QR code, EPC069-12 version 002): a credit transfer a banking app reads by
 * scanning it. The payload names the club's account, the amount and the reference 'ReNr {n}'; the
 * code is drawn by `qr` (pure JavaScript) as an SVG (the invoice PDF) or as a PNG (mails: encoded
 * here with fflate's zlib, as workerd has no canvas). Pure: no fetch, no Node built-ins.
 */
import { zlibSync } from "fflate";
import encodeQR from "qr";

/** The largest amount a GiroCode may carry: 999.999.999,99 €. */
const GIROCODE_MAX_CENTS = 99_999_999_999;

export type GiroCodeInput = {
  /** The beneficiary's name (the account holder; at most 70 characters, longer is cut). */
  name: string;
  iban: string;
  /** Optional in version 002 within the EEA. */
  bic: string | null;
  /** The amount in cents: more than 0 and at most 999.999.999,99 €. */
  amount: number;
  /** Unstructured remittance information, e.g. 'ReNr 2026001' (at most 140 characters). */
  remittance: string;
};

/** Line breaks and surrounding spaces would break the payload's lines. */
const oneLine = (value: string, max: number) =>
  value
    .replace(/[\r\n]+/g, " ")
    .trim()
    .slice(0, max);

/**
 * The EPC payload (lines joined by LF: service tag BCD, version 002, character set 1 = UTF-8,
 * SCT, BIC, name, IBAN, 'EUR' + amount, purpose, structured reference, remittance text), or null
 * when no code can be made: no IBAN or name, or an amount outside 0,01 € … 999.999.999,99 €.
 */
export function epcPayload(input: GiroCodeInput): string | null {
  const iban = input.iban.replace(/\s+/g, "").toUpperCase();
  const name = oneLine(input.name, 70);
  if (!iban || !name || !Number.isInteger(input.amount) || input.amount <= 0 || input.amount > GIROCODE_MAX_CENTS) return null;
  const amount = `EUR${Math.floor(input.amount / 100)}.${String(input.amount % 100).padStart(2, "0")}`;
  const bic = (input.bic ?? "").replace(/\s+/g, "").toUpperCase();
  return ["BCD", "002", "1", "SCT", bic, name, iban, amount, "", "", oneLine(input.remittance, 140)].join("\n");
}

/** The error correction the EPC guideline asks for (M, 15 %) and the quiet zone of four modules. */
const QR_OPTIONS = { ecc: "medium", encoding: "byte", border: 4 } as const;

/** The code as an inline SVG (no fetch): black modules on white, scaled by its container. */
export function girocodeSvg(payload: string, sizeMm = 35): string {
  const svg = encodeQR(payload, "svg", QR_OPTIONS);
  return svg.replace(
    "<svg ",
    `<svg role="img" aria-label="GiroCode" width="${sizeMm}mm" height="${sizeMm}mm" shape-rendering="crispEdges" style="background:#fff" `,
  );
}

// ---------------------------------------------------------------------------------------------
// PNG (for mails: an image every mail client shows, attached with a Content-ID)

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  const typed = new TextEncoder().encode(type);
  out.set(typed, 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A black-and-white matrix as an 8-bit greyscale PNG, `scale` pixels per module. */
function matrixToPng(matrix: boolean[][], scale = 6): Uint8Array {
  const size = matrix.length * scale;
  const raw = new Uint8Array(size * (size + 1));
  for (let y = 0; y < size; y++) {
    const row = matrix[Math.floor(y / scale)];
    raw[y * (size + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) raw[y * (size + 1) + 1 + x] = row[Math.floor(x / scale)] ? 0 : 255;
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header.set([8, 0, 0, 0, 0], 8); // 8 bits, greyscale, deflate, no filter, not interlaced
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlibSync(raw, { level: 9 })),
    chunk("IEND", new Uint8Array()),
  ];
  const png = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    png.set(part, offset);
    offset += part.length;
  }
  return png;
}

/** The code as a PNG (about 300 px square). */
export const girocodePng = (payload: string): Uint8Array => matrixToPng(encodeQR(payload, "raw", QR_OPTIONS), 6);
