import { or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { nameSearchKey, nameSearchKeySql } from "~/lib/collation";

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

/** `nameSearchKeySql` around an SQL expression (one that is a name's sort key). */
function searchKeyOf(sortKey: SQL): SQL {
  const [before, after] = nameSearchKeySql("\u0000").split("\u0000");
  return sql`${sql.raw(before)}${sortKey}${sql.raw(after)}`;
}

/**
 * A name search (DIN 5007: umlauts and ß found either way, any case): whether one of the names,
 * each given as SQL over stored sort keys (people.last_name_key || ' ' || people.first_name_key),
 * contains the term. Undefined for an empty term (no condition). The grids' toolbar search and the
 * phone lists use it alike.
 */
export function nameMatches(term: string, names: readonly SQL[]): SQL | undefined {
  const pattern = containsPattern(nameSearchKey(term));
  if (!pattern) return undefined;
  return or(...names.map((name) => sql`${searchKeyOf(name)} LIKE ${pattern}`));
}

/** A person's name as people search it: 'Anna Müller', 'Müller Anna' and 'Müller, Anna'. */
export const personNames = (table: { firstNameKey: AnyColumn; lastNameKey: AnyColumn }): SQL[] => [
  sql`${table.firstNameKey} || ' ' || ${table.lastNameKey}`,
  sql`${table.lastNameKey} || ' ' || ${table.firstNameKey}`,
  sql`${table.lastNameKey} || ', ' || ${table.firstNameKey}`,
];
