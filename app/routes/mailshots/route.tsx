import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { mailshotsGrid } from "~/grids/mailshots.grid";

/** Mailshots (ADMIN): predefined mails to a group of recipients (reached from Tasks). */
export const loader = screenLoader(mailshotsGrid);
export const action = screenAction(mailshotsGrid);
export const meta = gridMeta;
export default GridScreen;
