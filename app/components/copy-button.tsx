import { useEffect, useState } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * Copies a text (a link's address) to the clipboard. Only with JavaScript: without it the text
 * itself is shown to be selected and copied by hand, so no dead button is rendered.
 */
export function CopyButton({ text, label = "Kopieren", className = "" }: { text: string; label?: string; className?: string }) {
  const hydrated = useHydrated();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  if (!hydrated) return null;
  return (
    <button
      type="button"
      data-cell-link
      aria-label={`${label}: ${text}`}
      onClick={() => {
        navigator.clipboard.writeText(text).then(
          () => setState("copied"),
          () => setState("failed"),
        );
      }}
      className={`rounded border border-slate-300 px-1.5 py-0.5 text-xs text-slate-700 hover:bg-slate-50 print:hidden ${className}`}
    >
      <span aria-live="polite">{state === "copied" ? "Kopiert" : state === "failed" ? "Nicht kopiert" : label}</span>
    </button>
  );
}
