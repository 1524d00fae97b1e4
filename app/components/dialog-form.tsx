/**
 * The small part of the dialog kit every page carries (app/dialogs/host.tsx): how a dialog's
 * form posts. The dialogs themselves (their forms, conform, zod) load only when one opens.
 */
import { useLocation, useNavigate, useNavigationType, type FetcherWithComponents } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, type ComponentProps, type ReactNode, type Ref } from "react";
import type { DialogActionData } from "~/dialogs/define.server";
import type { GridData } from "~/lib/grid";
import type { HistoryEntry } from "~/models/change-history.server";

/** What a registered dialog's component gets (app/dialogs/<entity>/dialog.tsx). */
export type DialogProps<Data> = {
  view: string;
  data: Data;
  /** The answer of the last post when it did not redirect (errors, a conflict). */
  actionData: DialogActionData | undefined;
  closeHref: string;
};

/** The open dialog's Änderungsverlauf (the kit loads it for every dialog that declares one). */
export const DialogHistoryContext = createContext<HistoryEntry[] | undefined>(undefined);

/** The CHILD grids under the open dialog's record (a fee's reminders; the dialog's `children`). */
export const DialogGridsContext = createContext<GridData[] | undefined>(undefined);

type DialogFormState = { fetcher: FetcherWithComponents<DialogActionData>; action: string };
export const DialogFormContext = createContext<DialogFormState | null>(null);

/**
 * The form of a dialog: posts `intent` ('person:save') to the page it is open on, whose action
 * (every grid page has it) answers. With JavaScript it posts in the background and the answer
 * comes back to the dialog; without, the browser posts and the page is rendered again.
 */
export function DialogForm({
  intent,
  children,
  formRef,
  ...props
}: {
  intent: string;
  children: ReactNode;
  /** The form element (e.g. for useSaveGate). */ formRef?: Ref<HTMLFormElement>;
  /** multipart/form-data for a form with files. */ encType?: "multipart/form-data";
} & Omit<ComponentProps<"form">, "method" | "action" | "encType">) {
  const context = useContext(DialogFormContext);
  if (!context) throw new Error("DialogForm außerhalb eines Dialogs");
  return (
    <context.fetcher.Form method="post" action={context.action} preventScrollReset ref={formRef} {...props}>
      <input type="hidden" name="intent" value={intent} />
      {children}
    </context.fetcher.Form>
  );
}

/**
 * Posts the dialog's form as a draft (choose=<what>): the server works out the choices that depend
 * on it and the dialog opens again with them. Without JavaScript a submit button named 'choose'
 * does the same.
 */
export function useDraftSubmit() {
  const context = useContext(DialogFormContext);
  return useCallback(
    (form: HTMLFormElement | null, choose = "1") => {
      if (!context || !form) return;
      const data = new FormData(form);
      data.set("choose", choose);
      context.fetcher.submit(data, { method: "post", action: context.action, preventScrollReset: true });
    },
    [context],
  );
}

// ---------------------------------------------------------------------------------------------
/**
 * Closing a dialog leaves no trace in the browser's history: the back button after closing (with
 * Escape, Abbruch, ✕) goes where it went before the dialog opened, not back into the dialog.
 * A dialog is a URL (?dialog=...), opened by a link: if the page before it is the page it closes
 * to, closing steps back in history; otherwise it replaces the dialog's entry.
 */

/** Before the pages' effects see the new location (a layout effect), without a warning on the server. */
const useEarlyEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

type Entry = { key: string; href: string };
/** The dialog that just closed ('person-edit'), until the grid of its entity took the focus back. */
let closedDialog: string | null = null;
/** The current location and the one a link or form pushed it from (null after back/forward). */
let current: Entry | null = null;
let previous: Entry | null = null;

/** Follows the app's locations; mounted once, in the root. */
export function useDialogHistory() {
  const location = useLocation();
  const type = useNavigationType();
  useEarlyEffect(() => {
    if (current?.key === location.key) return;
    const next = { key: location.key, href: `${location.pathname}${location.search}` };
    const wasOpen = current ? new URL(current.href, "http://wuff").searchParams.get("dialog") : null;
    closedDialog = wasOpen && !new URLSearchParams(location.search).has("dialog") ? wasOpen : null;
    previous = type === "PUSH" ? current : type === "REPLACE" ? previous : null;
    current = next;
  }, [location.key, location.pathname, location.search, type]);
}

/** Whether a dialog of this entity just closed (once): its grid then takes the focus back. */
export function takeClosedDialog(entity: string | null): boolean {
  if (!entity || !closedDialog?.startsWith(`${entity}-`)) return false;
  closedDialog = null;
  return true;
}

/** Closes the dialog towards `closeHref`: back in history when that is where it came from. */
export function useCloseDialog(closeHref: string) {
  const navigate = useNavigate();
  return useCallback(() => {
    if (previous && previous.href === closeHref) navigate(-1);
    else navigate(closeHref, { replace: true, preventScrollReset: true });
  }, [closeHref, navigate]);
}
