/**
 * What the grid kit sends from the server to the browser, and the URL state every grid shares.
 *
 * A grid is declared once on the server (app/grids/<entity>.grid.ts, see
 * app/components/data-grid/declare.ts). Its loader turns the declaration and the rows into
 * GridData: plain, already formatted data, so the browser needs no per-grid code and no
 * formatting library to show any grid.
 */

/** 'phone' and 'email' are text that leads to the phone or mail app (tel:, mailto:). */
export type CellType = "text" | "number" | "date" | "dateTime" | "dateTimeWeekday" | "dateTimeSeconds" | "money" | "checkbox" | "phone" | "email";
export type CellValue = string | number | boolean | null | undefined;

/** Where a cell leads: a dialog on the same page, another page, or a phone/mail app. */
export type CellLink =
  | { dialog: string; id?: number; params?: Record<string, string | number> }
  | { to: string; newTab?: boolean; /** A button copies the address (with JavaScript). */ copy?: boolean };

/** One cell as shown: text (or a checkbox), red when it warns, a link when it leads somewhere. */
export type Cell = string | boolean | { text: string; warn?: boolean; link?: CellLink };

/** A row: its id and the cells of the visible columns, in the order of GridData.visible; `actions`
 *  when the grid's row actions depend on the row (then these are the row's, instead of GridData's). */
/** `muted`: shown greyed (the grid's `rowMuted`, e.g. the waiting list). */
export type GridRow = { id: number; cells: Cell[]; actions?: RowActionData[]; muted?: boolean };

/** A column as the browser needs it: header, alignment, whether the header sorts. */
export type ColumnMeta = {
  id: string;
  header: string;
  align: "left" | "right" | "center";
  sortable: boolean;
  sum: boolean;
  widthRem?: number;
};

export type SortSpec = { id: string; descending: boolean };

/** The columns a grid shows, in the order of `visible` (the chooser's ids); ids the grid does not
 *  have are left out, each column at most once. */
export function shownColumns<Column extends { id: string }>(columns: readonly Column[], visible: readonly string[]): Column[] {
  const byId = new Map(columns.map((column) => [column.id, column]));
  return [...new Set(visible)].flatMap((id) => byId.get(id) ?? []);
}

type ToggleData = { param: string; label: string; options: { value: string; label: string }[]; active: string; fallback: string };

/** A row action: a toolbar button and a context-menu entry with JavaScript, a link without. It
 *  opens a dialog for the row (`params` go into the dialog's URL, e.g. the page's row ids of a
 *  browsing dialog), or is a plain link (a file: a document request, maybe a new tab). */
export type RowActionData = { label: string; dialog: string; params?: Record<string, string> } | { label: string; href: string; newTab?: boolean };

/** The ids of the rows a dialog can step through (Previous/Next), comma-separated in its URL. */
export const DIALOG_LIST_PARAM = "dialogList";

/** The ids a dialog can step through, and where `id` is among them. */
export function browseList(search: URLSearchParams, id: number | null): { previous: number | null; next: number | null; position: number; count: number } {
  const ids = (search.get(DIALOG_LIST_PARAM) ?? "")
    .split(",")
    .map(Number)
    .filter((value) => Number.isSafeInteger(value) && value > 0)
    .slice(0, 500);
  const index = id === null ? -1 : ids.indexOf(id);
  if (index < 0) return { previous: null, next: null, position: 1, count: 1 };
  return { previous: ids[index - 1] ?? null, next: ids[index + 1] ?? null, position: index + 1, count: ids.length };
}

/** Everything a grid pane shows: the kit's <DataGrid> renders it. */
export type GridData = {
  gridId: string;
  title: string;
  /** Heading level: 1 for the grid of a screen, 2 for a grid in a tab. */
  level: 1 | 2;
  prefix: string;
  columns: ColumnMeta[];
  visible: string[];
  rows: GridRow[];
  total: number;
  sums: Record<string, string>;
  page: number;
  pageSize: number;
  sort: SortSpec;
  toggles: ToggleData[];
  search: { value: string; placeholder: string } | null;
  selectedId: number | null;
  /** How a row is selected: a path (parent grids with tabs) or the grid's URL parameter. */
  selection: { kind: "segment"; base: string; tab: string } | { kind: "param" } | { kind: "none" };
  /** The grid's own URL parameters: kept when a row is selected, everything else resets. */
  ownParams: string[];
  /** The dialog entity of the rows ('person'), or null when the user may not change them. */
  entity: string | null;
  /** Dialogs ('person-add'): Hinzufügen; double click and Enter; Löschen. */
  addDialog: string | null;
  /** The add button's label: 'Hinzufügen' unless the grid names its own ('Buchung erfassen'). */
  addLabel: string;
  openDialog: string | null;
  editButton: boolean;
  deleteDialog: string | null;
  /** Parameters every dialog of the grid gets (the parent a CHILD grid is mounted under). */
  dialogParams: Record<string, string>;
  /** The row actions every row offers (rows whose actions depend on them carry their own). */
  rowActions: RowActionData[];
  /** Row actions as buttons in a last column too. */
  commandColumn: boolean;
  /** The Excel download (the grid's own parameters are added). */
  excelHref: string | null;
  columnChooser: boolean;
  refresh: boolean;
  /** Links from the toolbar to another screen (e.g. 'Kontoauszug importieren'), only those the user may open. */
  screenLinks: { label: string; to: string }[];
  /** Group label of each row (rows of a group come together; the server sorts by it). */
  groups: string[] | null;
  emptyText: string;
  maxHeight?: string;
  hint?: string;
};

/** Rows per page: the count and sums always cover all rows, the page only what is shown. */
export const PAGE_SIZE = 50;

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
