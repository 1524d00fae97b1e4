import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { courseMembershipsGrid } from "~/grids/courseMemberships.grid";

/** Kursteilnehmer: the participants of every course, filtered by the courses' status and year. */
export const loader = screenLoader(courseMembershipsGrid);
export const action = screenAction(courseMembershipsGrid);
export const meta = gridMeta;
export default GridScreen;
