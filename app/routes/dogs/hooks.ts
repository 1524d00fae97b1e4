import { useRouteLoaderData } from "@remix-run/react";
import type { loader as dogsLoader } from "./route";

/** The Dogs screen's data (grid, dialog) for its panes. */
export const useDogsScreen = () => useRouteLoaderData<typeof dogsLoader>("routes/dogs")!;

/** The tabs of a dog (child grids with parent type DOG). */
export const DOG_TABS = [
  { path: "coursememberships", label: "Kurse" },
  { path: "certifications", label: "Erfolge" },
] as const;
export const DEFAULT_DOG_TAB = DOG_TABS[0].path;
