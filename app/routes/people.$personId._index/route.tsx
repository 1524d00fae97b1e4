import { rowIndexLoader } from "~/components/data-grid/routes.server";
import { peopleGrid } from "~/grids/people.grid";

/** A person without a tab opens the default tab. */
export const loader = rowIndexLoader(peopleGrid);
export const action = rowIndexLoader(peopleGrid);
