import { exportLoader } from "~/components/data-grid/routes.server";
import { courseMembershipsGrid } from "~/grids/courseMemberships.grid";

/** GET /coursememberships/export?parent=COURSE:17: Teilnehmerliste.xlsx, the participants as the pane shows them, all rows. */
export const loader = exportLoader(courseMembershipsGrid);
