import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { birthdaysGrid } from "~/grids/birthdays.grid";

/** Geburtstags-Liste (FINANCE, ADMIN, GDPR): the coming birthdays, from today through the year. */
export const loader = screenLoader(birthdaysGrid);
// The dialogs any page can show (a person from a link) post here.
export const action = screenAction(birthdaysGrid);
export const meta = gridMeta;
export default GridScreen;
