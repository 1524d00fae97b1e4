import type { Db } from "~/db/client.server";
import { isSearchTooLong, parseSearchText, SEARCH_TOO_LONG } from "~/lib/grid-state";
import { searchOwners } from "~/models/dogs.server";

/** A choice of a lookup field (a select filled by a search). */
export type LookupOption = { id: number; label: string };

/** URL parameter of a lookup field's search ('dialogSearch.ownerId'): it closes with the dialog. */
const lookupParam = (field: string) => `dialogSearch.${field}`;

/**
 * The options of a lookup field: the current choice (`keep`) first, then what the search typed in
 * the dialog found. The search is a GET form of its own, so it works without JavaScript.
 */
export async function lookupOptions(
  search: URLSearchParams,
  field: string,
  find: (term: string) => Promise<{ id: number; fullName: string | null }[]>,
  keep: LookupOption[],
): Promise<{ term: string; options: LookupOption[] }> {
  const raw = search.get(lookupParam(field));
  if (isSearchTooLong(raw)) throw new Response(SEARCH_TOO_LONG, { status: 400 });
  const term = parseSearchText(raw);
  const found = term ? await find(term) : [];
  const keptIds = new Set(keep.map((option) => option.id));
  return { term, options: [...keep, ...found.filter((row) => !keptIds.has(row.id)).map((row) => ({ id: row.id, label: row.fullName ?? String(row.id) }))] };
}

/** The person lookup of a dialog ('Person suchen'): the person chosen so far, then the people the search found. */
export function personLookup(db: Db, search: URLSearchParams, person: { id: number; fullName: string | null } | undefined) {
  return lookupOptions(search, "personId", (term) => searchOwners(db, term), person ? [{ id: person.id, label: person.fullName ?? String(person.id) }] : []);
}
