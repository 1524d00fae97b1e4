import { TabPane } from "~/components/data-grid/panes";
import { tabAction, tabLoader } from "~/components/data-grid/routes.server";
import { courseMastersGrid } from "~/grids/courseMasters.grid";

/** The course type's tabs (as declared; Kurse says so until the courses grid is built). */
export const loader = tabLoader(courseMastersGrid);
export const action = tabAction(courseMastersGrid);
export default TabPane;
