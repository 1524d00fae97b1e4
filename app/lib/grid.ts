/**
 * What every grid shares, on the server and in the browser: column definitions (plain data, so
 * the grid, the server's sort whitelist and the Excel export read the same list) and the URL
 * state (sort, page) that the database acts on.
 */

export type CellType = "text" | "number" | "date" | "dateTime" | "dateTimeWeekday" | "dateTimeSeconds" | "money" | "checkbox";
export type CellValue = string | number | boolean | null | undefined;

export type GridColumn<Row> = {
  /** Stable id: the URL's sort key, the column chooser's value and the Excel column. */
  id: string;
  /** German header, as in the grid and the Excel file. */
  header: string;
  value: (row: Row) => CellValue;
  type?: CellType;
  /** False for computed columns the database cannot sort by. */
  sortable?: boolean;
  hiddenByDefault?: boolean;
  /** A footer sum over all filtered rows (the loader supplies it by column id). */
  sum?: boolean;
  /** Shown in red, e.g. a rabies vaccination that has run out. */
  warn?: (row: Row) => boolean;
  /** The cell links here (e.g. the owner opens the person dialog). */
  href?: (row: Row, search: URLSearchParams) => string | null;
  /** Alignment and width hints. */
  align?: "left" | "right" | "center";
  widthRem?: number;
};

export type SortSpec = { id: string; descending: boolean };

/** Rows per page: the count and sums always cover all rows, the page only what is shown. */
export const PAGE_SIZE = 100;

/** URL parameter names of a grid: 'sort' and 'page', or e.g. 'dogSort' and 'dogPage' for a child
 *  grid that shares the URL with its parent. */
export const gridParams = (prefix = "") => ({
  sort: prefix ? `${prefix}Sort` : "sort",
  page: prefix ? `${prefix}Page` : "page",
});

/** '?sort=lastName' ascending, '?sort=-lastName' descending; unknown keys fall back. */
export function parseSort(search: URLSearchParams, allowed: readonly string[], fallback: SortSpec, prefix = ""): SortSpec {
  const raw = search.get(gridParams(prefix).sort) ?? "";
  const descending = raw.startsWith("-");
  const id = descending ? raw.slice(1) : raw;
  return allowed.includes(id) ? { id, descending } : fallback;
}

export function formatSort(sort: SortSpec): string {
  return `${sort.descending ? "-" : ""}${sort.id}`;
}

/** Page number from '?page=' (1-based); anything odd is page 1. */
export function parsePage(search: URLSearchParams, prefix = ""): number {
  const page = Number(search.get(gridParams(prefix).page));
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** One of the allowed values of a toggle parameter, else the default. */
export function parseChoice<T extends string>(search: URLSearchParams, name: string, allowed: readonly T[], fallback: T): T {
  const value = search.get(name);
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/** The same search with some parameters set (string) or removed (null). */
export function withSearch(search: URLSearchParams | string, changes: Record<string, string | number | null | undefined>): string {
  const next = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === "") next.delete(key);
    else next.set(key, String(value));
  }
  const text = next.toString();
  return text ? `?${text}` : "";
}

/** The columns to show: the user's choice if there is one, else the defaults. */
export function visibleColumnIds<Row>(columns: GridColumn<Row>[], chosen: string[] | null): string[] {
  if (chosen) {
    const known = new Set(columns.map((column) => column.id));
    const kept = chosen.filter((id) => known.has(id));
    if (kept.length > 0) return kept;
  }
  return columns.filter((column) => !column.hiddenByDefault).map((column) => column.id);
}

/** Sortable column ids: the whitelist the server accepts in '?sort='. */
export const sortableIds = <Row>(columns: GridColumn<Row>[]) =>
  columns.filter((column) => column.sortable !== false).map((column) => column.id);
