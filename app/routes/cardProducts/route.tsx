/** Karten- und Abo-Produkte (ADMIN): what the club sells; reached from Einstellungen. */
import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { cardProductsGrid } from "~/grids/cardProducts.grid";

export const loader = screenLoader(cardProductsGrid);
export const action = screenAction(cardProductsGrid);
export const meta = gridMeta;
export default GridScreen;
