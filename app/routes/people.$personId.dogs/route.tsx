import { TabPane } from "~/components/data-grid/panes";
import { tabAction, tabLoader } from "~/components/data-grid/routes.server";
import { peopleGrid } from "~/grids/people.grid";

/** 'Hunde für {owner}': the dogs grid as CHILD of the selected person. */
export const loader = tabLoader(peopleGrid, "dogs");
export const action = tabAction(peopleGrid, "dogs");
export default TabPane;
