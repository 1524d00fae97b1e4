/**
 * The one place that reads and writes a grid's state in the URL, the same on server and client.
 *
 * A grid's parameters carry its prefix: the People grid (prefix '') uses sort, page, q, filter and
 * sel; the dogs grid under a person (prefix 'dog') uses dogSort, dogPage, dogQ, dogList and dog.
 * The selected row is the grid's selection parameter, or a path segment for a grid whose row has
 * tabs (/people/17/dogs). Selecting another row of a parent grid drops every parameter that is not
 * the parent's own, so the child grids start over (page 1, no selection).
 */
import { parseId } from "./ids";
import type { SortSpec } from "./grid";

/** The longest search text: D1 refuses LIKE patterns over 50 bytes (umlauts take two). */
const MAX_SEARCH_LENGTH = 20;

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** URL parameter names of a grid with this prefix. */
export function gridParamNames(prefix: string) {
  return {
    sort: prefix ? `${prefix}Sort` : "sort",
    page: prefix ? `${prefix}Page` : "page",
    search: prefix ? `${prefix}Q` : "q",
    selected: prefix || "sel",
    toggle: (name: string) => (prefix ? `${prefix}${capitalize(name)}` : name),
  };
}

export type GridStateSpec = {
  prefix: string;
  sortable: readonly string[];
  defaultSort: SortSpec;
  toggles: readonly { param: string; accepts: (value: string) => boolean; fallback: string }[];
  search: boolean;
};

export type GridState = {
  sort: SortSpec;
  page: number;
  toggles: Record<string, string>;
  search: string;
  selectedId: number | null;
};

/** '?sort=lastName' ascending, '?sort=-lastName' descending; unknown keys fall back. */
function parseSort(raw: string | null, allowed: readonly string[], fallback: SortSpec): SortSpec {
  const text = raw ?? "";
  const descending = text.startsWith("-");
  const id = descending ? text.slice(1) : text;
  return allowed.includes(id) ? { id, descending } : fallback;
}

/** Page number (1-based); anything odd is page 1. */
function parsePage(raw: string | null): number {
  const page = Number(raw);
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** Search text, trimmed and bounded (so no input reaches a database limit). */
/** The German answer (400) to a search longer than the search boxes allow: a hand-made request. */
export const SEARCH_TOO_LONG = `Der Suchbegriff ist zu lang: höchstens ${MAX_SEARCH_LENGTH} Zeichen.`;

/** Whether a search (as typed, before trimming) is longer than a search box lets anyone type. */
export const isSearchTooLong = (raw: string | null) => Array.from((raw ?? "").trim()).length > MAX_SEARCH_LENGTH;

export function parseSearchText(raw: string | null): string {
  // By characters, not UTF-16 units: an emoji is never cut in half.
  return Array.from((raw ?? "").trim())
    .slice(0, MAX_SEARCH_LENGTH)
    .join("");
}

export function parseGridState(search: URLSearchParams, spec: GridStateSpec): GridState {
  const names = gridParamNames(spec.prefix);
  const toggles: Record<string, string> = {};
  for (const toggle of spec.toggles) {
    const value = search.get(names.toggle(toggle.param));
    toggles[toggle.param] = value !== null && toggle.accepts(value) ? value : toggle.fallback;
  }
  return {
    sort: parseSort(search.get(names.sort), spec.sortable, spec.defaultSort),
    page: parsePage(search.get(names.page)),
    toggles,
    search: spec.search ? parseSearchText(search.get(names.search)) : "",
    selectedId: parseId(search.get(names.selected)),
  };
}

/** The grid's own parameters (toggle names given without prefix). */
export function ownParamNames(prefix: string, toggleNames: readonly string[], withSearch: boolean): string[] {
  const names = gridParamNames(prefix);
  return [names.sort, names.page, ...(withSearch ? [names.search] : []), ...toggleNames.map(names.toggle)];
}

/** Parameters that exist only while a dialog is open (and the kit's own markers). */
const isDialogParam = (name: string) => name.startsWith("dialog") || name === "index" || name === "_data";

/** The URL's search without the dialog's parameters. */
export function closedSearch(search: string | URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const name of [...next.keys()]) if (isDialogParam(name)) next.delete(name);
  return next;
}

const asSearch = (params: URLSearchParams) => {
  const text = params.toString();
  return text ? `?${text}` : "";
};

/** The same page without any dialog. */
export function closedHref(pathname: string, search: string | URLSearchParams): string {
  return `${pathname}${asSearch(closedSearch(search))}`;
}

/** The page with the dialog `name` ('person-edit') open, keeping everything else. */
export function dialogHref(pathname: string, search: string | URLSearchParams, name: string, params: Record<string, string | number> = {}): string {
  const next = closedSearch(search);
  next.set("dialog", name);
  for (const [key, value] of Object.entries(params)) next.set(key, String(value));
  return `${pathname}?${next}`;
}

/**
 * Many hrefs on one page that each set a few parameters on the same search (a grid's rows: their
 * dialog links and row links): the search is read once, not once per link. The result equals
 * setting each parameter with URLSearchParams.set on a copy of `base`.
 */
export function searchWith(base: URLSearchParams): (changes: Record<string, string>) => string {
  const baseText = base.toString();
  // Rows repeat the same parameters (a dialog's name, the page's ids for browsing): each is encoded once.
  const encoded = new Map<string, string>();
  const pair = (name: string, value: string) => {
    if (FORM_SAFE.test(name) && FORM_SAFE.test(value)) return `${name}=${value}`;
    const key = `${name}\u0000${value}`;
    let text = encoded.get(key);
    if (text === undefined) encoded.set(key, (text = new URLSearchParams([[name, value]]).toString()));
    return text;
  };
  return (changes) => {
    if (Object.keys(changes).some((name) => base.has(name))) {
      const next = new URLSearchParams(base);
      for (const [name, value] of Object.entries(changes)) next.set(name, value);
      return `?${next}`;
    }
    // A name new to the search is appended, as set() would; repeated names in `changes` cannot occur.
    const added = Object.entries(changes)
      .map(([name, value]) => pair(name, value))
      .join("&");
    return `?${baseText}${baseText && added ? "&" : ""}${added}`;
  };
}

/** What application/x-www-form-urlencoded writes as it is (URL Standard: the urlencoded serializer). */
const FORM_SAFE = /^[\w.*-]*$/;

/** dialogHref for many dialogs of one page: the page's search is read once. */
export function dialogHrefs(pathname: string, search: string | URLSearchParams) {
  const withChanges = searchWith(closedSearch(search));
  return (name: string, params: Record<string, string | number> = {}) => {
    const changes: Record<string, string> = { dialog: name };
    for (const [key, value] of Object.entries(params)) changes[key] = String(value);
    return `${pathname}${withChanges(changes)}`;
  };
}

/** The page with this grid's parameters changed; any change but the selection returns to page 1. */
export function gridHref(
  pathname: string,
  search: string | URLSearchParams,
  prefix: string,
  changes: { sort?: string; page?: number; search?: string; toggle?: [string, string | null]; selected?: number | null },
): string {
  const names = gridParamNames(prefix);
  const next = closedSearch(search);
  const set = (name: string, value: string | number | null | undefined) => {
    if (value === null || value === undefined || value === "") next.delete(name);
    else next.set(name, String(value));
  };
  // A page the user chose is written even when it is 1: without it, the page of the selected row
  // (a link to a row on another page opens that page) would win over the user's choice.
  if (changes.page !== undefined) set(names.page, changes.page);
  else if (changes.selected === undefined) next.delete(names.page);
  if (changes.sort !== undefined) set(names.sort, changes.sort);
  if (changes.search !== undefined) set(names.search, changes.search);
  if (changes.toggle) set(names.toggle(changes.toggle[0]), changes.toggle[1]);
  if (changes.selected !== undefined) set(names.selected, changes.selected);
  return `${pathname}${asSearch(next)}`;
}

/** Only the given parameters of a search (a parent grid's own state when its selection changes). */
export function keepOnly(search: string | URLSearchParams, names: readonly string[]): string {
  const source = new URLSearchParams(search);
  const next = new URLSearchParams();
  for (const [name, value] of source) if (names.includes(name)) next.append(name, value);
  return asSearch(next);
}
