/**
 * The grid kit on the server: from a declaration and the URL to the GridData a pane shows, the
 * list query a model answers, the Excel file, and where the browser goes after a dialog changed a
 * row (the row selected, on its page, in the toggle it now belongs to).
 */
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { may, mayUse, type User } from "~/lib/access";
import { gridToXlsx, xlsxResponse } from "~/lib/excel.server";
import { formatDate, formatDateTime, formatDateTimeWithSeconds, formatDateTimeWithWeekday, formatMoney, formatNumber, mailtoHref, telHref } from "~/lib/format";
import {
  DIALOG_LIST_PARAM,
  PAGE_SIZE,
  type Cell,
  type CellLink,
  type CellType,
  type CellValue,
  type ColumnMeta,
  type GridData,
  type RowActionData,
} from "~/lib/grid";
import { gridParamNames, isSearchTooLong, ownParamNames, parseGridState, SEARCH_TOO_LONG, type GridState, type GridStateSpec } from "~/lib/grid-state";
import { getGridColumns } from "~/models/preferences.server";
import type { Db } from "~/db/client.server";
import { parseId } from "~/lib/ids";
import type { AnyGridDecl, ColumnDecl, ListQuery, Mount, ParentType, RowActionDecl, SavedRecord, ToggleDecl } from "./declare";

/** A value shown as text the German way (or a checkbox). */
function formatValue(type: CellType | undefined, value: CellValue): string | boolean {
  if (type === "checkbox") return Boolean(value);
  if (value === null || value === undefined || value === "") return "";
  switch (type) {
    case "date":
      return formatDate(String(value));
    case "dateTime":
      return formatDateTime(String(value));
    case "dateTimeWeekday":
      return formatDateTimeWithWeekday(String(value));
    case "dateTimeSeconds":
      return formatDateTimeWithSeconds(String(value));
    case "money":
      return formatMoney(Number(value));
    case "number":
      return formatNumber(Number(value));
    default:
      return String(value);
  }
}

/** A phone number or e-mail address leads to the phone or mail app. */
function contactLink(type: CellType | undefined, value: CellValue): CellLink | null {
  const href = type === "phone" ? telHref(String(value ?? "")) : type === "email" ? mailtoHref(String(value ?? "")) : null;
  return href ? { to: href } : null;
}

function toCell<Row>(column: ColumnDecl<Row>, row: Row): Cell {
  const value = column.value(row);
  const shown = column.display ? column.display(row) : formatValue(column.type, value);
  const warn = column.warn?.(row) ?? false;
  const link = column.link?.(row) ?? contactLink(column.type, value);
  if (!warn && !link) return shown;
  return { text: String(shown), ...(warn ? { warn } : {}), ...(link ? { link } : {}) };
}

const alignment = <Row>(column: ColumnDecl<Row>) =>
  column.align ?? (column.type === "money" || column.type === "number" ? "right" : column.type === "checkbox" ? "center" : "left");

/** The columns of a grid where it is mounted, for this user (context and permission rules). */
function columnsFor<Row>(grid: { columns: readonly ColumnDecl<Row>[] }, mount: Mount, user: User | null): ColumnDecl<Row>[] {
  return grid.columns.filter((column) => !column.omitUnder?.includes(mount) && (!column.requires || may(user, column.requires)));
}

/** The columns to show: the user's choice if there is one, else the defaults. */
function visibleColumnIds<Row>(columns: readonly ColumnDecl<Row>[], chosen: string[] | null): string[] {
  if (chosen) {
    const known = new Set(columns.map((column) => column.id));
    const kept = chosen.filter((id) => known.has(id));
    if (kept.length > 0) return kept;
  }
  return columns.filter((column) => !column.hidden).map((column) => column.id);
}

export const prefixOf = (grid: AnyGridDecl, mount: Mount) => grid.mounts[mount]?.prefix ?? "";

/** The option a toggle has when the URL names none (a function: a default that moves, e.g. the year). */
export const toggleFallback = (toggle: ToggleDecl) =>
  typeof toggle.fallback === "function" ? toggle.fallback() : (toggle.fallback ?? toggle.options[0].value);

const toggleAccepts = (toggle: ToggleDecl) => (value: string) =>
  toggle.options.some((option) => option.value === value) || (toggle.dataOptions?.accepts(value) ?? false);

/** A toggle's options: the fixed ones, those the data has, and the active one (even when no row has it). */
async function toggleOptions(db: Db, toggle: ToggleDecl, active: string) {
  const options = [...toggle.options, ...(toggle.dataOptions ? await toggle.dataOptions.load(db) : [])];
  return options.some((option) => option.value === active) ? options : [...options, { value: active, label: active }];
}

/** The toggles of the grid where it is mounted like this. */
export const togglesAt = (grid: AnyGridDecl, mount: Mount): readonly ToggleDecl[] =>
  (grid.toggles ?? []).filter((toggle) => !toggle.mounts || toggle.mounts.includes(mount));

function stateSpec(grid: AnyGridDecl, mount: Mount, columns: readonly ColumnDecl<unknown>[]): GridStateSpec {
  return {
    prefix: prefixOf(grid, mount),
    sortable: columns.filter((column) => column.sortable !== false).map((column) => column.id),
    defaultSort: grid.mounts[mount]?.defaultSort ?? grid.defaultSort,
    toggles: togglesAt(grid, mount).map((toggle) => ({ param: toggle.param, accepts: toggleAccepts(toggle), fallback: toggleFallback(toggle) })),
    search: Boolean(grid.search),
  };
}

const gridOwnParams = (grid: AnyGridDecl, mount: Mount) =>
  ownParamNames(
    prefixOf(grid, mount),
    togglesAt(grid, mount).map((toggle) => toggle.param),
    Boolean(grid.search),
  );

/** Per request, once: several loaders of one request ask for the same data. */
export function once<T>(context: AppLoadContext, key: string, load: () => Promise<T>): Promise<T> {
  const cache = (context.requestCache ??= new Map<string, Promise<unknown>>());
  let value = cache.get(key) as Promise<T> | undefined;
  if (!value) {
    value = load();
    cache.set(key, value);
  }
  return value;
}

/** The label of a parent grid's row (the tabs' titles), once per request. */
export const rowLabelOnce = (context: AppLoadContext, grid: AnyGridDecl, id: number, load: () => Promise<string | undefined>) =>
  once(context, `label:${grid.id}:${id}`, load);

/** The row a CHILD grid follows; its name may still be loading (it goes to D1 with the list). */
export type Parent = { type: ParentType; id: number; name: string | Promise<string | undefined> };

/** Where a grid is shown: its mount, the parent row it follows, and how its rows are selected. */
export type Placement = {
  mount: Mount;
  parent: Parent | null;
  level: 1 | 2;
  /** segment: the selected row is a path segment (the row has tabs); the id comes from the path. */
  selection: { kind: "segment"; base: string; tab: string; selectedId: number | null } | { kind: "param" } | { kind: "none" };
};

type GridArgs = { request: Request; context: AppLoadContext };

/** A CHILD grid under its parent row: in a tab, in the parent's dialog (the reminders of a fee), or
 *  on a page that chooses the parent itself (the Kursblatt). */
export const childPlacement = (grid: AnyGridDecl, parent: Parent): Placement => ({
  mount: parent.type,
  parent,
  level: 2,
  selection: grid.selectable === false ? { kind: "none" } : { kind: "param" },
});

function listQuery(grid: AnyGridDecl, state: GridState, placement: Placement, user: User): ListQuery {
  return {
    sort: state.sort,
    page: state.page,
    pageSize: grid.pageSize ?? PAGE_SIZE,
    toggles: state.toggles,
    search: state.search,
    parent: placement.parent ? { type: placement.parent.type, id: placement.parent.id } : null,
    user,
  };
}

/** The grid's query as the URL states it (for lists, exports and finding a row's page). */
function queryFromUrl(grid: AnyGridDecl, placement: Placement, search: URLSearchParams, user: User) {
  const columns = columnsFor(grid, placement.mount, user);
  if (grid.search && isSearchTooLong(search.get(gridParamNames(prefixOf(grid, placement.mount)).search))) {
    throw new Response(SEARCH_TOO_LONG, { status: 400 });
  }
  const state = parseGridState(search, stateSpec(grid, placement.mount, columns));
  return { columns, state, query: listQuery(grid, state, placement, user) };
}

/**
 * A link that names a row but no page (a bookmark, a link from elsewhere) opens the page the row
 * is on, so it is shown selected with its actions. Costs a query only when the row is elsewhere.
 */
async function pageWithLinkedRow<Row extends { id: number }>(
  args: GridArgs,
  grid: AnyGridDecl,
  placement: Placement,
  search: URLSearchParams,
  state: GridState,
  query: ListQuery,
  listed: { rows: Row[]; total: number; sums?: Record<string, number> },
) {
  const linked = placement.selection.kind === "segment" ? placement.selection.selectedId : placement.selection.kind === "param" ? state.selectedId : null;
  if (!linked || !grid.model.pageOf || search.has(gridParamNames(prefixOf(grid, placement.mount)).page) || listed.rows.some((row) => row.id === linked))
    return listed;
  const page = await grid.model.pageOf(args.context.db, linked, query);
  if (page === null || page === state.page) return listed;
  state.page = page;
  query.page = page;
  return grid.model.list(args.context.db, query);
}

/**
 * A search on a grid whose selected row is a path segment (/people/17/dogs?q=...): the selected
 * row stays while the search lists it; otherwise the first match is selected, with the same tab
 * (as a PARENT grid selects its first row), so the tabs never show a row the list has hidden.
 */
async function firstMatchOfSearch(
  args: GridArgs,
  grid: AnyGridDecl,
  placement: Placement,
  search: URLSearchParams,
  state: GridState,
  query: ListQuery,
  rows: readonly { id: number }[],
) {
  const selection = placement.selection;
  if (selection.kind !== "segment" || !state.search || selection.selectedId === null || rows.length === 0) return;
  if (rows.some((row) => row.id === selection.selectedId)) return;
  if (grid.model.pageOf && (await grid.model.pageOf(args.context.db, selection.selectedId, query)) !== null) return;
  const next = new URLSearchParams(search);
  keepOwnParams(next, grid, placement.mount);
  throw redirect(`${selection.base}/${rows[0].id}/${selection.tab}${next.size ? `?${next}` : ""}`);
}

/** Everything a grid pane shows, from the declaration, the URL and the model. */
export async function loadGrid(args: GridArgs, grid: AnyGridDecl, placement: Placement, user: User): Promise<GridData> {
  const { db } = args.context;
  const search = new URL(args.request.url).searchParams;
  const { columns, state, query } = queryFromUrl(grid, placement, search, user);
  const mountHint = grid.mounts[placement.mount]?.hint;
  const [listed, chosen, parentName, toggles, hint] = await Promise.all([
    grid.model.list(db, query),
    getGridColumns(args.context, user.id, grid.id),
    placement.parent?.name,
    Promise.all(togglesAt(grid, placement.mount).map(async (toggle) => ({ toggle, options: await toggleOptions(db, toggle, state.toggles[toggle.param]) }))),
    typeof mountHint === "function" ? mountHint(db, query) : mountHint,
  ]);
  const result = await pageWithLinkedRow(args, grid, placement, search, state, query, listed);
  await firstMatchOfSearch(args, grid, placement, search, state, query, result.rows);
  const visible = visibleColumnIds(columns, chosen);
  const shown = visible.map((id) => columns.find((column) => column.id === id)!);
  const mountDecl = grid.mounts[placement.mount]!;
  const prefix = prefixOf(grid, placement.mount);
  const dialogs = { add: true, edit: true, delete: true, ...grid.dialogs };
  const entity = grid.entity && mayUse(user, grid.area) ? grid.entity : null;
  const rowIds = new Set(result.rows.map((row) => row.id as number));
  const selection = placement.selection;
  // A PARENT grid selects its first row when none is chosen (spec); a CHILD grid only what the URL says.
  const firstRow = placement.mount === "PARENT" ? ((result.rows[0]?.id as number | undefined) ?? null) : null;
  const selectedId =
    selection.kind === "segment"
      ? (selection.selectedId ?? firstRow)
      : selection.kind === "param"
        ? state.selectedId !== null && rowIds.has(state.selectedId)
          ? state.selectedId
          : firstRow
        : null;

  // The selected row's label (the tabs' titles) is known now: its loaders need not ask again.
  const selectedRow = selection.kind === "segment" && grid.rows ? result.rows.find((row) => row.id === selectedId) : undefined;
  if (selectedRow) void rowLabelOnce(args.context, grid, selectedRow.id as number, async () => grid.rows!.rowLabel(selectedRow));

  const rowActions = rowActionsFor(
    grid,
    placement.mount,
    entity,
    user,
    result.rows.map((row) => row.id as number),
  );

  return {
    gridId: grid.id,
    title: typeof mountDecl.title === "function" ? mountDecl.title({ name: parentName ?? "" }) : mountDecl.title,
    level: placement.level,
    prefix,
    columns: columns.map((column): ColumnMeta => ({
      id: column.id,
      header: column.header,
      align: alignment(column),
      sortable: column.sortable !== false,
      sum: Boolean(column.sum),
      ...(column.widthRem ? { widthRem: column.widthRem } : {}),
    })),
    visible,
    rows: result.rows.map((row) => ({
      id: row.id as number,
      cells: shown.map((column) => toCell(column, row)),
      ...(grid.rowMuted?.(row) ? { muted: true } : {}),
      ...(rowActions.perRow ? { actions: rowActions.of(row) } : {}),
    })),
    total: result.total,
    sums: Object.fromEntries(
      columns.filter((column) => column.sum).map((column) => [column.id, String(formatValue(column.type, result.sums?.[column.id] ?? 0))]),
    ),
    page: state.page,
    pageSize: query.pageSize,
    sort: state.sort,
    toggles: toggles.map(({ toggle, options }) => ({
      param: toggle.param,
      label: toggle.label,
      options: options.map(({ value, label }) => ({ value, label })),
      active: state.toggles[toggle.param],
      fallback: toggleFallback(toggle),
    })),
    search: grid.search ? { value: state.search, placeholder: grid.search.placeholder } : null,
    selectedId,
    selection: selection.kind === "segment" ? { kind: "segment", base: selection.base, tab: selection.tab } : { kind: selection.kind },
    ownParams: gridOwnParams(grid, placement.mount),
    entity,
    addDialog: entity && dialogs.add ? `${entity}-add` : null,
    addLabel: dialogs.addLabel ?? "Hinzufügen",
    openDialog: entity && (dialogs.open || dialogs.edit) ? `${entity}-${dialogs.open ?? "edit"}` : null,
    editButton: Boolean(entity && dialogs.edit),
    deleteDialog: entity && dialogs.delete ? `${entity}-delete` : null,
    dialogParams: placement.parent ? { dialogParent: `${placement.parent.type}:${placement.parent.id}` } : {},
    rowActions: rowActions.perRow ? [] : rowActions.of(null),
    commandColumn: Boolean(grid.commandColumn),
    excelHref: grid.excel ? (placement.parent ? `${grid.excel.path}?parent=${placement.parent.type}:${placement.parent.id}` : grid.excel.path) : null,
    columnChooser: grid.columnChooser ?? true,
    refresh: grid.refresh ?? false,
    screenLinks: (grid.screenLinks ?? [])
      .filter((link) => (!link.mounts || link.mounts.includes(placement.mount)) && mayUse(user, link.area))
      .map(({ label, to }) => ({ label, to })),
    // Grouping applies to a grid's own screen only (spec 001 §6): under a parent the rows are one group.
    groups: grid.groupBy && placement.mount === "PARENT" ? result.rows.map((row) => grid.groupBy!(row)) : null,
    emptyText: grid.emptyText,
    ...(mountDecl.maxHeight ? { maxHeight: mountDecl.maxHeight } : {}),
    ...(hint ? { hint } : {}),
  };
}

/** The parent of a CHILD grid's export (?parent=COURSE:17), or null for the PARENT list. */
function exportParent(grid: AnyGridDecl, search: URLSearchParams): Parent | null {
  const raw = search.get("parent");
  if (raw === null) {
    if (!grid.mounts.PARENT) throw new Response("Bitte wähle zuerst den Datensatz, zu dem die Liste gehört.", { status: 400 });
    return null;
  }
  const [type, id] = raw.split(":");
  const parentId = parseId(id);
  if (!parentId || type === "PARENT" || !Object.hasOwn(grid.mounts, type)) throw new Response("Unbekannte Liste für den Export", { status: 400 });
  return { type: type as ParentType, id: parentId, name: "" };
}

/**
 * The row actions of a grid where it is mounted: dialogs of the rows' own entity only for users who
 * may change the rows (`entity`), dialogs of another folder for the users of its area, links for
 * everyone who sees the grid (with an `area`: its users). When any depends on the row (`when`, `href`), each row gets its own
 * list. A browsing dialog gets the ids of the page's rows.
 */
function rowActionsFor(grid: AnyGridDecl, mount: Mount, entity: string | null, user: User, pageIds: readonly number[]) {
  const declared: RowActionDecl[] = (grid.rowActions ?? []).filter(
    (action: RowActionDecl) =>
      (!action.mounts || action.mounts.includes(mount)) &&
      (action.href !== undefined ? mayUse(user, action.area ?? grid.area) : action.entity ? mayUse(user, action.area ?? grid.area) : entity !== null),
  );
  const perRow = declared.some((action) => action.when !== undefined || action.href !== undefined);
  const browsing = { [DIALOG_LIST_PARAM]: pageIds.join(",") };
  // A dialog's action is the same object on every row, and so is a list of them: the page's data
  // (turbo-stream) writes an object once and then only refers to it, not 50 copies.
  const dialogs = new Map(
    declared
      .filter((action) => !action.href)
      .map((action): [RowActionDecl, RowActionData] => [
        action,
        { label: action.label, dialog: `${action.entity ?? entity}-${action.view}`, ...(action.browse ? { params: browsing } : {}) },
      ]),
  );
  const sharedLists = new Map<string, RowActionData[]>();
  const of = (row: unknown): RowActionData[] => {
    const shown = declared.filter((action) => row === null || !action.when || action.when(row));
    const list = shown.map((action) => dialogs.get(action) ?? { label: action.label, href: action.href!(row), ...(action.newTab ? { newTab: true } : {}) });
    if (shown.some((action) => action.href)) return list;
    const key = shown.map((action) => declared.indexOf(action)).join(",");
    const shared = sharedLists.get(key);
    if (shared) return shared;
    sharedLists.set(key, list);
    return list;
  };
  return { perRow, of };
}

/** The Excel download of a grid as the user sees it (as PARENT or under a parent): same filter, sort and visible columns. */
export async function exportGrid(args: GridArgs, grid: AnyGridDecl, user: User): Promise<Response> {
  if (!grid.excel || !grid.model.all) throw new Response("Kein Export für diese Liste", { status: 404 });
  const search = new URL(args.request.url).searchParams;
  const parent = exportParent(grid, search);
  const placement: Placement = { mount: parent?.type ?? "PARENT", parent, level: 1, selection: { kind: "param" } };
  const { columns, query } = queryFromUrl(grid, placement, search, user);
  const { page: _page, pageSize: _pageSize, ...exportQuery } = query;
  const { fileName } = grid.excel;
  const [rows, chosen, name] = await Promise.all([
    grid.model.all(args.context.db, exportQuery),
    getGridColumns(args.context, user.id, grid.id),
    typeof fileName === "function" ? fileName(args.context.db, exportQuery) : fileName,
  ]);
  // The footer's sums, over the same rows (exact: integer cents).
  const sums = Object.fromEntries(
    columns.filter((column) => column.sum).map((column) => [column.id, rows.reduce((total: number, row) => total + Number(column.value(row) ?? 0), 0)]),
  );
  return xlsxResponse(gridToXlsx(columns, visibleColumnIds(columns, chosen), rows, grid.excel.sheet, sums), name);
}

/** Drops every parameter that is not the grid's own (the child grids of another row start over). */
function keepOwnParams(search: URLSearchParams, grid: AnyGridDecl, mount: Mount) {
  const own = new Set(gridOwnParams(grid, mount));
  for (const name of [...search.keys()]) if (!own.has(name)) search.delete(name);
}

/** A grid shown on the page a dialog was opened on (the action needs them to select a saved row). */
export type PageGrid = { grid: AnyGridDecl; placement: Placement };

/**
 * Where the browser goes after a dialog saved (or deleted) a row of `entity`: the same page, with
 * the row selected in every grid of that entity, on the page of the list it is on and in the
 * toggle it belongs to; a deleted row is no longer selected.
 */
export async function urlAfterChange(
  args: GridArgs,
  pageGrids: readonly PageGrid[],
  user: User,
  change: { entity: string; id: number; deleted: boolean; saved?: SavedRecord },
): Promise<string> {
  const url = new URL(args.request.url);
  let pathname = url.pathname;
  const search = new URLSearchParams(url.search);
  for (const name of [...search.keys()]) if (name.startsWith("dialog") || name === "index") search.delete(name);

  for (const { grid, placement } of pageGrids) {
    if (grid.entity !== change.entity) continue;
    const names = gridParamNames(prefixOf(grid, placement.mount));
    const selection = placement.selection;
    if (change.deleted) {
      if (selection.kind === "segment") {
        if (selection.selectedId === change.id) {
          pathname = selection.base;
          keepOwnParams(search, grid, placement.mount);
        }
      } else if (search.get(names.selected) === String(change.id)) {
        search.delete(names.selected);
      }
      continue;
    }
    for (const toggle of togglesAt(grid, placement.mount)) {
      const value = change.saved && toggle.follow?.(change.saved, search.get(names.toggle(toggle.param)) ?? toggleFallback(toggle));
      if (value !== undefined) search.set(names.toggle(toggle.param), value);
      if (value === toggleFallback(toggle)) search.delete(names.toggle(toggle.param));
    }
    const { query } = queryFromUrl(grid, placement, search, user);
    const page = grid.model.pageOf ? await grid.model.pageOf(args.context.db, change.id, query) : null;
    if (page !== null && page > 1) search.set(names.page, String(page));
    else search.delete(names.page);
    if (selection.kind === "none") continue;
    if (selection.kind === "segment") {
      // Another row of a parent grid: the child grids start over.
      keepOwnParams(search, grid, placement.mount);
      pathname = `${selection.base}/${change.id}/${selection.tab}`;
    } else {
      search.set(names.selected, String(change.id));
    }
  }
  const text = search.toString();
  return `${pathname}${text ? `?${text}` : ""}`;
}
