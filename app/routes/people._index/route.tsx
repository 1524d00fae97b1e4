import { FirstRow } from "~/components/data-grid/panes";
import { firstRowAction, firstRowLoader } from "~/components/data-grid/routes.server";
import { peopleGrid } from "~/grids/people.grid";

/** /people: the first person of the list with the default tab, no redirect. */
export const loader = firstRowLoader(peopleGrid);
export const action = firstRowAction(peopleGrid);
export default FirstRow;
