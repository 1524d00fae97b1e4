/**
 * Renders the dialog the URL names, on every page (the app shell includes it). Each registered
 * dialog's component (app/dialogs/<entity>/dialog.tsx, found by its folder) is loaded only when
 * it opens, and so is the list that finds it (./components.ts); confirmations (delete, restore)
 * are the kit's own. The server sends the complete document, so a dialog shows without
 * JavaScript too.
 */
import { useFetcher, useLocation, useMatches } from "@remix-run/react";
import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from "react";
import { DialogFormContext, DialogGridsContext, DialogHistoryContext, useDialogHistory, type DialogProps } from "~/components/dialog-form";
import { closedHref } from "~/lib/grid-state";
import type { ConfirmData, DialogActionData, OpenDialog } from "./define.server";

/**
 * A component whose code loads when it is first shown (React's lazy), or, once `preload` has
 * loaded it before the page hydrates, the component itself (`ready`): it then renders at once,
 * without suspending. `preload` is only called before the first render, so a component never
 * switches between the two (which would mount it anew).
 */
function loadable<Props>(load: () => Promise<ComponentType<Props>>) {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  let ready: ComponentType<Props> | null = null;
  return {
    preload: async () => {
      ready = await load();
    },
    Lazy: Lazy as LazyExoticComponent<ComponentType<Props>>,
    get ready() {
      return ready;
    },
  };
}

/** Where the dialogs' code is: loaded with the first dialog, not with the page. */
const dialogCode = () => import("./components");

/** Per entity, its dialog's component (made on first use: the entities are in ./components.ts). */
const COMPONENTS = new Map<string, ReturnType<typeof loadable<DialogProps<unknown>>>>();
function dialogOf(entity: string) {
  let dialog = COMPONENTS.get(entity);
  if (!dialog) {
    dialog = loadable<DialogProps<unknown>>(() => dialogCode().then((module) => module.loadDialog(entity)));
    COMPONENTS.set(entity, dialog);
  }
  return dialog;
}

const CONFIRM = loadable(() => dialogCode().then((module) => module.loadConfirm()));

/**
 * Loads the code of the dialog the page's URL opens (?dialog=person-edit), before the page
 * hydrates (app/entry.client.tsx): the dialog the server rendered then hydrates together with the
 * page, in the same pass, and its <dialog> element becomes modal where it is (RouteDialog). The
 * page counts as hydrated (html[data-hydrated], root.tsx) only with its dialog.
 */
export async function preloadOpenDialog(search: string) {
  const entity = /^([a-zA-Z]+)-[a-zA-Z]+$/.exec(new URLSearchParams(search).get("dialog") ?? "")?.[1];
  if (!entity) return;
  try {
    if (!(await dialogCode()).hasDialog(entity)) return;
    // A confirmation (delete, restore) is the kit's own dialog.
    await Promise.all([dialogOf(entity).preload(), CONFIRM.preload()]);
  } catch {
    // Failing, both load lazily.
  }
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
  const confirm = isConfirm(dialog.data) ? dialog.data.confirm : null;
  let content: ReactNode;
  let ready: boolean;
  if (confirm) {
    const ConfirmDialog = CONFIRM.ready ?? CONFIRM.Lazy;
    ready = CONFIRM.ready !== null;
    content = <ConfirmDialog {...confirm} closeHref={closeHref} error={actionData?.error} />;
  } else {
    // An entity without a dialog of its own renders nothing (./components.ts).
    const entry = dialogOf(dialog.entity);
    const Component = entry.ready ?? entry.Lazy;
    ready = entry.ready !== null;
    content = <Component view={dialog.view} data={dialog.data} actionData={actionData} closeHref={closeHref} />;
  }
  return (
    <DialogFormContext.Provider value={{ fetcher, action }}>
      <DialogHistoryContext.Provider value={dialog.history}>
        <DialogGridsContext.Provider value={dialog.grids}>
          {/* No Suspense boundary around the dialog the server renders and the page hydrates with
              (its code preloaded): a boundary would hydrate in a pass of its own, after the page,
              and switch to rendering anew (a new element, what was typed lost) when it gets an
              update first. The server waits for the component's code instead. Only a dialog
              opened on a running page waits for its code behind one. */}
          {typeof document === "undefined" || ready ? content : <Suspense fallback={null}>{content}</Suspense>}
        </DialogGridsContext.Provider>
      </DialogHistoryContext.Provider>
    </DialogFormContext.Provider>
  );
}
