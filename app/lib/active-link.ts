/**
 * Whether a menu entry leads to the page being shown: React Router's rule for NavLink (v6.30,
 * `isActive`), for the menus that render plain anchors (app/components/plain-links.tsx). The entry's
 * path matches the location's exactly, or, unless `end`, is a parent of it ('/people' is active on
 * '/people/7/dogs', not on '/peoplemobile'); case-insensitive, the query of `to` does not count.
 */
export function isActiveLink(locationPathname: string, to: string, end = false): boolean {
  const path = to.split(/[?#]/, 1)[0].toLowerCase();
  const location = locationPathname.toLowerCase();
  if (location === path) return true;
  if (end) return false;
  // '/people/' matches '/people/7' as '/people' does (the trailing slash is not doubled).
  const slashAt = path !== "/" && path.endsWith("/") ? path.length - 1 : path.length;
  return location.startsWith(path) && location.charAt(slashAt) === "/";
}
