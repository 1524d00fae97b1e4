/**
 * File names built from data (a last name, a club's name): safe as a storage key and as a
 * download name, with umlauts kept where the browser can show them.
 */

const TRANSLITERATION: Record<string, string> = { ä: "ae", ö: "oe", ü: "ue", Ä: "Ae", Ö: "Oe", Ü: "Ue", ß: "ss" };

/** Umlauts spelled out (ä → ae), other accents dropped. */
const spelledOut = (name: string) =>
  name
    .replace(/[äöüÄÖÜß]/g, (letter) => TRANSLITERATION[letter])
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "");

/** A name as a file or storage key wants it: umlauts spelled out, accents dropped, only letters, digits and '-'. */
export function asciiFileNamePart(name: string): string {
  return (
    spelledOut(name)
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "Unbekannt"
  );
}

/** The same name for the browser's download: umlauts kept, only what a file name cannot hold
 *  (path separators, quotes, control characters) left out. */
export function readableFileNamePart(name: string): string {
  // Control characters are exactly what is removed.
  // eslint-disable-next-line no-control-regex
  const unwanted = /[\u0000-\u001f\u007f/\\"'<>:|?*%]+/g;
  const cleaned = name.normalize("NFC").replace(unwanted, "").trim();
  return Array.from(cleaned.replace(/\s+/g, "-")).slice(0, 60).join("") || "Unbekannt";
}

/** RFC 6266/5987: an ASCII fallback name for old clients and the UTF-8 one, so 'Müller' stays 'Müller'. */
export function contentDisposition(kind: "inline" | "attachment", fileName: string): string {
  if (/^[A-Za-z0-9._-]+$/.test(fileName)) return `${kind}; filename="${fileName}"`;
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  const fallback = spelledOut(fileName)
    .replace(/[^A-Za-z0-9._]+/g, "-")
    .replace(/-*_-*/g, "_");
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
