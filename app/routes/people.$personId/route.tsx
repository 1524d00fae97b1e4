import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Outlet, useLocation } from "@remix-run/react";
import { TAB_PANE_CLASS, TabBar } from "~/components/tab-bar";
import { closedHref } from "~/dialogs/dialog-params";
import { parseId } from "~/lib/ids";
import { personName } from "~/models/people.server";
import { requireAccess } from "~/services/auth.server";
import { usePeopleScreen, useSelectedPerson } from "../people/hooks";

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "people");
  const id = parseId(args.params.personId);
  const person = id ? await personName(args.context.db, id) : undefined;
  // A person that is gone (deleted meanwhile, or a mistyped link): back to the list.
  if (!person) throw redirect(`/people${new URL(args.request.url).search}`);
  return { person };
}

const TABS = [
  { path: "coursememberships", label: "Kurse" },
  { path: "dogs", label: "Hunde" },
  { path: "certifications", label: "Erfolge" },
  { path: "fees", label: "Kontenblatt", finance: true },
  { path: "invoiceheaders", label: "Rechnungen", finance: true },
  { path: "nextsessions", label: "Nächste Kurstermine" },
];

/** The tabs of the selected person (CHILD grids with parent type PERSON). */
export default function SelectedPerson() {
  const { mayUseFinance } = usePeopleScreen();
  const person = useSelectedPerson();
  const location = useLocation();
  const search = closedHref("", location.search);
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <TabBar
        label="Bereiche der Person"
        tabs={TABS.filter((tab) => !tab.finance || mayUseFinance).map((tab) => ({ to: `/people/${person.id}/${tab.path}${search}`, label: tab.label }))}
      />
      <div className={TAB_PANE_CLASS}>
        <Outlet />
      </div>
    </div>
  );
}
