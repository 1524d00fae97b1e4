/** Bytes as text, without Node's Buffer (workerd): for mail attachments, tokens and hashes. */

/** Base64 of bytes, in slices: String.fromCharCode(...all) overflows the stack on large files. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}

/** Base64url without padding (RFC 4648 §5): safe in URLs and cookies. */
const toBase64Url = (bytes: Uint8Array) => toBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

/** Lower-case hexadecimal. */
export const toHex = (bytes: ArrayBuffer | Uint8Array) => Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");

/** The SHA-256 of a text, base64url: what D1 keeps instead of a secret (session ids, tokens). */
export async function sha256Base64Url(text: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

/** 32 random bytes, base64url: a session id or a link's token. */
export const randomToken = () => toBase64Url(crypto.getRandomValues(new Uint8Array(32)));

/** The SHA-256 of a stored document, as lowercase hex. */
export async function sha256Hex(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
}
