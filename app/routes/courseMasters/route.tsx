import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { courseMastersGrid } from "~/grids/courseMasters.grid";

/** Kurs-Typen (ADMIN): the course types grid (PARENT) over the tab Kurse of the selected type. */
export const loader = screenLoader(courseMastersGrid);
export const action = screenAction(courseMastersGrid);
export const meta = gridMeta;
export default GridScreen;
