import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { templatesGrid } from "~/grids/templates.grid";

/** Vorlagen (ADMIN): the templates of the invoice PDF and the mails. */
export const loader = screenLoader(templatesGrid);
export const action = screenAction(templatesGrid);
export const meta = gridMeta;
export default GridScreen;
