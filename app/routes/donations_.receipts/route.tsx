import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { donationReceiptsGrid } from "~/grids/donationReceipts.grid";

/** Zuwendungsbestätigungen (ADMIN, FINANCE; issue 35 item 5): the receipts issued, Sammelbestätigungen per year. */
export const loader = screenLoader(donationReceiptsGrid);
export const action = screenAction(donationReceiptsGrid);
export const meta = gridMeta;
export default GridScreen;
