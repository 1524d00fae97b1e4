import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { Area } from "~/lib/access";
import { UnderConstruction } from "~/components/under-construction";
import { LazyRecordDialogs } from "~/dialogs/lazy-record-dialogs";
import type { RecordDialogActionData } from "~/dialogs/record-dialogs";
import { requireAccess } from "~/services/auth.server";
import { usePeopleScreen } from "../people/hooks";
import { peopleScreenAction } from "../people/screen.server";

/** Tabs that later capabilities fill, with the role their content needs. */
const LATER_TABS: Record<string, { title: string; area: Area }> = {
  coursememberships: { title: "Kurse", area: "people" },
  certifications: { title: "Erfolge", area: "people" },
  fees: { title: "Kontenblatt", area: "fees" },
  invoiceheaders: { title: "Rechnungen", area: "invoices" },
};

async function guard(args: LoaderFunctionArgs | ActionFunctionArgs) {
  const tab = LATER_TABS[args.params.tab ?? ""];
  if (!tab) throw redirect(`/people/${args.params.personId}`);
  await requireAccess(args, "people");
  await requireAccess(args, tab.area);
  return tab;
}

export async function loader(args: LoaderFunctionArgs) {
  const tab = await guard(args);
  return { title: tab.title };
}

export async function action(args: ActionFunctionArgs) {
  await guard(args);
  return peopleScreenAction(args);
}

export default function LaterTab() {
  const { title } = useLoaderData<typeof loader>();
  const { dialog } = usePeopleScreen();
  return (
    <>
      <UnderConstruction title={title} level={2} />
      <LazyRecordDialogs dialog={dialog} actionData={useActionData<RecordDialogActionData>()} />
    </>
  );
}
