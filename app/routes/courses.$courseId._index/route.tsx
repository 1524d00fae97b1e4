import { rowIndexLoader } from "~/components/data-grid/routes.server";
import { coursesGrid } from "~/grids/courses.grid";

/** A course without a tab opens the default tab. */
export const loader = rowIndexLoader(coursesGrid);
export const action = rowIndexLoader(coursesGrid);
