import { defineGrid } from "~/components/data-grid/declare";
import { portalCancelText } from "~/lib/portal-courses";
import { coursesGrid } from "./courses.grid";
import { courseMasterName, listCourseMasters, pageOfCourseMaster, type CourseMasterRow } from "~/models/course-masters.server";

/**
 * Kurs-Typen (spec 000 §2: courseMasters, ADMIN only): the kinds of course with planned sessions,
 * capacity and prices; the selected type's courses in the tab Kurse (parent type COURSEMASTER).
 */
export const courseMastersGrid = defineGrid<CourseMasterRow>({
  id: "courseMasters",
  entity: "courseMaster",
  area: "courseMasters",
  mounts: { PARENT: { title: "Kurs-Typen" } },
  columns: [
    { id: "id", header: "Id", value: (m) => m.id, type: "number", hidden: true },
    { id: "name", header: "Name", value: (m) => m.name },
    { id: "nrOfSessions", header: "Termine (geplant)", value: (m) => m.nrOfSessions, type: "number" },
    { id: "maxDogs", header: "Max. Hunde", value: (m) => m.maxDogs, type: "number" },
    { id: "costFull", header: "Preis Nichtmitglieder", value: (m) => m.costFull, type: "money" },
    { id: "costReduced1", header: "Preis ermäßigt 1", value: (m) => m.costReduced1, type: "money" },
    { id: "costReduced2", header: "Preis ermäßigt 2", value: (m) => m.costReduced2, type: "money" },
    {
      id: "portalCancelDays",
      header: "Stornierung in Mein Wuff",
      value: (m) => (m.portalCancelDays === null ? "nein" : portalCancelText(m.portalCancelDays)),
    },
    { id: "onlineBooking", header: "Online buchbar", value: (m) => m.onlineBooking, type: "checkbox" },
    { id: "comments", header: "Kommentar", value: (m) => m.comments },
    { id: "courseCount", header: "Kurse", value: (m) => m.courseCount, type: "number" },
  ],
  defaultSort: { id: "name", descending: false },
  model: {
    list: (db, query) => listCourseMasters(db, query),
    pageOf: (db, id, query) => pageOfCourseMaster(db, id, query.sort, query.pageSize),
  },
  emptyText: "Keine Kurs-Typen",
  rows: {
    parentType: "COURSEMASTER",
    label: (db, id) => courseMasterName(db, id),
    rowLabel: (master) => master.name,
    tabsLabel: (name) => `Bereiche von Kurs-Typ ${name}`,
    // The courses grid comes with the Kurse screen (grid: coursesGrid); until then a placeholder.
    tabs: [{ path: "courses", label: "Kurse", grid: coursesGrid }],
    defaultTab: "courses",
  },
});
