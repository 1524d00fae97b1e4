import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { LazyRecordDialogs } from "~/dialogs/lazy-record-dialogs";
import type { RecordDialogActionData } from "~/dialogs/record-dialogs";
import { requireAccess } from "~/services/auth.server";
import { DOG_TABS, useDogsScreen } from "../dogs/hooks";
import { dogsScreenAction } from "../dogs/screen.server";

async function guard(args: LoaderFunctionArgs | ActionFunctionArgs) {
  await requireAccess(args, "dogs");
  const tab = DOG_TABS.find((candidate) => candidate.path === args.params.tab);
  if (!tab) throw redirect(`/dogs/${args.params.dogId}`);
  return tab;
}

export async function loader(args: LoaderFunctionArgs) {
  return { title: (await guard(args)).label };
}

export async function action(args: ActionFunctionArgs) {
  await guard(args);
  return dogsScreenAction(args);
}

/** Kurse and Erfolge of a dog come with the course and certification capabilities. */
export default function DogTab() {
  const { title } = useLoaderData<typeof loader>();
  const { dialog } = useDogsScreen();
  return (
    <>
      <h2 className="text-lg font-semibold text-wuff-800">{title}</h2>
      <p className="mt-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">Diese Ansicht ist noch in Arbeit</p>
      <LazyRecordDialogs dialog={dialog} actionData={useActionData<RecordDialogActionData>()} />
    </>
  );
}
