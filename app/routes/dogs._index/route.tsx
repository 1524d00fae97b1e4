import { FirstRow } from "~/components/data-grid/panes";
import { firstRowAction, firstRowLoader } from "~/components/data-grid/routes.server";
import { dogsGrid } from "~/grids/dogs.grid";

/** /dogs: the first dog of the list with the default tab, no redirect. */
export const loader = firstRowLoader(dogsGrid);
export const action = firstRowAction(dogsGrid);
export default FirstRow;
