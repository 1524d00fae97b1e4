import { SelectedRow } from "~/components/data-grid/panes";
import { rowAction, rowLoader } from "~/components/data-grid/routes.server";
import { invoiceHeadersGrid } from "~/grids/invoiceHeaders.grid";

/** The tab of the selected invoice (the rows grid, parent type INVOICEHEADER). */
export const loader = rowLoader(invoiceHeadersGrid);
export const action = rowAction(invoiceHeadersGrid);
export default SelectedRow;
