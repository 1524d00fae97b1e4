import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { coursesGrid } from "~/grids/courses.grid";

/** Kurse: the courses grid (PARENT) over the tabs Teilnehmer and Termine of the selected course. */
export const loader = screenLoader(coursesGrid);
export const action = screenAction(coursesGrid);
export const meta = gridMeta;
export default GridScreen;
