import { exportLoader } from "~/components/data-grid/routes.server";
import { donationReceiptsGrid } from "~/grids/donationReceipts.grid";

/** GET /donations/receipts/export: Zuwendungsbestätigungen.xlsx, all rows of the filter. */
export const loader = exportLoader(donationReceiptsGrid);
