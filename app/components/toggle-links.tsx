import { PlainLink, useFollowPlainLinks } from "./plain-links";

/**
 * A group of links of which one is chosen (a grid's toggle, the Kursblatt's course choice, the
 * Kalender's view): each option is a link, so it works without JavaScript; the chosen one is
 * marked with aria-current. Printed, only the chosen option remains, as plain text: it says
 * what the page holds. The options are plain anchors that the group follows (plain-links.tsx).
 */
export function ToggleLinks({
  label,
  options,
  active,
  hrefOf,
  replace = false,
}: {
  label: string;
  options: readonly { value: string; label: string }[];
  active: string;
  /** The option's address: a path of the app ('/scheduler?view=week'), not relative ('?view=week'). */
  hrefOf: (value: string) => string;
  /** The choice replaces the page in the history (a filter), instead of adding one (a view). */
  replace?: boolean;
}) {
  const follow = useFollowPlainLinks({ preventScrollReset: true, replace });
  return (
    <div role="group" aria-label={label} onClick={follow} className="inline-flex overflow-hidden rounded border border-slate-300 text-sm print:border-0">
      {options.map((option) => (
        <PlainLink
          key={option.value}
          to={hrefOf(option.value)}
          current={active === option.value ? "true" : undefined}
          className={`px-2.5 py-1 ${active === option.value ? "bg-wuff-700 text-white print:bg-transparent print:px-0 print:text-slate-700" : "bg-white hover:bg-slate-50 print:hidden"}`}
        >
          {option.label}
        </PlainLink>
      ))}
    </div>
  );
}
