import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { feesGrid } from "~/grids/fees.grid";

/** Kontenblatt (ADMIN, FINANCE): every open item, with the sums of what is owed. */
export const loader = screenLoader(feesGrid);
export const action = screenAction(feesGrid);
export const meta = gridMeta;
export default GridScreen;
