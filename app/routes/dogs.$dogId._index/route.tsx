import { rowIndexLoader } from "~/components/data-grid/routes.server";
import { dogsGrid } from "~/grids/dogs.grid";

/** A dog without a tab opens the default tab. */
export const loader = rowIndexLoader(dogsGrid);
export const action = rowIndexLoader(dogsGrid);
