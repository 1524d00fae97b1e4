import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { gridToXlsx, xlsxResponse } from "~/lib/excel.server";
import { visibleColumnIds } from "~/lib/grid";
import { listAllPeople } from "~/models/people.server";
import { getGridColumns } from "~/models/preferences.server";
import { requireAccess } from "~/services/auth.server";
import { peopleColumns } from "../people/columns";
import { peopleQuery } from "../people/screen.server";

/** GET /people/export?filter=&sort=: Mitgliederliste.xlsx, the people grid as the user sees it
 *  (same filter, sort and visible columns), all rows. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireAccess(args, "people");
  const query = peopleQuery(new URL(args.request.url).searchParams, user);
  const columns = peopleColumns(query.withProtected);
  const [rows, chosen] = await Promise.all([listAllPeople(args.context.db, query), getGridColumns(args.context, user.id, "people")]);
  const blob = await gridToXlsx(columns, visibleColumnIds(columns, chosen), rows, "Personen");
  return xlsxResponse(blob, "Mitgliederliste.xlsx");
}
