/**
 * What every pane of the People screen shares on the server: the query of the parent grid as the
 * URL states it, and the action of the person and dog dialogs.
 */
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { closedDialogUrl, maySeeProtectedPersonData, recordDialogAction } from "~/dialogs/records.server";
import type { User } from "~/lib/access";
import { parseChoice, parsePage, parseSort, sortableIds } from "~/lib/grid";
import { PEOPLE_DEFAULT_SORT, PEOPLE_FILTERS, pageOfPerson, type PeopleQuery } from "~/models/people.server";
import { peopleColumns } from "./columns";

import { DEFAULT_TAB } from "./hooks";

/** The parent grid's filter, sort and page from the URL (protected sort keys only for those who
 *  may see the columns). */
export function peopleQuery(search: URLSearchParams, user: User): PeopleQuery {
  const withProtected = maySeeProtectedPersonData(user);
  return {
    filter: parseChoice(search, "filter", PEOPLE_FILTERS, "all"),
    sort: parseSort(search, sortableIds(peopleColumns(withProtected)), PEOPLE_DEFAULT_SORT),
    page: parsePage(search),
    withProtected,
  };
}

/** /people/:personId/:tab -> the tab, if any. */
const currentTab = (request: Request) => new URL(request.url).pathname.split("/")[3] ?? DEFAULT_TAB;

/** The dialogs' form posts on any People pane: after a change the grid shows the record. */
export function peopleScreenAction(args: ActionFunctionArgs) {
  const { request } = args;
  return recordDialogAction(args, {
    area: "people",
    afterPersonSaved: async (personId, user) => {
      const url = new URL(closedDialogUrl(request), "http://x");
      // The saved person may sort onto another page: open that page, with the person selected.
      const page = await pageOfPerson(args.context.db, personId, peopleQuery(url.searchParams, user));
      if (page !== null && page > 1) url.searchParams.set("page", String(page));
      else url.searchParams.delete("page");
      url.searchParams.delete("dog");
      return `/people/${personId}/${currentTab(request)}${url.search}`;
    },
    afterPersonDeleted: () => {
      const url = new URL(closedDialogUrl(request, { dog: null }), "http://x");
      return `/people${url.search}`;
    },
    afterDogSaved: (dog) => closedDialogUrl(request, { dog: dog.id }),
    afterDogDeleted: () => closedDialogUrl(request, { dog: null }),
  });
}
