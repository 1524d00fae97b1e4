import { TabPane } from "~/components/data-grid/panes";
import { tabAction, tabLoader } from "~/components/data-grid/routes.server";
import { dogsGrid } from "~/grids/dogs.grid";

/** The dog's tabs (as declared; those not built yet say so). */
export const loader = tabLoader(dogsGrid);
export const action = tabAction(dogsGrid);
export default TabPane;
