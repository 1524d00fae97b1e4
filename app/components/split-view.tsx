import { useCallback, useEffect, useRef, useState, type CSSProperties, type PointerEvent as ReactPointerEvent, type ReactNode } from "react";

const MIN = 20;
const MAX = 80;
const DEBOUNCE_MS = 16;

/**
 * Two panes above each other with a divider the user can drag (spec: top pane between 20 % and
 * 80 %, default 70/30, 16 ms debounce). Without JavaScript it is a fixed 70/30 split. On a phone
 * (below md) the panes follow each other instead, each as tall as the screen allows.
 */
export function SplitView({ top, bottom, storageKey, defaultTop = 70 }: { top: ReactNode; bottom: ReactNode; storageKey: string; defaultTop?: number }) {
  const [topPercent, setTopPercent] = useState(defaultTop);
  const container = useRef<HTMLDivElement>(null);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    const saved = Number(window.localStorage.getItem(storageKey));
    if (saved >= MIN && saved <= MAX) setTopPercent(saved);
  }, [storageKey]);

  const apply = useCallback(
    (percent: number) => {
      const bounded = Math.min(MAX, Math.max(MIN, percent));
      if (pending.current) clearTimeout(pending.current);
      pending.current = setTimeout(() => {
        setTopPercent(bounded);
        window.localStorage.setItem(storageKey, String(bounded));
      }, DEBOUNCE_MS);
    },
    [storageKey],
  );

  const startDrag = (event: ReactPointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    const box = container.current?.getBoundingClientRect();
    if (!box) return;
    const onMove = (move: PointerEvent) => apply(((move.clientY - box.top) / box.height) * 100);
    const onUp = () => {
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
    };
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "ArrowUp") apply(topPercent - 5);
    if (event.key === "ArrowDown") apply(topPercent + 5);
  };

  return (
    // On a phone no split: the grid gets the whole screen and the tabs follow below it.
    // Printed, the top pane (the list) is the page: full length, without the divider and the tabs.
    <div ref={container} className="flex flex-col gap-4 md:h-[calc(100vh-60px-3rem)] md:min-h-[480px] md:gap-0 print:block print:h-auto print:min-h-0">
      <div
        className="flex h-[calc(100dvh-60px-2rem)] min-h-0 flex-col overflow-hidden md:h-auto md:basis-[var(--split-top)] print:block print:h-auto print:overflow-visible"
        style={{ "--split-top": `${topPercent}%` } as CSSProperties}
      >
        {top}
      </div>
      <div
        role="separator"
        aria-orientation="horizontal"
        aria-valuenow={Math.round(topPercent)}
        aria-valuemin={MIN}
        aria-valuemax={MAX}
        aria-label="Aufteilung ändern"
        tabIndex={0}
        onPointerDown={startDrag}
        onKeyDown={onKeyDown}
        className="my-1 hidden h-2 shrink-0 cursor-row-resize rounded bg-slate-200 hover:bg-wuff-500 focus:bg-wuff-500 focus:outline-none md:block print:hidden"
      />
      <div className="flex min-h-[70dvh] flex-col overflow-hidden md:min-h-0 md:flex-1 print:hidden">{bottom}</div>
    </div>
  );
}
