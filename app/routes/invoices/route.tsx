import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { invoiceHeadersGrid } from "~/grids/invoiceHeaders.grid";

/** Rechnungen (ADMIN, FINANCE): the invoices grid (PARENT, 300 px) over the rows of the selected invoice. */
export const loader = screenLoader(invoiceHeadersGrid);
export const action = screenAction(invoiceHeadersGrid);
export const meta = gridMeta;
export default GridScreen;
