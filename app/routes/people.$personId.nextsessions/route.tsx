import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DataGrid } from "~/components/data-grid/data-grid";
import { LazyRecordDialogs } from "~/dialogs/lazy-record-dialogs";
import type { RecordDialogActionData } from "~/dialogs/record-dialogs";
import type { GridColumn } from "~/lib/grid";
import { nextSessionsForPerson, type NextSession } from "~/models/people.server";
import { requireAccess } from "~/services/auth.server";
import { usePeopleScreen } from "../people/hooks";
import { peopleScreenAction } from "../people/screen.server";
import { useSelectedPerson } from "../people/hooks";

const COLUMNS: GridColumn<NextSession>[] = [
  { id: "startDateTime", header: "Datum", value: (session) => session.startDateTime, type: "dateTimeWeekday", sortable: false },
  { id: "courseName", header: "Kurs", value: (session) => session.courseName, sortable: false },
];

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "people");
  return { sessions: await nextSessionsForPerson(args.context.db, Number(args.params.personId)) };
}

export const action = peopleScreenAction;

/** 'Nächste Kurstermine für {person}' (the NextSessionsForPerson query). */
export default function PersonNextSessions() {
  const { sessions } = useLoaderData<typeof loader>();
  const { dialog } = usePeopleScreen();
  const person = useSelectedPerson();
  return (
    <>
      <DataGrid
        gridId="nextsessions"
        title={`Nächste Kurstermine für ${person.fullName}`}
        columns={COLUMNS}
        visible={COLUMNS.map((column) => column.id)}
        rows={sessions}
        total={sessions.length}
        page={1}
        pageSize={sessions.length || 1}
        sort={{ id: "startDateTime", descending: false }}
        emptyText="Keine anstehenden Kurstermine"
      />
      <LazyRecordDialogs dialog={dialog} actionData={useActionData<RecordDialogActionData>()} />
    </>
  );
}
