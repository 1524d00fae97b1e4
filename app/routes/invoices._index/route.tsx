import { FirstRow } from "~/components/data-grid/panes";
import { firstRowAction, firstRowLoader } from "~/components/data-grid/routes.server";
import { invoiceHeadersGrid } from "~/grids/invoiceHeaders.grid";

/** /invoices: the first invoice with its rows, no redirect. */
export const loader = firstRowLoader(invoiceHeadersGrid);
export const action = firstRowAction(invoiceHeadersGrid);
export default FirstRow;
