/** Text searches with LIKE, within what D1 accepts. */

/** D1 refuses LIKE patterns longer than 50 bytes ("LIKE or GLOB pattern too complex"). */
const MAX_LIKE_PATTERN_BYTES = 50;
const encoder = new TextEncoder();

/**
 * `%term%` for a LIKE that finds the term anywhere, or null for an empty term. Wildcards typed by
 * the user are dropped, and the term is cut by whole characters until the pattern fits D1's limit
 * whatever the letters (an umlaut takes two bytes, an emoji four).
 */
export function containsPattern(term: string): string | null {
  const characters = Array.from(term.trim().replace(/[%_\\]/g, ""));
  while (characters.length > 0 && encoder.encode(`%${characters.join("")}%`).length > MAX_LIKE_PATTERN_BYTES) characters.pop();
  return characters.length > 0 ? `%${characters.join("")}%` : null;
}
