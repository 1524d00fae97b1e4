import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { recycleBinGrid } from "~/grids/recyclebin.grid";

/** Papierkorb: Gelöschte Datensätze; double click (or Wiederherstellen) restores. */
export const loader = screenLoader(recycleBinGrid);
export const action = screenAction(recycleBinGrid);
export const meta = gridMeta;
export default GridScreen;
