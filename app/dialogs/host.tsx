/**
 * Renders the dialog the URL names, on every page (the app shell includes it). Each registered
 * dialog's component (app/dialogs/<entity>/dialog.tsx, found by its folder) is loaded only when
 * it opens; confirmations (delete, restore) are the kit's own. The server sends the complete
 * document, so a dialog shows without JavaScript too.
 */
import { useFetcher, useLocation, useMatches } from "@remix-run/react";
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from "react";
import { DialogFormContext, DialogGridsContext, DialogHistoryContext, useDialogHistory, type DialogProps } from "~/components/dialog-form";
import { closedHref } from "~/lib/grid-state";
import type { ConfirmData, DialogActionData, OpenDialog } from "./define.server";

type DialogComponent = ComponentType<DialogProps<unknown>>;

/**
 * A component whose code loads when it is first shown (React's lazy), or, once `preload` has
 * loaded it before the page hydrates, the component itself: it then renders at once, without
 * suspending. `preload` is only called before the first render, so a component never switches
 * between the two (which would mount it anew).
 */
function loadable<Props>(load: () => Promise<ComponentType<Props>>) {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  let loaded: ComponentType<Props> | null = null;
  return {
    preload: async () => {
      loaded = await load();
    },
    get Component(): ComponentType<Props> | LazyExoticComponent<ComponentType<Props>> {
      return loaded ?? Lazy;
    },
  };
}

const registered = import.meta.glob<{ default: DialogComponent }>("./*/dialog.tsx");
const COMPONENTS = new Map(Object.entries(registered).map(([path, load]) => [path.split("/")[1], loadable(() => load().then((module) => module.default))]));

const CONFIRM = loadable(() => import("~/components/dialog").then((module) => module.ConfirmDialog));

/**
 * Loads the code of the dialog the page's URL opens (?dialog=person-edit), before the page
 * hydrates (app/entry.client.tsx): the dialog the server rendered then hydrates together with the
 * page, and the page counts as hydrated (html[data-hydrated], root.tsx) only with its dialog.
 * Loaded lazily, the dialog stayed the server's static copy after the rest of the page had
 * hydrated; what was typed or chosen in it meanwhile was lost when its code arrived and Headless
 * UI's dialog replaced it, and the blur of the replaced field had conform post the old form
 * natively (a validation that reloaded the page).
 */
export async function preloadOpenDialog(search: string) {
  const entity = /^([a-zA-Z]+)-[a-zA-Z]+$/.exec(new URLSearchParams(search).get("dialog") ?? "")?.[1];
  const dialog = entity ? COMPONENTS.get(entity) : undefined;
  if (!dialog) return;
  // A confirmation (delete, restore) is the kit's own dialog. Failing, both load lazily as before.
  await Promise.all([dialog.preload(), CONFIRM.preload()]).catch(() => undefined);
}

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
  const Component = COMPONENTS.get(dialog.entity)?.Component;
  const ConfirmDialog = CONFIRM.Component;
  return (
    <DialogFormContext.Provider value={{ fetcher, action }}>
      <DialogHistoryContext.Provider value={dialog.history}>
        <DialogGridsContext.Provider value={dialog.grids}>
          <Suspense fallback={null}>
            {isConfirm(dialog.data) ? (
              <ConfirmDialog {...dialog.data.confirm} closeHref={closeHref} error={actionData?.error} />
            ) : (
              Component && <Component view={dialog.view} data={dialog.data} actionData={actionData} closeHref={closeHref} />
            )}
          </Suspense>
        </DialogGridsContext.Provider>
      </DialogHistoryContext.Provider>
    </DialogFormContext.Provider>
  );
}
