import { useRouteLoaderData } from "@remix-run/react";
import type { loader as peopleLoader } from "./route";
import type { loader as personLoader } from "../people.$personId/route";

/** The People screen's data (grid, dialog) for its panes. */
export const usePeopleScreen = () => useRouteLoaderData<typeof peopleLoader>("routes/people")!;

/** The person selected in the People grid. */
export const useSelectedPerson = () => useRouteLoaderData<typeof personLoader>("routes/people.$personId")!.person;

/** The tab a person opens with (Kurse comes with the course capability). */
export const DEFAULT_TAB = "dogs";
