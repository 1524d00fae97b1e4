/**
 * The declaration of a grid: everything about one list in one place (app/grids/<entity>.grid.ts).
 * The kit's server part (grid.server.ts, routes.server.ts) turns it into loaders, actions and the
 * Excel export for every place the grid is mounted; the browser only ever sees the GridData it
 * produces. Declarations are read on the server only.
 */
import type { Db } from "~/db/client.server";
import type { Area, Permission, User } from "~/lib/access";
import type { CellLink, CellType, CellValue, SortSpec } from "~/lib/grid";

/** The parent types a CHILD grid follows (spec: PERSON, DOG, COURSE, COURSEMASTER, INVOICEHEADER;
 *  and FEE, a fee whose edit dialog shows its child grids: `childGrids` of app/dialogs). */
export const PARENT_TYPES = ["PERSON", "DOG", "COURSE", "COURSEMASTER", "INVOICEHEADER", "FEE"] as const;
export type ParentType = (typeof PARENT_TYPES)[number];
export type Mount = "PARENT" | ParentType;

/** What a list query gets: the URL's state, the parent a CHILD grid is filtered by, the user. */
export type ListQuery = {
  sort: SortSpec;
  page: number;
  pageSize: number;
  toggles: Record<string, string>;
  search: string;
  parent: { type: ParentType; id: number } | null;
  user: User;
};
type ExportQuery = Omit<ListQuery, "page" | "pageSize">;

type ListResult<Row> = { rows: Row[]; total: number; sums?: Record<string, number> };

/** The model functions the kit calls (all queries stay in app/models). */
type GridModel<Row> = {
  list(db: Db, query: ListQuery): Promise<ListResult<Row>>;
  /** The page (1-based) the row is on under this query, or null when the query does not list it. */
  pageOf?(db: Db, id: number, query: ListQuery): Promise<number | null>;
  /** Every row of the query, for the Excel export. */
  all?(db: Db, query: ExportQuery): Promise<Row[]>;
};

export type ColumnDecl<Row> = {
  /** Stable id: the URL's sort key, the column chooser's value and the Excel column. */
  id: string;
  /** German header, as in the grid and the Excel file. */
  header: string;
  /** The raw value (Excel, and the shown text unless `display` says otherwise). */
  value: (row: Row) => CellValue;
  /** How the value is shown and exported; 'phone' and 'email' become tel: and mailto: links. */
  type?: CellType;
  /** Text to show instead of the formatted value. */
  display?: (row: Row) => string;
  /** False for computed columns the database cannot sort by. */
  sortable?: boolean;
  hidden?: boolean;
  /** A footer sum over all filtered rows (the model returns it by column id). */
  sum?: boolean;
  /** Shown in red, e.g. a rabies vaccination that has run out. */
  warn?: (row: Row) => boolean;
  /** The cell leads to a dialog or a page. */
  link?: (row: Row) => CellLink | null;
  /** Left out where the grid is mounted like this (e.g. the owner under a PERSON). */
  omitUnder?: readonly Mount[];
  /** Only for users with this permission: neither shown nor sent to others. */
  requires?: Permission;
  align?: "left" | "right" | "center";
  widthRem?: number;
};

/** A record just saved, as the dialog reports it: toggles may follow it (an archived dog). */
export type SavedRecord = Record<string, unknown>;

export type ToggleDecl = {
  /** URL parameter (prefixed for child grids) and the model's toggles key. */
  param: string;
  /** Accessible name of the group. */
  label: string;
  options: readonly { value: string; label: string }[];
  /** Options read from the data after the fixed ones (e.g. the years courses start in); `accepts`
   *  says which URL values may name one of them. */
  dataOptions?: { accepts: (value: string) => boolean; load: (db: Db) => Promise<{ value: string; label: string }[]> };
  /** Default: the first option; a function for a default that moves (the current year). */
  fallback?: string | (() => string);
  /** After a save, the option the saved record belongs to (so it is shown, selected). */
  follow?: (saved: SavedRecord, current: string) => string | undefined;
  /** Only where the grid is mounted like this (default: everywhere), e.g. the course filters of
   *  the participants on their own screen (PARENT), not under a course, person or dog. */
  mounts?: readonly Mount[];
};

type MountDecl = {
  title: string | ((parent: { name: string }) => string);
  /** URL parameter prefix of a CHILD grid ('dog' -> dogSort, dogPage, dog). */
  prefix?: string;
  /** CSS height of the scrolling area. */
  maxHeight?: string;
  /** A line under the title that tells how the grid is used (e.g. how to restore), or what the
   *  list is about, read with it (e.g. the club's association data over the HSVRM-Liste). */
  hint?: string | ((db: Db, query: ListQuery) => Promise<string | null>);
  /** The sort here, when it differs from the grid's (a person's courses: newest first). */
  defaultSort?: SortSpec;
};

/** A tab under the selected row of a PARENT grid: a child grid, or a placeholder until built. */
export type TabDecl = {
  path: string;
  label: string;
  /** Who may see the tab (besides the screen's own area). */
  area?: Area;
  grid?: AnyGridDecl;
};

/**
 * A row action beyond add/edit/delete (toolbar button for the selected row, context menu, command
 * column; a link without JavaScript): a dialog for the row, or a plain link such as a file.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- declared per grid with its row type
export type RowActionDecl<Row = any> = {
  label: string;
  /** A dialog view for the row: of the rows' own entity ('addrow': invoice-addrow), or of
   *  another dialog folder named by `entity` ('paymentLink' + 'create': paymentLink-create). */
  view?: string;
  entity?: string;
  /** A plain link instead of a dialog (a file or a page), from the row; in a new tab if newTab. */
  href?: (row: Row) => string;
  newTab?: boolean;
  /** Offered only for rows where this holds (e.g. 'PDF anzeigen' only with a PDF). */
  when?: (row: Row) => boolean;
  /** Offered only where the grid is mounted like this (e.g. only on its own screen: PARENT). */
  mounts?: readonly Mount[];
  /** A dialog of another folder or a link: for the users of this area (default: the grid's). */
  area?: Area;
  /** The dialog also gets the ids of the rows on the grid's page (`dialogList`), so it can step
   *  to the previous and next record of the list it was opened from. */
  browse?: boolean;
};

export type GridDecl<Row extends { id: number }> = {
  /** Key of the user's column choice and the grid's accessible name stem. */
  id: string;
  /** The dialog folder of the rows' entity (app/dialogs/<entity>), or null when rows are read-only. */
  entity: string | null;
  /** Who may see the grid (app/lib/access.ts). */
  area: Area;
  columns: readonly ColumnDecl<Row>[];
  toggles?: readonly ToggleDecl[];
  search?: { placeholder: string };
  defaultSort: SortSpec;
  /** Where the grid can be mounted: PARENT (its own screen) and under which parents. */
  mounts: Partial<Record<Mount, MountDecl>>;
  model: GridModel<Row>;
  /** Toolbar and double click: which dialogs the rows offer. Default: add, edit, delete. */
  dialogs?: { add?: boolean; edit?: boolean; delete?: boolean; open?: string; /** The add button's label (default 'Hinzufügen'). */ addLabel?: string };
  rowActions?: readonly RowActionDecl<Row>[];
  /** Rows shown greyed and in italics (e.g. participants on the waiting list: listed, not counted). */
  rowMuted?: (row: Row) => boolean;
  /** Row actions also as a column of buttons on every row. */
  commandColumn?: boolean;
  /** The Excel download at `path` (a route with exportLoader); under a parent it gets ?parent=TYPE:id.
   *  A file name may depend on the data (the club and the year of a list). */
  excel?: { fileName: string | ((db: Db, query: ExportQuery) => Promise<string>); sheet: string; path: string };
  columnChooser?: boolean;
  refresh?: boolean;
  /** Toolbar links to another screen (a plain link, also without JavaScript), for the users of
   *  its area and only where the grid is mounted as named (default: everywhere). */
  screenLinks?: readonly { label: string; to: string; area: Area; mounts?: readonly Mount[] }[];
  /** False: rows are only read, never selected (no child grid follows them). */
  selectable?: boolean;
  /** Group label of a row where the grid is its own screen (PARENT); the model sorts by it first. */
  groupBy?: (row: Row) => string;
  emptyText: string;
  pageSize?: number;
  /** A PARENT grid whose rows have tabs: the parent type its rows are, their label, the tabs. */
  rows?: {
    parentType: ParentType;
    label: (db: Db, id: number) => Promise<string | undefined>;
    /** The same label from a row the grid already loaded (spares the query). */
    rowLabel: (row: Row) => string;
    tabsLabel: (name: string) => string;
    tabs: readonly TabDecl[];
    defaultTab: string;
    /** A link into the list from elsewhere (?selectedCourseId=17): the screen opens that row, with
     *  the toggles set so that it is listed (`follow` reads what the toggles follow). */
    linkParam?: { name: string; follow: (db: Db, id: number) => Promise<SavedRecord | undefined> };
  };
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of grids of any row type
export type AnyGridDecl = GridDecl<any>;

/** Declares a grid (identity: for type inference of the row type). */
export function defineGrid<Row extends { id: number }>(grid: GridDecl<Row>): GridDecl<Row> {
  return grid;
}
