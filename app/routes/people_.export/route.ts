import { exportLoader } from "~/components/data-grid/routes.server";
import { peopleGrid } from "~/grids/people.grid";

/** GET /people/export: Mitgliederliste.xlsx, the people grid as the user sees it, all rows. */
export const loader = exportLoader(peopleGrid);
