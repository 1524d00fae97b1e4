import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { paymentsGrid } from "~/grids/payments.grid";

/** Zahlungen (ADMIN, FINANCE; issue 30): the payment journal, every entry in and out. */
export const loader = screenLoader(paymentsGrid);
export const action = screenAction(paymentsGrid);
export const meta = gridMeta;
export default GridScreen;
