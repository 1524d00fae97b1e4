import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { LazyRecordDialogs } from "~/dialogs/lazy-record-dialogs";
import type { RecordDialogActionData } from "~/dialogs/record-dialogs";
import { firstPersonId } from "~/models/people.server";
import { requireAccess } from "~/services/auth.server";
import { usePeopleScreen } from "../people/hooks";
import { DEFAULT_TAB } from "../people/hooks";
import { peopleQuery, peopleScreenAction } from "../people/screen.server";

/** PARENT grid: the first row of the list is selected after loading. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireAccess(args, "people");
  const url = new URL(args.request.url);
  const firstId = await firstPersonId(args.context.db, peopleQuery(url.searchParams, user));
  if (firstId !== null) throw redirect(`/people/${firstId}/${DEFAULT_TAB}${url.search}`);
  return null;
}

export const action = peopleScreenAction;

/** No person in the list (e.g. a filter without matches): only the dialogs can open here. */
export default function NoPersonSelected() {
  const { dialog } = usePeopleScreen();
  return (
    <>
      <p className="p-4 text-sm text-slate-500">Keine Person ausgewählt.</p>
      <LazyRecordDialogs dialog={dialog} actionData={useActionData<RecordDialogActionData>()} />
    </>
  );
}
