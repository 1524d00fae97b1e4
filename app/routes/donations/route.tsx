import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { donationsGrid } from "~/grids/donations.grid";

/** Spenden (ADMIN, FINANCE; issue 35 item 5): donations with their donors and receipts. */
export const loader = screenLoader(donationsGrid);
export const action = screenAction(donationsGrid);
export const meta = gridMeta;
export default GridScreen;
