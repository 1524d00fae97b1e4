import { exportLoader } from "~/components/data-grid/routes.server";
import { paymentsGrid } from "~/grids/payments.grid";

/** GET /payments/export (?parent=PERSON:17 under a person): Zahlungen.xlsx as the grid shows it, all rows. */
export const loader = exportLoader(paymentsGrid);
