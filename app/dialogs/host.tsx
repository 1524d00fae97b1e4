/**
 * Renders the dialog the URL names, on every page (the app shell includes it). Each registered
 * dialog's component (app/dialogs/<entity>/dialog.tsx, found by its folder) is loaded only when
 * it opens; confirmations (delete, restore) are the kit's own. The server sends the complete
 * document, so a dialog shows without JavaScript too.
 */
import { useFetcher, useLocation, useMatches } from "@remix-run/react";
import { lazy, Suspense, type ComponentType } from "react";
import { DialogFormContext, useDialogHistory, type DialogProps } from "~/components/dialog-form";
import { closedHref } from "~/lib/grid-state";
import type { ConfirmData, DialogActionData, OpenDialog } from "./define.server";

type DialogComponent = ComponentType<DialogProps<unknown>>;

const registered = import.meta.glob<{ default: DialogComponent }>("./*/dialog.tsx");
const COMPONENTS = new Map(Object.entries(registered).map(([path, load]) => [path.split("/")[1], lazy(load)]));

const ConfirmDialog = lazy(() => import("~/components/dialog").then((module) => ({ default: module.ConfirmDialog })));

const isConfirm = (data: unknown): data is ConfirmData => typeof data === "object" && data !== null && "confirm" in data;

/** Where the dialog's form posts: this page (an index page needs '?index' to reach its action). */
function usePageAction() {
  const { pathname, search } = useLocation();
  const matches = useMatches();
  const params = new URLSearchParams(search);
  params.delete("index");
  if (matches[matches.length - 1]?.id.endsWith("_index")) params.set("index", "");
  const query = params.toString().replace(/^index=(&|$)/, "index$1");
  return query ? `${pathname}?${query}` : pathname;
}

export function DialogHost({ dialog, result }: { dialog: OpenDialog | null; result: DialogActionData | undefined }) {
  const location = useLocation();
  useDialogHistory();
  if (!dialog) return null;
  const key = `${dialog.entity}-${dialog.view}-${new URLSearchParams(location.search).get("dialogId") ?? ""}`;
  return <DialogView key={key} dialog={dialog} result={result} />;
}

function DialogView({ dialog, result }: { dialog: OpenDialog; result: DialogActionData | undefined }) {
  // A fetcher of this dialog's own: its answers die with it, a dialog opened later starts clean.
  const fetcher = useFetcher<DialogActionData>();
  const action = usePageAction();
  const location = useLocation();
  const closeHref = closedHref(location.pathname, location.search);
  const actionData = fetcher.data ?? result;
  const Component = COMPONENTS.get(dialog.entity);
  return (
    <DialogFormContext.Provider value={{ fetcher, action }}>
      <Suspense fallback={null}>
        {isConfirm(dialog.data) ? (
          <ConfirmDialog {...dialog.data.confirm} closeHref={closeHref} error={actionData?.error} />
        ) : (
          Component && <Component view={dialog.view} data={dialog.data} actionData={actionData} closeHref={closeHref} />
        )}
      </Suspense>
    </DialogFormContext.Provider>
  );
}
