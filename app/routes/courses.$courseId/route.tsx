import { SelectedRow } from "~/components/data-grid/panes";
import { rowAction, rowLoader } from "~/components/data-grid/routes.server";
import { coursesGrid } from "~/grids/courses.grid";

/** The tabs of the selected course (CHILD grids with parent type COURSE). */
export const loader = rowLoader(coursesGrid);
export const action = rowAction(coursesGrid);
export default SelectedRow;
