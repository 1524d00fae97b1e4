import { rowIndexLoader } from "~/components/data-grid/routes.server";
import { invoiceHeadersGrid } from "~/grids/invoiceHeaders.grid";

/** An invoice without a tab opens its rows. */
export const loader = rowIndexLoader(invoiceHeadersGrid);
export const action = rowIndexLoader(invoiceHeadersGrid);
