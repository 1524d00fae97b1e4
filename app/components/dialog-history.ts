/**
 * Closing a dialog leaves no trace in the browser's history: the back button after closing (with
 * Escape, Abbruch, ✕) goes where it went before the dialog opened, not back into the dialog.
 * A dialog is a URL (?dialog=...), opened by a link: if the page before it is the page it closes
 * to, closing steps back in history; otherwise it replaces the dialog's entry.
 */
import { useLocation, useNavigate, useNavigationType } from "@remix-run/react";
import { useCallback, useEffect, useLayoutEffect } from "react";

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
