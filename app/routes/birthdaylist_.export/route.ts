import { exportLoader } from "~/components/data-grid/routes.server";
import { birthdaysGrid } from "~/grids/birthdays.grid";

/** GET /birthdaylist/export: Geburtstagsliste.xlsx, the birthdays of the chosen period and people. */
export const loader = exportLoader(birthdaysGrid);
