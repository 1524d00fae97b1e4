import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { LazyRecordDialogs } from "~/dialogs/lazy-record-dialogs";
import type { RecordDialogActionData } from "~/dialogs/record-dialogs";
import { firstDogId } from "~/models/dogs.server";
import { requireAccess } from "~/services/auth.server";
import { DEFAULT_DOG_TAB, useDogsScreen } from "../dogs/hooks";
import { dogsQuery, dogsScreenAction } from "../dogs/screen.server";

/** PARENT grid: the first dog of the list is selected after loading. */
export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "dogs");
  const url = new URL(args.request.url);
  const firstId = await firstDogId(args.context.db, dogsQuery(url.searchParams));
  if (firstId !== null) throw redirect(`/dogs/${firstId}/${DEFAULT_DOG_TAB}${url.search}`);
  return null;
}

export const action = dogsScreenAction;

export default function NoDogSelected() {
  const { dialog } = useDogsScreen();
  return (
    <>
      <p className="p-4 text-sm text-slate-500">Kein Hund ausgewählt.</p>
      <LazyRecordDialogs dialog={dialog} actionData={useActionData<RecordDialogActionData>()} />
    </>
  );
}
