import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { peopleGrid } from "~/grids/people.grid";

/** Personen: the people grid (PARENT) over the tabs of the selected person. */
export const loader = screenLoader(peopleGrid);
export const action = screenAction(peopleGrid);
export const meta = gridMeta;
export default GridScreen;
