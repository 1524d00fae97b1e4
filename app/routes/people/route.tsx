import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Outlet, useLoaderData, useLocation, useParams } from "@remix-run/react";
import { DataGrid, ToggleGroup } from "~/components/data-grid/data-grid";
import { SplitView } from "~/components/split-view";
import { dialogHref } from "~/dialogs/dialog-params";
import { loadRecordDialog } from "~/dialogs/records.server";
import { formatSort, PAGE_SIZE, visibleColumnIds, withSearch } from "~/lib/grid";
import { listPeople, type PeopleFilter } from "~/models/people.server";
import { getGridColumns } from "~/models/preferences.server";
import { requireAccess } from "~/services/auth.server";
import { peopleColumns } from "./columns";
import { DEFAULT_TAB } from "./hooks";
import { peopleQuery, peopleScreenAction } from "./screen.server";

export const action = peopleScreenAction;

export const meta: MetaFunction = () => [{ title: "Personen – Wuff" }];

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireAccess(args, "people");
  const search = new URL(args.request.url).searchParams;
  const query = peopleQuery(search, user);
  const [{ rows, total }, chosen, dialog] = await Promise.all([
    listPeople(args.context.db, query),
    getGridColumns(args.context, user.id, "people"),
    loadRecordDialog(args, user),
  ]);
  return {
    rows,
    total,
    query,
    visible: visibleColumnIds(peopleColumns(query.withProtected), chosen),
    dialog,
    mayUseFinance: user.roles.includes("ADMIN") || user.roles.includes("FINANCE"),
  };
}

const FILTERS: { value: PeopleFilter; label: string }[] = [
  { value: "all", label: "Alle" },
  { value: "members", label: "Nur Mitglieder" },
  { value: "nonmembers", label: "Nur Nichtmitglieder" },
];

/** Personen: the people grid (PARENT) over the tabs of the selected person. */
export default function PeopleScreen() {
  const { rows, total, query, visible } = useLoaderData<typeof loader>();
  const { personId } = useParams();
  const location = useLocation();
  const selectedId = personId ? Number(personId) : null;
  const tab = location.pathname.split("/")[3] ?? DEFAULT_TAB;
  const search = new URLSearchParams(location.search);
  const gridSearch = withSearch(search, { dialog: null, dialogId: null, ownerId: null, ownerSearch: null, dog: null });
  const exportSearch = `?${new URLSearchParams({ filter: query.filter, sort: formatSort(query.sort) })}`;
  const here = (kind: "person-add" | "person-edit" | "person-delete", id?: number) =>
    dialogHref(location.pathname, location.search, kind, id ? { dialogId: id } : {});

  return (
    <SplitView
      storageKey="wuff-split-people"
      top={
        <DataGrid
          gridId="people"
          title="Personen"
          columns={peopleColumns(query.withProtected)}
          visible={visible}
          rows={rows}
          total={total}
          page={query.page}
          pageSize={PAGE_SIZE}
          sort={query.sort}
          selectedId={selectedId}
          rowHref={(person) => `/people/${person.id}/${tab}${gridSearch}`}
          editHref={(person) => here("person-edit", person.id)}
          toggles={
            <ToggleGroup
              label="Personen filtern"
              options={FILTERS.map((filter) => ({
                label: filter.label,
                href: `/people${withSearch(search, { filter: filter.value === "all" ? null : filter.value, page: null, dialog: null, dialogId: null, dog: null })}`,
                active: query.filter === filter.value,
              }))}
            />
          }
          toolbar={{
            addHref: here("person-add"),
            editHref: selectedId ? here("person-edit", selectedId) : null,
            deleteHref: selectedId ? here("person-delete", selectedId) : null,
            excelHref: `/people/export${exportSearch}`,
            columnChooser: true,
          }}
          emptyText="Keine Personen gefunden"
        />
      }
      bottom={<Outlet />}
    />
  );
}
