/**
 * The route components of grid screens (data from the loaders of routes.server.ts): a route that
 * mounts a grid exports one of these as its default. Dialogs are rendered by the app itself
 * (app/dialogs/host.tsx), so every pane has them.
 */
import type { MetaFunction } from "@remix-run/cloudflare";
import { Outlet, useLoaderData, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { GridData } from "~/lib/grid";
import { closedSearch } from "~/lib/grid-state";
import { SplitView } from "../split-view";
import { TAB_PANE_CLASS, TabBar } from "../tab-bar";
import { DataGrid, PendingPane } from "./data-grid";
import type { PaneData, TabsData } from "./routes.server";

/** The browser tab's title: the screen's grid title. */
export const gridMeta: MetaFunction = ({ data }) => [{ title: `${(data as { grid?: GridData } | undefined)?.grid?.title ?? "Wuff"} – Wuff` }];

/** A screen: its grid, with the selected row's tabs below when it has them (split view). */
export function GridScreen() {
  const { grid } = useLoaderData<{ grid: GridData }>();
  if (grid.selection.kind !== "segment") return <DataGrid data={grid} />;
  return <SplitView storageKey={`wuff-split-${grid.gridId}`} top={<DataGrid data={grid} />} bottom={<Outlet />} />;
}

function RowTabs({ tabs, current, children }: { tabs: TabsData; current?: string; children: ReactNode }) {
  const search = closedSearch(useLocation().search).toString();
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <TabBar
        label={tabs.label}
        tabs={tabs.tabs.map((tab) => ({ to: `${tabs.base}/${tab.path}${search ? `?${search}` : ""}`, label: tab.label }))}
        current={current && `${tabs.base}/${current}`}
      />
      <div className={TAB_PANE_CLASS}>{children}</div>
    </div>
  );
}

function Pane({ pane }: { pane: PaneData }) {
  return "grid" in pane ? <DataGrid data={pane.grid} /> : <PendingPane title={pane.placeholder} />;
}

/** The selected row: its tab bar over the tab's route. */
export function SelectedRow() {
  const { tabs } = useLoaderData<{ tabs: TabsData }>();
  return (
    <RowTabs tabs={tabs}>
      <Outlet />
    </RowTabs>
  );
}

/** A tab of the selected row. */
export function TabPane() {
  const { pane } = useLoaderData<{ pane: PaneData }>();
  return <Pane pane={pane} />;
}

/** The screen's index: the first row with its default tab (no redirect), or nothing to select. */
export function FirstRow() {
  const { first } = useLoaderData<{ first: { tabs: TabsData; tab: string; pane: PaneData } | null }>();
  if (!first) return <p className="p-4 text-sm text-slate-500">Keine Zeile ausgewählt.</p>;
  return (
    <RowTabs tabs={first.tabs} current={first.tab}>
      <Pane pane={first.pane} />
    </RowTabs>
  );
}
