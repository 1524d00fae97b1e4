/**
 * Loaders and actions for every route that mounts a grid, made from its declaration. A screen
 * with tabs is four small routes (the screen, the selected row with its tabs, a tab, and the
 * screen's index, which shows the first row without a redirect); a screen without tabs is one.
 * Every one of them answers the dialogs' posts (dialogAction), so a dialog works on any pane.
 */
import { redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { dialogAction } from "~/dialogs/kit.server";
import { mayUse, type Area, type User } from "~/lib/access";
import type { GridData } from "~/lib/grid";
import { closedSearch, gridParamNames } from "~/lib/grid-state";
import { parseId } from "~/lib/ids";
import { readForUser, requireAccess, requireAccessToAll } from "~/services/auth.server";
import type { AnyGridDecl, GridDecl, TabDecl } from "./declare";
import {
  childPlacement,
  exportGrid,
  loadGrid,
  once,
  prefixOf,
  rowLabelOnce,
  toggleFallback,
  togglesAt,
  type PageGrid,
  type Parent,
  type Placement,
} from "./grid.server";

type Args = { request: Request; context: AppLoadContext; params: LoaderFunctionArgs["params"] };

/** What the tab bar of a selected row shows. */
export type TabsData = { label: string; base: string; tabs: { path: string; label: string }[] };
/** A tab's content: a child grid, or the notice of a tab still in the works. */
export type PaneData = { grid: GridData } | { placeholder: string };

/** /people/17/dogs -> the screen's path, the selected row and the tab. */
function pathParts(request: Request) {
  const [, screen, row, tab] = new URL(request.url).pathname.split("/");
  return { base: `/${screen}`, rowId: parseId(row), tab };
}

function rowsOf(grid: AnyGridDecl) {
  if (!grid.rows) throw new Error(`Die Liste ${grid.id} hat keine Zeilen mit Reitern`);
  return grid.rows;
}

function parentPlacement(grid: AnyGridDecl, request: Request, selectedId: number | null, tab?: string): Placement {
  const { base } = pathParts(request);
  const selection: Placement["selection"] = grid.rows
    ? { kind: "segment", base, tab: tab ?? grid.rows.defaultTab, selectedId }
    : grid.selectable === false
      ? { kind: "none" }
      : { kind: "param" };
  return { mount: "PARENT", parent: null, level: 1, selection };
}

/**
 * The PARENT grid of a screen behind the guard of its area, once per request (the screen and its
 * index both need it). Its list goes to D1 in one round trip with the session lookup.
 */
function parentGrid(args: Args, grid: AnyGridDecl): Promise<{ user: User; value: GridData }> {
  const { rowId, tab } = pathParts(args.request);
  return once(args.context, `grid:${grid.id}`, () =>
    readForUser(args, [grid.area], (user) => loadGrid(args, grid, parentPlacement(grid, args.request, rowId, tab), user)),
  );
}

/** The selected row of a parent grid as the parent of its tabs; undefined when it does not exist. */
type NamedParent = Parent & { name: string };

const rowLabel = (args: Args, grid: AnyGridDecl, id: number) => rowLabelOnce(args.context, grid, id, () => rowsOf(grid).label(args.context.db, id));

async function parentRow(args: Args, grid: AnyGridDecl, id: number | null): Promise<NamedParent | undefined> {
  if (!id) return undefined;
  const name = await rowLabel(args, grid, id);
  return name === undefined ? undefined : { type: rowsOf(grid).parentType, id, name };
}

function tabOf(grid: AnyGridDecl, path: string | undefined): TabDecl | undefined {
  return rowsOf(grid).tabs.find((tab) => tab.path === path);
}

/** Screen, tab, and the tab's grid: every area the page needs. */
function pageAreas(grid: AnyGridDecl, tab?: TabDecl): [Area, ...Area[]] {
  return [grid.area, ...(tab?.area ? [tab.area] : []), ...(tab?.grid ? [tab.grid.area] : [])];
}

/** A PARENT grid that is one part of a page of its own making (the Tasks screen's Verlauf): the
 *  page has the h1, the grid's title is an h2 under it. */
export function loadPageGrid(args: Args, grid: AnyGridDecl, user: User): Promise<GridData> {
  return loadGrid(args, grid, { ...parentPlacement(grid, args.request, null), level: 2 }, user);
}

/** The CHILD grid of a parent the page chose (no tabs): what a pane shows. */
export function loadChildGrid(args: Args, grid: AnyGridDecl, parent: Parent, user: User): Promise<GridData> {
  return loadGrid(args, grid, childPlacement(grid, parent), user);
}

/** The posts of a page that shows a CHILD grid for a parent it chose (`parent` null: none chosen). */
export function childGridAction(args: ActionFunctionArgs, area: Area, grid: AnyGridDecl, parent: Parent | null) {
  return dialogAction(args, [area, grid.area], parent ? [{ grid, placement: childPlacement(grid, parent) }] : []);
}

async function loadPane(args: Args, tab: TabDecl, parent: Parent, user: User): Promise<PaneData> {
  return tab.grid ? { grid: await loadGrid(args, tab.grid, childPlacement(tab.grid, parent), user) } : { placeholder: tab.label };
}

function tabsData(grid: AnyGridDecl, parent: NamedParent, user: User, base: string): TabsData {
  const rows = rowsOf(grid);
  return {
    label: rows.tabsLabel(parent.name),
    base: `${base}/${parent.id}`,
    tabs: rows.tabs.filter((tab) => mayUse(user, tab.area ?? grid.area)).map(({ path, label }) => ({ path, label })),
  };
}

const backToList = (request: Request) => {
  const { base } = pathParts(request);
  const search = closedSearch(new URL(request.url).search).toString();
  return redirect(`${base}${search ? `?${search}` : ""}`);
};

// ---------------------------------------------------------------------------------------------
// The screen: /people (a layout when its rows have tabs), /recyclebin

export function screenLoader<Row extends { id: number }>(grid: GridDecl<Row>) {
  return async (args: LoaderFunctionArgs) => {
    return { grid: (await parentGrid(args, grid)).value };
  };
}

/** The screen's own posts (a screen without tabs is the page itself). */
export function screenAction<Row extends { id: number }>(grid: GridDecl<Row>) {
  return (args: ActionFunctionArgs) =>
    dialogAction(args, [grid.area], [{ grid, placement: parentPlacement(grid, args.request, pathParts(args.request).rowId) }]);
}

// ---------------------------------------------------------------------------------------------
// The selected row: /people/17 (its tab bar); /people/17 alone opens the default tab

export function rowLoader<Row extends { id: number }>(grid: GridDecl<Row>) {
  return async (args: LoaderFunctionArgs) => {
    const id = parseId(args.params[Object.keys(args.params)[0]]);
    const { user, value: parent } = await readForUser(args, [grid.area], () => parentRow(args, grid, id));
    // A row that is gone (deleted meanwhile, or a mistyped link): back to the list.
    if (!parent) throw backToList(args.request);
    return { tabs: tabsData(grid, parent, user, pathParts(args.request).base) };
  };
}

/** Posts to /people/17 itself (the layout of the row's tabs). */
export function rowAction<Row extends { id: number }>(grid: GridDecl<Row>) {
  return (args: ActionFunctionArgs) =>
    dialogAction(args, [grid.area], [{ grid, placement: parentPlacement(grid, args.request, pathParts(args.request).rowId) }]);
}

export function rowIndexLoader<Row extends { id: number }>(grid: GridDecl<Row>) {
  return async (args: LoaderFunctionArgs) => {
    await requireAccess(args, grid.area);
    const url = new URL(args.request.url);
    throw redirect(`${url.pathname.replace(/\/$/, "")}/${rowsOf(grid).defaultTab}${url.search}`);
  };
}

// ---------------------------------------------------------------------------------------------
// A tab: /people/17/dogs (a declared tab; `path` undefined: the tab named in the URL)

/** The tab the URL names and its row; an unknown tab leads to the row, a missing row (after the guard) back to the list. */
async function tabAddress(args: Args, grid: AnyGridDecl, path: string | undefined) {
  const { base, rowId, tab: tabInUrl } = pathParts(args.request);
  const tab = tabOf(grid, path ?? tabInUrl);
  if (!tab) throw redirect(`${base}/${rowId ?? ""}`);
  if (!rowId) {
    await requireAccessToAll(args, pageAreas(grid, tab));
    throw backToList(args.request);
  }
  return { tab, rowId };
}

async function tabPage(args: Args, grid: AnyGridDecl, path: string | undefined) {
  const { tab, rowId } = await tabAddress(args, grid, path);
  const user = await requireAccessToAll(args, pageAreas(grid, tab));
  // The row's label goes to D1 together with the tab's list; a row that is gone leads back.
  const name = rowLabel(args, grid, rowId);
  const gone = async () => {
    if ((await name) === undefined) throw backToList(args.request);
  };
  return { tab, parent: { type: rowsOf(grid).parentType, id: rowId, name }, user, gone };
}

export function tabLoader<Row extends { id: number }>(grid: GridDecl<Row>, path?: string) {
  return async (args: LoaderFunctionArgs) => {
    const { tab, rowId } = await tabAddress(args, grid, path);
    // The tab's list and the row's label go to D1 with the session lookup; a row that is gone leads back.
    const { value: pane } = await readForUser(args, pageAreas(grid, tab), async (user) => {
      const name = rowLabel(args, grid, rowId);
      const [loaded, label] = await Promise.all([loadPane(args, tab, { type: rowsOf(grid).parentType, id: rowId, name }, user), name]);
      if (label === undefined) throw backToList(args.request);
      return loaded;
    });
    return { pane };
  };
}

export function tabAction<Row extends { id: number }>(grid: GridDecl<Row>, path?: string) {
  return async (args: ActionFunctionArgs) => {
    const { tab, parent, gone } = await tabPage(args, grid, path);
    await gone();
    const pageGrids: PageGrid[] = [{ grid, placement: parentPlacement(grid, args.request, parent.id, tab.path) }];
    if (tab.grid) pageGrids.push({ grid: tab.grid, placement: childPlacement(tab.grid, parent) });
    return dialogAction(args, pageAreas(grid, tab), pageGrids);
  };
}

// ---------------------------------------------------------------------------------------------
// The screen's index: /people shows the first row of the list with its default tab, no redirect

async function firstRow(args: Args, grid: AnyGridDecl) {
  const rows = rowsOf(grid);
  const tab = tabOf(grid, rows.defaultTab)!;
  const { value: list } = await parentGrid(args, grid);
  // The session is known by now: the tab's areas cost no further round trip.
  const user = await requireAccessToAll(args, pageAreas(grid, tab));
  const parent = await parentRow(args, grid, list.selectedId);
  return { tab, parent, user };
}

/**
 * The first row each list showed last (per grid, user and URL), kept by this isolate, so the next
 * request for the same list reads that row's tab together with the list instead of after it.
 * Only a guess: used when the list still starts with that row, else the tab is read again.
 */
const firstRowGuesses = new Map<string, number>();
const FIRST_ROW_GUESSES_KEPT = 500;

function rememberFirstRow(key: string, id: number | undefined) {
  firstRowGuesses.delete(key);
  if (id === undefined) return;
  firstRowGuesses.set(key, id);
  if (firstRowGuesses.size > FIRST_ROW_GUESSES_KEPT) firstRowGuesses.delete(firstRowGuesses.keys().next().value!);
}

/**
 * A link into the list from elsewhere (/courses?selectedCourseId=17) opens that row with its
 * default tab, its toggles set so that it is listed, on its page; an unknown row is dropped.
 */
async function followLink(args: Args, grid: AnyGridDecl) {
  const link = grid.rows?.linkParam;
  const url = new URL(args.request.url);
  const raw = link ? url.searchParams.get(link.name) : null;
  if (!link || raw === null) return;
  await requireAccess(args, grid.area);
  const id = parseId(raw);
  const record = id ? await link.follow(args.context.db, id) : undefined;
  const search = new URLSearchParams(url.search);
  search.delete(link.name);
  if (!id || !record) throw redirect(`${url.pathname}${search.size ? `?${search}` : ""}`);
  const names = gridParamNames(prefixOf(grid, "PARENT"));
  search.delete(names.page);
  search.delete(names.search);
  for (const toggle of togglesAt(grid, "PARENT")) {
    const value = toggle.follow?.(record, search.get(names.toggle(toggle.param)) ?? toggleFallback(toggle));
    if (value === undefined) continue;
    if (value === toggleFallback(toggle)) search.delete(names.toggle(toggle.param));
    else search.set(names.toggle(toggle.param), value);
  }
  throw redirect(`${pathParts(args.request).base}/${id}/${rowsOf(grid).defaultTab}${search.size ? `?${search}` : ""}`);
}

export function firstRowLoader<Row extends { id: number }>(grid: GridDecl<Row>) {
  return async (args: LoaderFunctionArgs) => {
    await followLink(args, grid);
    const rows = rowsOf(grid);
    const tab = tabOf(grid, rows.defaultTab)!;
    const guessKey = (user: User) => `${grid.id}|${user.id}|${new URL(args.request.url).search}`;
    const guessed = readForUser(args, pageAreas(grid, tab), async (user) => {
      const id = firstRowGuesses.get(guessKey(user));
      return id ? { id, pane: await loadPane(args, tab, { type: rows.parentType, id, name: rowLabel(args, grid, id) }, user) } : null;
    }).catch(() => null);
    const { parent, user } = await firstRow(args, grid);
    rememberFirstRow(guessKey(user), parent?.id);
    if (!parent) return { first: null };
    const guess = (await guessed)?.value;
    const pane = guess && guess.id === parent.id ? guess.pane : await loadPane(args, tab, parent, user);
    return { first: { tabs: tabsData(grid, parent, user, pathParts(args.request).base), tab: tab.path, pane } };
  };
}

export function firstRowAction<Row extends { id: number }>(grid: GridDecl<Row>) {
  return async (args: ActionFunctionArgs) => {
    const { tab, parent } = await firstRow(args, grid);
    const pageGrids: PageGrid[] = [{ grid, placement: parentPlacement(grid, args.request, null) }];
    if (tab.grid && parent) pageGrids.push({ grid: tab.grid, placement: childPlacement(tab.grid, parent) });
    return dialogAction(args, pageAreas(grid, tab), pageGrids);
  };
}

// ---------------------------------------------------------------------------------------------
// The Excel export: /people/export

export function exportLoader<Row extends { id: number }>(grid: GridDecl<Row>) {
  return async (args: LoaderFunctionArgs) => exportGrid(args, grid, await requireAccess(args, grid.area));
}
