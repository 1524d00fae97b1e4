import { SelectedRow } from "~/components/data-grid/panes";
import { rowAction, rowLoader } from "~/components/data-grid/routes.server";
import { peopleGrid } from "~/grids/people.grid";

/** The tabs of the selected person (CHILD grids with parent type PERSON). */
export const loader = rowLoader(peopleGrid);
export const action = rowAction(peopleGrid);
export default SelectedRow;
