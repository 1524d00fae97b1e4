import { rowIndexLoader } from "~/components/data-grid/routes.server";
import { courseMastersGrid } from "~/grids/courseMasters.grid";

/** A course type without a tab opens the default tab. */
export const loader = rowIndexLoader(courseMastersGrid);
export const action = rowIndexLoader(courseMastersGrid);
