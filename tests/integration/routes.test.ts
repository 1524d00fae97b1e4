/**
 * The kit's promise: a dialog works on every page. Dialogs are rendered by the app on any page;
 * their forms post to the page they are on, so every page route behind the login must answer
 * those posts with the kit's dialog action. A page route without it fails here.
 */
import { describe, expect, it } from "vitest";
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore -- the server build exists once `npm run build` ran (the test command builds first)
import * as build from "../../build/server";
import { fetchApp } from "../support/app";
import { loginCookie } from "../support/sessions";

type RouteEntry = { id: string; path?: string; index?: boolean; module: { default?: unknown; action?: unknown; loader?: unknown } };
const routes = Object.values((build as unknown as { routes: Record<string, RouteEntry> }).routes);

/** Pages that are not grid screens: no dialogs are opened over them. */
const NOT_GRID_PAGES = new Set([
  "root",
  "routes/_index",
  "routes/login",
  "routes/logout",
  "routes/auth.callback",
  "routes/$",
  "routes/quickAdd",
  "routes/configuration",
]);

describe("every grid page answers the dialogs' posts", () => {
  // Mein Wuff's pages (routes/mein…) and the public catalogue (routes/kurse…) are no staff screens:
  // the root mounts no dialog host there.
  const pages = routes.filter(
    (route) =>
      route.module.default &&
      !NOT_GRID_PAGES.has(route.id) &&
      !route.id.startsWith("under-construction-") &&
      !route.id.startsWith("routes/mein") &&
      !route.id.startsWith("routes/kurse"),
  );

  it("covers the grid screens", () => {
    expect(pages.map((route) => route.id)).toEqual(
      expect.arrayContaining([
        "routes/people",
        "routes/people._index",
        "routes/people.$personId.$tab",
        "routes/dogs",
        "routes/certifications",
        "routes/recyclebin",
      ]),
    );
  });

  it.each(pages.map((route) => [route.id, route] as const))("%s has an action", (_id, route) => {
    expect(route.module.action, route.id).toBeTypeOf("function");
  });

  it("an unknown intent is refused in German on any grid page, not with 405 or 500", async () => {
    const cookie = await loginCookie("admin");
    for (const path of ["/people", "/dogs", "/certifications", "/recyclebin", "/certificationMasters"]) {
      const response = await fetchApp(path, { method: "POST", cookie, body: new URLSearchParams({ intent: "nichts:da" }) });
      expect(response.status, path).toBe(400);
      expect(await response.text(), path).toContain("Unbekannte Aktion");
    }
  });
});
