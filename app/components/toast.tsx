import { useEffect, useState } from "react";
import type { Toast } from "~/services/toast.server";

const STYLES: Record<Toast["type"], string> = {
  success: "border-emerald-300 bg-emerald-50 text-emerald-900",
  info: "border-sky-300 bg-sky-50 text-sky-900",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-300 bg-red-50 text-red-900",
};

const VISIBLE_MS = 6_000;

/** The toast of the last action or guard (flash cookie, read by the root loader). Without
 *  JavaScript it stays until the next page; with it, it fades after a few seconds. */
export function ToastMessage({ toast }: { toast: Toast | null }) {
  const [shown, setShown] = useState(toast);
  useEffect(() => {
    setShown(toast);
    if (!toast) return;
    const timer = setTimeout(() => setShown(null), VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!shown) return null;
  return (
    <div data-toast={shown.type} className={`fixed right-4 top-[72px] z-50 max-w-sm rounded border px-4 py-3 text-sm shadow-lg ${STYLES[shown.type]}`}>
      <div className="flex items-start gap-3">
        {/* The live region holds the message only, so screen readers announce just that. */}
        <p role={shown.type === "error" ? "alert" : "status"}>{shown.message}</p>
        <button type="button" onClick={() => setShown(null)} className="ml-auto opacity-60 hover:opacity-100" aria-label="Schließen">
          ✕
        </button>
      </div>
    </div>
  );
}
