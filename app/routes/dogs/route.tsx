import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { dogsGrid } from "~/grids/dogs.grid";

/** Hunde: the dogs grid (PARENT) over the tabs Kurse and Erfolge of the selected dog. */
export const loader = screenLoader(dogsGrid);
export const action = screenAction(dogsGrid);
export const meta = gridMeta;
export default GridScreen;
