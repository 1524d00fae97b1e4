import { Form, Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { Toast } from "~/services/toast.server";
import { InTopLayer } from "./top-layer";
import { useHydrated } from "./use-hydrated";

const STYLES: Record<Toast["type"], string> = {
  success: "border-emerald-300 bg-emerald-50 text-emerald-900",
  info: "border-sky-300 bg-sky-50 text-sky-900",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-300 bg-red-50 text-red-900",
};

const VISIBLE_MS = 6_000;
/** A toast that offers 'Rückgängig' stays longer: there must be time to read and click. */
const UNDO_VISIBLE_MS = 12_000;

/** The toast of the last action or guard (flash cookie, read by the root loader). Without
 *  JavaScript it stays until the next page (✕ opens the same page again); with it, it fades after
 *  a few seconds, but not while the pointer or the focus is on it. */
export function ToastMessage({ toast }: { toast: Toast | null }) {
  const [shown, setShown] = useState(toast);
  const [held, setHeld] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const location = useLocation();
  const hydrated = useHydrated();
  // A new toast or a new page replaces the shown one. A page that follows a running job reads its
  // data again every second (same page, no toast): that must not wipe the toast just shown.
  const shownOnPage = useRef(location.key);
  useEffect(() => {
    if (toast || location.key !== shownOnPage.current) setShown(toast);
    shownOnPage.current = location.key;
  }, [toast, location.key]);
  useEffect(() => {
    if (!shown || held) return;
    const timer = setTimeout(() => setShown(null), shown.undo ? UNDO_VISIBLE_MS : VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [shown, held]);
  if (!shown) return null;
  // Over an open dialog the toast is inside it: the rest of the page is inert then (InTopLayer).
  return (
    <InTopLayer>
      <div
        ref={box}
        data-toast={shown.type}
        onPointerEnter={() => setHeld(true)}
        onPointerLeave={() => setHeld(false)}
        onFocus={() => setHeld(true)}
        onBlur={(event) => setHeld(box.current?.contains(event.relatedTarget as Node | null) ?? false)}
        className={`fixed right-4 top-[72px] z-50 max-w-sm rounded border px-4 py-3 text-sm shadow-lg print:hidden ${STYLES[shown.type]}`}
      >
        <div className="flex items-start gap-3">
          {/* The live region holds the message only, so screen readers announce just that. */}
          <p role={shown.type === "error" ? "alert" : "status"}>{shown.message}</p>
          {shown.undo && (
            // The page's own action restores the deleted transaction (the Papierkorb's undo).
            <Form method="post" action={`${location.pathname}${location.search}`} preventScrollReset className="shrink-0" onSubmit={() => setShown(null)}>
              <input type="hidden" name="intent" value="bin:undo" />
              <input type="hidden" name="transactionId" value={shown.undo} />
              <button type="submit" className="font-semibold underline hover:no-underline">
                Rückgängig
              </button>
            </Form>
          )}
          {hydrated ? (
            <button type="button" onClick={() => setShown(null)} className="ml-auto opacity-60 hover:opacity-100" aria-label="Schließen">
              ✕
            </button>
          ) : (
            // Without JavaScript the same page again: the toast was shown once and is gone then.
            <Link
              to={`${location.pathname}${location.search}`}
              replace
              preventScrollReset
              className="ml-auto opacity-60 hover:opacity-100"
              aria-label="Schließen"
            >
              ✕
            </Link>
          )}
        </div>
      </div>
    </InTopLayer>
  );
}
