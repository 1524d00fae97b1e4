import type { RouteConfig } from "@remix-run/route-config";
import { flatRoutes } from "@remix-run/fs-routes";

// One folder per route under app/routes (route.tsx plus its helpers), named by Remix's flat
// route convention: "people.$personId.dogs" nests under "people".
export default flatRoutes() satisfies RouteConfig;
