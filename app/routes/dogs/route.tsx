import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Outlet, useLoaderData, useLocation, useParams } from "@remix-run/react";
import { DataGrid } from "~/components/data-grid/data-grid";
import { SplitView } from "~/components/split-view";
import { closedHref, dialogHref } from "~/dialogs/dialog-params";
import { loadRecordDialog } from "~/dialogs/records.server";
import { PAGE_SIZE, visibleColumnIds } from "~/lib/grid";
import { listDogs } from "~/models/dogs.server";
import { getGridColumns } from "~/models/preferences.server";
import { requireAccess } from "~/services/auth.server";
import { DEFAULT_DOG_TAB } from "./hooks";
import { DogListToggle } from "./list-toggle";
import { DOG_COLUMNS } from "./columns";
import { dogsQuery, dogsScreenAction } from "./screen.server";

export const action = dogsScreenAction;

export const meta: MetaFunction = () => [{ title: "Hunde – Wuff" }];

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireAccess(args, "dogs");
  const query = dogsQuery(new URL(args.request.url).searchParams);
  const [{ rows, total }, chosen, dialog] = await Promise.all([
    listDogs(args.context.db, query),
    getGridColumns(args.context, user.id, "dogs"),
    loadRecordDialog(args, user),
  ]);
  return { rows, total, query, visible: visibleColumnIds(DOG_COLUMNS, chosen), dialog };
}

/** Hunde: the dogs grid (PARENT) over the tabs Kurse and Erfolge of the selected dog. */
export default function DogsScreen() {
  const { rows, total, query, visible } = useLoaderData<typeof loader>();
  const { dogId } = useParams();
  const location = useLocation();
  const selectedId = dogId ? Number(dogId) : null;
  const tab = location.pathname.split("/")[3] ?? DEFAULT_DOG_TAB;
  const search = new URLSearchParams(location.search);
  const gridSearch = closedHref("", location.search);
  const here = (kind: "dog-add" | "dog-edit" | "dog-delete", id?: number) => dialogHref(location.pathname, location.search, kind, id ? { dialogId: id } : {});
  return (
    <SplitView
      storageKey="wuff-split-dogs"
      top={
        <DataGrid
          gridId="dogs"
          title="Hunde"
          columns={DOG_COLUMNS}
          visible={visible}
          rows={rows}
          total={total}
          page={query.page}
          pageSize={PAGE_SIZE}
          sort={query.sort}
          selectedId={selectedId}
          rowHref={(dog) => `/dogs/${dog.id}/${tab}${gridSearch}`}
          editHref={(dog) => here("dog-edit", dog.id)}
          toggles={<DogListToggle list={query.list} search={search} pathname="/dogs" param="list" reset={["page", "dialog", "dialogId"]} />}
          toolbar={{
            addHref: here("dog-add"),
            editHref: selectedId ? here("dog-edit", selectedId) : null,
            deleteHref: selectedId ? here("dog-delete", selectedId) : null,
            columnChooser: true,
          }}
          emptyText="Keine Hunde gefunden"
        />
      }
      bottom={<Outlet />}
    />
  );
}
