import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { DataGrid } from "~/components/data-grid/data-grid";
import { dialogHref } from "~/dialogs/dialog-params";
import { LazyRecordDialogs } from "~/dialogs/lazy-record-dialogs";
import type { RecordDialogActionData } from "~/dialogs/record-dialogs";
import { PAGE_SIZE, parseChoice, parsePage, parseSort, sortableIds, visibleColumnIds, withSearch } from "~/lib/grid";
import { DOG_DEFAULT_SORT, DOG_LISTS, listDogs } from "~/models/dogs.server";
import { getGridColumns } from "~/models/preferences.server";
import { requireAccess } from "~/services/auth.server";
import { dogColumns } from "../dogs/columns";
import { DogListToggle } from "../dogs/list-toggle";
import { usePeopleScreen } from "../people/hooks";
import { peopleScreenAction } from "../people/screen.server";
import { useSelectedPerson } from "../people/hooks";

const COLUMNS = dogColumns({ underPerson: true });

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireAccess(args, "people");
  const search = new URL(args.request.url).searchParams;
  const list = parseChoice(search, "dogList", DOG_LISTS, "current");
  const sort = parseSort(search, sortableIds(COLUMNS), DOG_DEFAULT_SORT, "dog");
  const page = parsePage(search, "dog");
  const [{ rows, total }, chosen] = await Promise.all([
    listDogs(args.context.db, { list, ownerId: Number(args.params.personId), sort, page }),
    getGridColumns(args.context, user.id, "dogs"),
  ]);
  return { rows, total, list, sort, page, visible: visibleColumnIds(COLUMNS, chosen) };
}

export const action = peopleScreenAction;

/** 'Hunde für {owner}': the dogs grid as CHILD of the selected person. */
export default function PersonDogs() {
  const { rows, total, list, sort, page, visible } = useLoaderData<typeof loader>();
  const { dialog } = usePeopleScreen();
  const person = useSelectedPerson();
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const selected = Number(search.get("dog")) || null;
  const selectedId = rows.some((dog) => dog.id === selected) ? selected : null;
  const here = (kind: "dog-add" | "dog-edit" | "dog-delete", params: Record<string, number>) => dialogHref(location.pathname, location.search, kind, params);
  return (
    <>
      <DataGrid
        gridId="dogs"
        title={`Hunde für ${person.fullName}`}
        columns={COLUMNS}
        visible={visible}
        rows={rows}
        total={total}
        page={page}
        pageSize={PAGE_SIZE}
        sort={sort}
        paramPrefix="dog"
        selectedId={selectedId}
        rowHref={(dog) => `${location.pathname}${withSearch(search, { dog: dog.id })}`}
        editHref={(dog) => here("dog-edit", { dialogId: dog.id })}
        toggles={<DogListToggle list={list} search={search} pathname={location.pathname} param="dogList" reset={["dog", "dogPage"]} />}
        toolbar={{
          addHref: here("dog-add", { ownerId: person.id }),
          editHref: selectedId ? here("dog-edit", { dialogId: selectedId }) : null,
          deleteHref: selectedId ? here("dog-delete", { dialogId: selectedId }) : null,
          columnChooser: true,
        }}
        emptyText="Keine Hunde"
      />
      <LazyRecordDialogs dialog={dialog} actionData={useActionData<RecordDialogActionData>()} />
    </>
  );
}
