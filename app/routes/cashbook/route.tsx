import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { cashBookGrid } from "~/grids/cashBook.grid";

/** Kasse (ADMIN, FINANCE; issue 35 item 2): the Kassenbuch with running balance. */
export const loader = screenLoader(cashBookGrid);
export const action = screenAction(cashBookGrid);
export const meta = gridMeta;
export default GridScreen;
