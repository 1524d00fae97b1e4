import { exportLoader } from "~/components/data-grid/routes.server";
import { hsvrmMembersGrid } from "~/grids/hsvrmMembers.grid";

/** GET /hsvrmlist/export: HSVRM-Liste_{Verein}_{Jahr}.xlsx, all members of the chosen year. */
export const loader = exportLoader(hsvrmMembersGrid);
