import { exportLoader } from "~/components/data-grid/routes.server";
import { donationsGrid } from "~/grids/donations.grid";

/** GET /donations/export: Spenden.xlsx of the period, as the grid shows it, all rows. */
export const loader = exportLoader(donationsGrid);
