import { exportLoader } from "~/components/data-grid/routes.server";
import { remindersGrid } from "~/grids/reminders.grid";

/** GET /reminders/export (?parent=PERSON:17, INVOICEHEADER:5 or FEE:9 under one): Mahnungen.xlsx as the grid shows it, all rows. */
export const loader = exportLoader(remindersGrid);
