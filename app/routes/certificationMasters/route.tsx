import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { certificationMastersGrid } from "~/grids/certificationMasters.grid";

/** Erfolgsarten (ADMIN): the kinds of certification. */
export const loader = screenLoader(certificationMastersGrid);
export const action = screenAction(certificationMastersGrid);
export const meta = gridMeta;
export default GridScreen;
