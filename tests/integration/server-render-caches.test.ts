/**
 * Two patches for the server's render of every page (patches/@remix-run+react+2.17.5.patch and
 * patches/react-router+6.30.4.patch), each tested on the very file the worker's bundle takes:
 * - Remix builds the server's route tree once per build (manifest and route modules) instead of
 *   once per request, and builds it anew when a route's module is another;
 * - React Router resolves a route's links against pathnames worked out once per matches array
 *   instead of once per link: every link must still point where it did, relative ones included,
 *   and a second render at another location must not see the first one's pathnames.
 */
// @ts-expect-error -- the file itself (dist/esm), as the worker's bundle takes it; no types of its own
import { createServerRoutes } from "@remix-run/react/dist/esm/routes.js";
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
// @ts-expect-error -- the production build the worker's bundle takes (react-router's "main")
import * as ReactRouter from "react-router/dist/umd/react-router.production.min.js";
import { describe, expect, it } from "vitest";

type Manifest = Record<string, { id: string; parentId?: string; path?: string; index?: boolean; hasLoader: boolean }>;

const manifest: Manifest = {
  root: { id: "root", path: "", hasLoader: true },
  "routes/people": { id: "routes/people", parentId: "root", path: "people", hasLoader: true },
  "routes/people.$personId": { id: "routes/people.$personId", parentId: "routes/people", path: ":personId", hasLoader: true },
  "routes/_index": { id: "routes/_index", parentId: "root", index: true, hasLoader: false },
};
const moduleNamed = (name: string) => ({ default: () => null, handle: { name } });
const modulesOf = () => Object.fromEntries(Object.keys(manifest).map((id) => [id, moduleNamed(id)]));
type ServerRoute = { id: string; path?: string; index?: boolean; handle: { name: string }; children?: ServerRoute[] };
const shape = (routes: ServerRoute[]): unknown =>
  routes.map((route) => ({ id: route.id, path: route.path, handle: route.handle.name, children: shape(route.children ?? []) }));

describe("Remix's server route tree, made once per build", () => {
  it("hands out the same tree while manifest and modules are the same, and a new one when a module changed", () => {
    const modules = modulesOf();
    const first: ServerRoute[] = createServerRoutes(manifest, modules, {}, false);
    expect(shape(first)).toEqual([
      {
        id: "root",
        path: "",
        handle: "root",
        children: [
          {
            id: "routes/people",
            path: "people",
            handle: "routes/people",
            children: [{ id: "routes/people.$personId", path: ":personId", handle: "routes/people.$personId", children: [] }],
          },
          { id: "routes/_index", path: undefined, handle: "routes/_index", children: [] },
        ],
      },
    ]);
    // Each request brings its own object of the same modules.
    expect(createServerRoutes(manifest, { ...modules }, {}, false)).toBe(first);

    const changed = { ...modules, "routes/people": moduleNamed("neu") };
    const second: ServerRoute[] = createServerRoutes(manifest, changed, {}, false);
    expect(second).not.toBe(first);
    expect(second[0].children![0].handle.name).toBe("neu");
    expect(createServerRoutes(manifest, changed, {}, true)).not.toBe(second);
  });
});

describe("React Router's links, resolved once per route", () => {
  const { MemoryRouter, Routes, Route, Outlet, useHref, useResolvedPath } = ReactRouter;
  expect(String(useResolvedPath)).toContain("wuffResolveToMatches");
  // A link as react-router-dom's <Link> makes its href (useHref resolves with useResolvedPath).
  const Link = ({ to }: { to: string }) => createElement("a", { href: useHref(to) }, to);

  const links = (...targets: string[]): ReactNode =>
    createElement("nav", null, ...targets.map((to) => createElement(Link, { key: to, to }, to)), createElement(Outlet));
  const render = (location: string) =>
    renderToString(
      createElement(
        MemoryRouter,
        { initialEntries: [location] },
        createElement(
          Routes,
          null,
          createElement(
            Route,
            { path: "/", element: links("/", "people", ".") },
            createElement(
              Route,
              { path: "people", element: links(".", "..", "fees") },
              createElement(
                Route,
                { path: ":personId", element: links(".", "..", "dogs", "../18", "?tab=1") },
                createElement(Route, { path: ":tab", element: links(".", "..", "../fees") }),
              ),
            ),
          ),
        ),
      ),
    );
  const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map(([, href]) => href.replaceAll("&amp;", "&"));

  it("points every link where React Router always did, at every level and location", () => {
    expect(hrefs(render("/people/17/dogs"))).toEqual([
      "/",
      "/people",
      "/",
      "/people",
      "/",
      "/people/fees",
      "/people/17",
      "/people",
      "/people/17/dogs",
      "/people/18",
      "/people/17/dogs?tab=1",
      "/people/17/dogs",
      "/people/17",
      "/people/17/fees",
    ]);
    // Another request, other pathnames: nothing of the first render's is reused.
    expect(hrefs(render("/people/4/fees"))).toEqual([
      "/",
      "/people",
      "/",
      "/people",
      "/",
      "/people/fees",
      "/people/4",
      "/people",
      "/people/4/dogs",
      "/people/18",
      "/people/4/fees?tab=1",
      "/people/4/fees",
      "/people/4",
      "/people/4/fees",
    ]);
  });
});
