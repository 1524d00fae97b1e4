import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { cashDaysGrid } from "~/grids/cashDays.grid";

/** Kasse: Tagesabschluss (ADMIN, FINANCE; issue 35 item 2): per day opening, in, out, closing. */
export const loader = screenLoader(cashDaysGrid);
export const action = screenAction(cashDaysGrid);
export const meta = gridMeta;
export default GridScreen;
