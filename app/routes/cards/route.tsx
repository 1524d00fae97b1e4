/** Karten & Abos (ADMIN, FINANCE): every card and subscription sold. */
import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { cardsGrid } from "~/grids/cards.grid";

export const loader = screenLoader(cardsGrid);
export const action = screenAction(cardsGrid);
export const meta = gridMeta;
export default GridScreen;
