import { exportLoader } from "~/components/data-grid/routes.server";
import { cashDaysGrid } from "~/grids/cashDays.grid";

/** GET /cashbook/days/export: the Tagesabschluss of the period as Excel. */
export const loader = exportLoader(cashDaysGrid);
