import { SelectedRow } from "~/components/data-grid/panes";
import { rowAction, rowLoader } from "~/components/data-grid/routes.server";
import { courseMastersGrid } from "~/grids/courseMasters.grid";

/** The tabs of the selected course type (CHILD grids with parent type COURSEMASTER). */
export const loader = rowLoader(courseMastersGrid);
export const action = rowAction(courseMastersGrid);
export default SelectedRow;
