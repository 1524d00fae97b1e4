import { NavLink } from "@remix-run/react";

/** The tabs of a selected row (child panes as nested routes); the active one is marked (`current`
 *  names it where the URL does not, e.g. the default tab of a screen's first row). */
export function TabBar({ label, tabs, current }: { label: string; tabs: { to: string; label: string }[]; current?: string }) {
  return (
    <nav aria-label={label} className="flex shrink-0 flex-wrap gap-1 border-b border-slate-200">
      {tabs.map((tab) => (
        <NavLink
          key={tab.to}
          to={tab.to}
          preventScrollReset
          aria-current={current === tab.to.split("?")[0] ? "page" : undefined}
          className={({ isActive: matches }) =>
            `-mb-px rounded-t border px-3 py-1.5 text-sm ${matches || current === tab.to.split("?")[0] ? "border-slate-200 border-b-white bg-white font-semibold text-wuff-800" : "border-transparent text-slate-600 hover:text-slate-900"}`
          }
        >
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}

/** The pane below the tabs. */
export const TAB_PANE_CLASS = "min-h-0 flex-1 overflow-auto bg-white p-2";
