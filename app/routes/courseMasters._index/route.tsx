import { FirstRow } from "~/components/data-grid/panes";
import { firstRowAction, firstRowLoader } from "~/components/data-grid/routes.server";
import { courseMastersGrid } from "~/grids/courseMasters.grid";

/** /courseMasters: the first course type of the list with the default tab, no redirect. */
export const loader = firstRowLoader(courseMastersGrid);
export const action = firstRowAction(courseMastersGrid);
export default FirstRow;
