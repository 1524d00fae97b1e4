import { useLocation } from "@remix-run/react";
import { isActiveLink } from "~/lib/active-link";
import { PlainLink, useFollowPlainLinks } from "./plain-links";

/** The tabs of a selected row (child panes as nested routes); the active one is marked (`current`
 *  names it where the URL does not, e.g. the default tab of a screen's first row). Plain anchors
 *  that the bar follows within the app (plain-links.tsx), keeping the scroll position. */
export function TabBar({ label, tabs, current }: { label: string; tabs: { to: string; label: string }[]; current?: string }) {
  const { pathname } = useLocation();
  const follow = useFollowPlainLinks({ preventScrollReset: true });
  return (
    <nav aria-label={label} onClick={follow} className="flex shrink-0 flex-wrap gap-1 border-b border-slate-200">
      {tabs.map((tab) => {
        const active = isActiveLink(pathname, tab.to) || current === tab.to.split("?")[0];
        return (
          <PlainLink
            key={tab.to}
            to={tab.to}
            current={active ? "page" : undefined}
            className={`-mb-px rounded-t border px-3 py-1.5 text-sm ${active ? "border-slate-200 border-b-white bg-white font-semibold text-wuff-800" : "border-transparent text-slate-600 hover:text-slate-900"}`}
          >
            {tab.label}
          </PlainLink>
        );
      })}
    </nav>
  );
}

/** The pane below the tabs. */
export const TAB_PANE_CLASS = "min-h-0 flex-1 overflow-auto bg-white p-2";
