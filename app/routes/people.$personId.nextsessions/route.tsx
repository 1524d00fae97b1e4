import { TabPane } from "~/components/data-grid/panes";
import { tabAction, tabLoader } from "~/components/data-grid/routes.server";
import { peopleGrid } from "~/grids/people.grid";

/** 'Nächste Kurstermine für {person}'. */
export const loader = tabLoader(peopleGrid, "nextsessions");
export const action = tabAction(peopleGrid, "nextsessions");
export default TabPane;
