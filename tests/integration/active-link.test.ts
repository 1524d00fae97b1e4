/**
 * The menus mark their current entry with isActiveLink (app/lib/active-link.ts) instead of
 * React Router's NavLink (app/components/plain-links.tsx says why): it must answer as NavLink
 * does, which is what the menus marked before. Compared with NavLink itself, rendered inside a
 * router at the location, over paths made of the app's kind of segments.
 */
import fc from "fast-check";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter, NavLink } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { isActiveLink } from "~/lib/active-link";

/** Whether React Router's NavLink at `location` marks its link to `to` as the current page. */
const navLinkIsActive = (location: string, to: string, end: boolean) =>
  renderToString(createElement(MemoryRouter, { initialEntries: [location] }, createElement(NavLink, { to, end }, "x"))).includes('aria-current="page"');

// Segments that meet at prefixes ('people', 'peoplemobile') or differ in case; maybe a trailing slash.
const segment = fc.constantFrom("people", "peoplemobile", "People", "dogs", "7", "dogs7", "mein", "daten");
const path = fc
  .tuple(fc.array(segment, { maxLength: 4 }), fc.boolean())
  .map(([segments, slash]) => `/${segments.join("/")}${slash && segments.length > 0 ? "/" : ""}`);

describe("isActiveLink", () => {
  it("marks the entries NavLink marks", () => {
    fc.assert(
      fc.property(path, path, fc.boolean(), fc.constantFrom("", "?returnTo=%2Fpeople", "#top"), (location, to, end, suffix) => {
        expect(isActiveLink(location, to + suffix, end)).toBe(navLinkIsActive(location, to + suffix, end));
      }),
      { seed: 20261202, numRuns: 400 },
    );
  });

  it("marks a screen and its rows, not a screen whose name starts alike, and home only at home", () => {
    expect(isActiveLink("/people", "/people")).toBe(true);
    expect(isActiveLink("/people/7/dogs", "/people")).toBe(true);
    expect(isActiveLink("/peoplemobile", "/people")).toBe(false);
    expect(isActiveLink("/People/7", "/people")).toBe(true);
    expect(isActiveLink("/quickAdd", "/quickAdd?returnTo=%2Fpeople")).toBe(true);
    expect(isActiveLink("/people", "/", true)).toBe(false);
    expect(isActiveLink("/", "/", true)).toBe(true);
    expect(isActiveLink("/mein/daten", "/mein", true)).toBe(false);
    expect(isActiveLink("/mein/daten", "/mein")).toBe(true);
  });
});
