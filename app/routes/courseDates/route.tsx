import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { courseDatesGrid } from "~/grids/courseDates.grid";

/** Kursdaten: every course date, grouped by course name and start year. */
export const loader = screenLoader(courseDatesGrid);
export const action = screenAction(courseDatesGrid);
export const meta = gridMeta;
export default GridScreen;
