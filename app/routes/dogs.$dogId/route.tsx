import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { NavLink, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { closedHref } from "~/dialogs/dialog-params";
import { getDog } from "~/models/dogs.server";
import { requireAccess } from "~/services/auth.server";
import { DOG_TABS } from "../dogs/hooks";

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "dogs");
  const id = Number(args.params.dogId);
  const dog = Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? await getDog(args.context.db, id) : undefined;
  if (!dog) throw redirect(`/dogs${new URL(args.request.url).search}`);
  return { dog: { id: dog.id, commonName: dog.commonName, ownerFullName: dog.ownerFullName } };
}

/** The tabs of the selected dog (CHILD grids with parent type DOG). */
export default function SelectedDog() {
  const { dog } = useLoaderData<typeof loader>();
  const search = closedHref("", useLocation().search);
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <nav aria-label={`Bereiche von ${dog.commonName}`} className="flex shrink-0 gap-1 border-b border-slate-200">
        {DOG_TABS.map((tab) => (
          <NavLink
            key={tab.path}
            to={`/dogs/${dog.id}/${tab.path}${search}`}
            preventScrollReset
            className={({ isActive }) =>
              `-mb-px rounded-t border px-3 py-1.5 text-sm ${isActive ? "border-slate-200 border-b-white bg-white font-semibold text-wuff-800" : "border-transparent text-slate-600 hover:text-slate-900"}`
            }
          >
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <div className="min-h-0 flex-1 overflow-auto bg-white p-2">
        <Outlet />
      </div>
    </div>
  );
}
