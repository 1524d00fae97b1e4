import { TabPane } from "~/components/data-grid/panes";
import { tabAction, tabLoader } from "~/components/data-grid/routes.server";
import { invoiceHeadersGrid } from "~/grids/invoiceHeaders.grid";

/** The invoice's tab: Rechnungszeilen (invoicerows). */
export const loader = tabLoader(invoiceHeadersGrid);
export const action = tabAction(invoiceHeadersGrid);
export default TabPane;
