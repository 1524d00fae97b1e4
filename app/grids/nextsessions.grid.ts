import { defineGrid } from "~/components/data-grid/declare";
import { nextSessionsForPerson, type NextSession } from "~/models/people.server";

/** 'Nächste Kurstermine für {person}' (the NextSessionsForPerson query): read-only, soonest first. */
export const nextSessionsGrid = defineGrid<NextSession>({
  id: "nextsessions",
  entity: null,
  area: "people",
  mounts: { PERSON: { title: (person) => `Nächste Kurstermine für ${person.name}`, prefix: "session" } },
  columns: [
    { id: "startDateTime", header: "Datum", value: (session) => session.startDateTime, type: "dateTimeWeekday", sortable: false },
    { id: "courseName", header: "Kurs", value: (session) => session.courseName, sortable: false },
  ],
  defaultSort: { id: "startDateTime", descending: false },
  model: {
    list: async (db, query) => {
      const rows = query.parent ? await nextSessionsForPerson(db, query.parent.id) : [];
      return { rows, total: rows.length };
    },
  },
  columnChooser: false,
  selectable: false,
  emptyText: "Keine anstehenden Kurstermine",
});
