import { SelectedRow } from "~/components/data-grid/panes";
import { rowAction, rowLoader } from "~/components/data-grid/routes.server";
import { dogsGrid } from "~/grids/dogs.grid";

/** The tabs of the selected dog (CHILD grids with parent type DOG). */
export const loader = rowLoader(dogsGrid);
export const action = rowAction(dogsGrid);
export default SelectedRow;
