/**
 * Links a page has many of (the menus, a row's tabs, a grid's sort headers, pager and toggles) as
 * plain anchors, followed within the app by one listener on their container.
 *
 * Why not Link and NavLink: each one runs about a dozen of React Router's hooks (resolving its
 * path, the navigation's state, view transitions, its own click handler), on the server for every
 * page, and a grid page has some 80 of them: about 5 % of a page (docs/benchmarks.md, "Menus and
 * grid links as plain anchors"). A plain anchor costs next to nothing; which entry is current is
 * worked out by the caller (isActiveLink: React Router's rule for menus). The anchors carry
 * `data-discover` as Remix's links do, so Remix still learns their routes ahead of a click (its
 * route discovery looks for that mark). Without JavaScript they are the links they look like.
 */
import { useNavigate } from "@remix-run/react";
import type { MouseEvent, ReactNode } from "react";

/** A click the app may take over: the main button, no modifier (those open tabs and windows). */
export const isPlainClick = (event: { button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean }) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/**
 * The click listener of a container of PlainLinks: a plain click on one of them navigates within
 * the app, as a Link with the same options would (the same address again replaces the history
 * entry, as Link does).
 */
export function useFollowPlainLinks({ preventScrollReset = false, replace = false } = {}) {
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || !isPlainClick(event)) return;
    // Only a PlainLink gets here (a Link inside handles its own click): an address of the app.
    const anchor = (event.target as Element).closest<HTMLAnchorElement>("a[data-discover]");
    if (!anchor) return;
    event.preventDefault();
    const to = `${anchor.pathname}${anchor.search}${anchor.hash}`;
    // The page shown is the browser's location (read at the click, not rendered into every page).
    const { pathname, search, hash } = window.location;
    navigate(to, { preventScrollReset, replace: replace || to === `${pathname}${search}${hash}` });
  };
}

/** A link to a page of the app (`to`: a path, no target) inside a container that follows it
 *  (useFollowPlainLinks); `current` marks the entry shown now: "page" in a menu, "true" for the
 *  chosen option of a group. */
export function PlainLink({ to, current, className, children }: { to: string; current?: "page" | "true"; className?: string; children: ReactNode }) {
  return (
    <a data-discover="true" aria-current={current} className={className} href={to}>
      {children}
    </a>
  );
}
