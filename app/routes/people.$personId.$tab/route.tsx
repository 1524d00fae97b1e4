import { TabPane } from "~/components/data-grid/panes";
import { tabAction, tabLoader } from "~/components/data-grid/routes.server";
import { peopleGrid } from "~/grids/people.grid";

/** The person's other tabs (as declared; those not built yet say so). */
export const loader = tabLoader(peopleGrid);
export const action = tabAction(peopleGrid);
export default TabPane;
