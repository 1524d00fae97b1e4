import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { UnderConstruction } from "~/components/under-construction";
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
      <UnderConstruction title={title} level={2} />
      <LazyRecordDialogs dialog={dialog} actionData={useActionData<RecordDialogActionData>()} />
    </>
  );
}
