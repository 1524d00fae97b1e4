import { exportLoader } from "~/components/data-grid/routes.server";
import { cashBookGrid } from "~/grids/cashBook.grid";

/** GET /cashbook/export: Kassenbuch.xlsx of the period, as the grid shows it, all rows. */
export const loader = exportLoader(cashBookGrid);
