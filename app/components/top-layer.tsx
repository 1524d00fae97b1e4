/**
 * A modal <dialog> lies in the browser's top layer, above everything else, and makes the rest of
 * the page inert. What must stay visible and usable while a dialog is open (the toast with its
 * 'Rückgängig', the pending bar) is therefore rendered inside the open dialog, into a slot it
 * offers; without a dialog (and on the server) it stays where it is.
 */
import { useSyncExternalStore, type ReactNode } from "react";
import { createPortal } from "react-dom";

let slot: HTMLElement | null = null;
const listeners = new Set<() => void>();

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The open modal dialog's slot (RouteDialog), or null when it closes. */
export function setTopLayerSlot(element: HTMLElement | null) {
  if (slot === element) return;
  slot = element;
  for (const listener of listeners) listener();
}

/** Gives the slot up, unless another dialog has taken it meanwhile. */
export function releaseTopLayerSlot(element: HTMLElement | null) {
  if (slot === element) setTopLayerSlot(null);
}

/** Renders its children inside the open modal dialog, if there is one. */
export function InTopLayer({ children }: { children: ReactNode }) {
  const target = useSyncExternalStore(
    subscribe,
    () => slot,
    () => null,
  );
  return target ? createPortal(children, target) : children;
}
