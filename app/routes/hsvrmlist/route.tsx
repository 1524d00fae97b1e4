import { GridScreen, gridMeta } from "~/components/data-grid/panes";
import { screenAction, screenLoader } from "~/components/data-grid/routes.server";
import { hsvrmMembersGrid } from "~/grids/hsvrmMembers.grid";

/** HSVRM-Liste (FINANCE, ADMIN, GDPR): the members of a year for the dog-sport association. */
export const loader = screenLoader(hsvrmMembersGrid);
// The dialogs any page can show (a person from a link) post here.
export const action = screenAction(hsvrmMembersGrid);
export const meta = gridMeta;
export default GridScreen;
