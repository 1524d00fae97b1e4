import { FirstRow } from "~/components/data-grid/panes";
import { firstRowAction, firstRowLoader } from "~/components/data-grid/routes.server";
import { coursesGrid } from "~/grids/courses.grid";

/** /courses: the first course with its participants, no redirect; ?selectedCourseId=N opens that course. */
export const loader = firstRowLoader(coursesGrid);
export const action = firstRowAction(coursesGrid);
export default FirstRow;
