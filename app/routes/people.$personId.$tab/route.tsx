import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { Area } from "~/lib/access";
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
      <h2 className="text-lg font-semibold text-wuff-800">{title}</h2>
      <p className="mt-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">Diese Ansicht ist noch in Arbeit</p>
      <LazyRecordDialogs dialog={dialog} actionData={useActionData<RecordDialogActionData>()} />
    </>
  );
}
