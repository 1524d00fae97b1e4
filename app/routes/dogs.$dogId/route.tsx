import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { TAB_PANE_CLASS, TabBar } from "~/components/tab-bar";
import { closedHref } from "~/dialogs/dialog-params";
import { parseId } from "~/lib/ids";
import { getDog } from "~/models/dogs.server";
import { requireAccess } from "~/services/auth.server";
import { DOG_TABS } from "../dogs/hooks";

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "dogs");
  const id = parseId(args.params.dogId);
  const dog = id ? await getDog(args.context.db, id) : undefined;
  if (!dog) throw redirect(`/dogs${new URL(args.request.url).search}`);
  return { dog: { id: dog.id, commonName: dog.commonName, ownerFullName: dog.ownerFullName } };
}

/** The tabs of the selected dog (CHILD grids with parent type DOG). */
export default function SelectedDog() {
  const { dog } = useLoaderData<typeof loader>();
  const search = closedHref("", useLocation().search);
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <TabBar label={`Bereiche von ${dog.commonName}`} tabs={DOG_TABS.map((tab) => ({ to: `/dogs/${dog.id}/${tab.path}${search}`, label: tab.label }))} />
      <div className={TAB_PANE_CLASS}>
        <Outlet />
      </div>
    </div>
  );
}
