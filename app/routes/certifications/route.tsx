import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { certificationsGrid } from "~/grids/certifications.grid";

/** Erfolge: every certification of people and dogs. */
export const loader = screenLoader(certificationsGrid);
export const action = screenAction(certificationsGrid);
export const meta = gridMeta;
export default GridScreen;
