import { flatRoutes } from "@remix-run/fs-routes";
import { layout, route, type RouteConfig } from "@remix-run/route-config";
import { AREA_ACCESS } from "./lib/access";

const UNDER_CONSTRUCTION = "routes/_under-construction.tsx";
const PAGES = "routes/_pages.tsx";

// One folder per route under app/routes (route.tsx plus its helpers), named by Remix's flat
// route convention: "people.$personId.dogs" nests under "people".
const fileRoutes = await flatRoutes({ ignoredRouteFiles: ["_under-construction.tsx", "_pages.tsx"] });

// Screens of the route table that no capability has built yet: guarded placeholder pages, so no
// menu entry leads to an error. A screen that gets its own folder in app/routes replaces its entry.
const builtPaths = new Set(fileRoutes.map((entry) => entry.path?.split("/")[0]));
const placeholders = Object.keys(AREA_ACCESS)
  .filter((area) => !builtPaths.has(area))
  .map((area) => route(area, UNDER_CONSTRUCTION, { id: `under-construction-${area}` }));

// All of them inside one pathless layout: its error boundary shows a page's error in the app shell
// with the logged-in user's top bar (see routes/_pages.tsx).
export default [layout(PAGES, { id: "pages" }, [...fileRoutes, ...placeholders])] satisfies RouteConfig;
