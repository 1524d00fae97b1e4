import { exportLoader } from "~/components/data-grid/routes.server";
import { feesGrid } from "~/grids/fees.grid";

/** GET /fees/export (?parent=PERSON:17 for a person's): Kontenblatt.xlsx as the grid shows it, all rows, with the sums. */
export const loader = exportLoader(feesGrid);
