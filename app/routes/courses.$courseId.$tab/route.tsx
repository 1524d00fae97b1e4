import { TabPane } from "~/components/data-grid/panes";
import { tabAction, tabLoader } from "~/components/data-grid/routes.server";
import { coursesGrid } from "~/grids/courses.grid";

/** The course's tabs: Teilnehmer, and Termine (as declared; not built yet, it says so). */
export const loader = tabLoader(coursesGrid);
export const action = tabAction(coursesGrid);
export default TabPane;
