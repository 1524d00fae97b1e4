import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { closedDialogUrl, recordDialogAction } from "~/dialogs/records.server";
import { parseChoice, parsePage, parseSort, sortableIds } from "~/lib/grid";
import { DOG_DEFAULT_SORT, DOG_LISTS, type DogQuery } from "~/models/dogs.server";
import { DOG_COLUMNS } from "./columns";
import { DEFAULT_DOG_TAB } from "./hooks";

/** The dogs grid's list (Aktuelle/Archivierte), sort and page from the URL. */
export function dogsQuery(search: URLSearchParams): DogQuery {
  return {
    list: parseChoice(search, "list", DOG_LISTS, "current"),
    sort: parseSort(search, sortableIds(DOG_COLUMNS), DOG_DEFAULT_SORT),
    page: parsePage(search),
  };
}

const currentTab = (request: Request) => new URL(request.url).pathname.split("/")[3] ?? DEFAULT_DOG_TAB;

/** The dialogs' form posts on any Dogs pane. */
export function dogsScreenAction(args: ActionFunctionArgs) {
  const { request } = args;
  return recordDialogAction(args, {
    area: "dogs",
    afterPersonSaved: () => closedDialogUrl(request),
    afterPersonDeleted: () => closedDialogUrl(request),
    // The saved dog is shown selected, in the list (current or archived) it now belongs to.
    afterDogSaved: (dog) => {
      const url = new URL(closedDialogUrl(request, { list: dog.archived ? "archived" : null }), "http://x");
      return `/dogs/${dog.id}/${currentTab(request)}${url.search}`;
    },
    afterDogDeleted: () => `/dogs${new URL(closedDialogUrl(request), "http://x").search}`,
  });
}
