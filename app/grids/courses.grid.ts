import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { COURSE_DEFAULT_SORT, courseName, listCourses, pageOfCourse, type CourseRow } from "~/models/courses.server";
import { COURSE_STATUS_TOGGLE, COURSE_YEAR_TOGGLE, courseFiltersOf } from "./courseFilters";
import { DURATION_MODEL_LABELS, PRICING_MODEL_LABELS } from "~/lib/labels";
import { courseDatesGrid } from "./courseDates.grid";
import { courseMembershipsGrid } from "./courseMemberships.grid";

/** '9 / 8': the actual number and, when there is one, the planned. */
const ofPlanned = (actual: number, planned: number | null) => (planned === null ? String(actual) : `${actual} / ${planned}`);

const courseQuery = (query: Pick<ListQuery, "toggles" | "sort" | "search" | "parent">) => ({
  ...courseFiltersOf(query.toggles),
  term: query.search,
  courseMasterId: query.parent?.type === "COURSEMASTER" ? query.parent.id : undefined,
  sort: query.sort,
});

/**
 * Kurse (spec 001 §2 Courses grid): PARENT with the tabs Teilnehmer and Termine, and under a
 * course type ('Kurse für Kurstyp {name}'). Red: more dogs than places, or the planned number of
 * sessions differs from the course dates.
 */
export const coursesGrid = defineGrid<CourseRow>({
  id: "courses",
  entity: "course",
  area: "courses",
  mounts: {
    PARENT: { title: "Kurse" },
    COURSEMASTER: { title: (master) => `Kurse für Kurstyp ${master.name}`, prefix: "course" },
  },
  columns: [
    { id: "id", header: "Id", value: (c) => c.id, type: "number", hidden: true },
    { id: "name", header: "Name", value: (c) => c.name },
    { id: "startYear", header: "Jahr", value: (c) => c.startYear, display: (c) => String(c.startYear), align: "right" },
    { id: "webTimeInformation", header: "Zeit", value: (c) => c.webTimeInformation },
    { id: "trainerName", header: "Trainer", value: (c) => c.trainerName, link: (c) => (c.trainerId ? { dialog: "person-edit", id: c.trainerId } : null) },
    {
      id: "cotrainerName",
      header: "Co-Trainer",
      value: (c) => c.cotrainerName,
      link: (c) => (c.cotrainerId ? { dialog: "person-edit", id: c.cotrainerId } : null),
    },
    { id: "startDateTime", header: "Beginn", value: (c) => c.startDateTime, type: "dateTimeWeekday" },
    // 'taking part / places' and 'dates / planned' at a glance; red when over or off the plan.
    {
      id: "actualNrOfDogs",
      header: "Hunde",
      value: (c) => c.actualNrOfDogs,
      type: "number",
      display: (c) => ofPlanned(c.actualNrOfDogs, c.maxDogs),
      warn: (c) => c.overCapacity,
    },
    { id: "maxDogs", header: "Max. Hunde", value: (c) => c.maxDogs, type: "number", hidden: true },
    {
      id: "actualNrOfSessions",
      header: "Termine",
      value: (c) => c.actualNrOfSessions,
      type: "number",
      display: (c) => ofPlanned(c.actualNrOfSessions, c.nrOfSessions),
      warn: (c) => c.sessionsDiffer,
    },
    { id: "nrOfSessions", header: "Termine (geplant)", value: (c) => c.nrOfSessions, type: "number", hidden: true },
    { id: "costFull", header: "Preis", value: (c) => c.costFull, type: "money" },
    { id: "costReduced1", header: "Preis ermäßigt 1", value: (c) => c.costReduced1, type: "money", hidden: true },
    { id: "costReduced2", header: "Preis ermäßigt 2", value: (c) => c.costReduced2, type: "money", hidden: true },
    { id: "status", header: "Status", value: (c) => c.status },
    { id: "location", header: "Ort", value: (c) => c.location },
    { id: "courseMasterName", header: "Kurs-Typ", value: (c) => c.courseMasterName, hidden: true, omitUnder: ["COURSEMASTER"] },
    { id: "durationModel", header: "Dauer", value: (c) => DURATION_MODEL_LABELS[c.durationModel as keyof typeof DURATION_MODEL_LABELS], hidden: true },
    { id: "pricingModel", header: "Preismodell", value: (c) => PRICING_MODEL_LABELS[c.pricingModel as keyof typeof PRICING_MODEL_LABELS], hidden: true },
    { id: "comments", header: "Kommentar", value: (c) => c.comments, hidden: true },
  ],
  toggles: [COURSE_STATUS_TOGGLE, COURSE_YEAR_TOGGLE],
  search: { placeholder: "Kursname" },
  defaultSort: COURSE_DEFAULT_SORT,
  model: {
    list: (db, query) => listCourses(db, { ...courseQuery(query), page: query.page, pageSize: query.pageSize }),
    pageOf: (db, id, query) => pageOfCourse(db, id, courseQuery(query), query.pageSize),
  },
  emptyText: "Keine Kurse gefunden",
  rows: {
    parentType: "COURSE",
    label: async (db, id) => (await courseName(db, id))?.name,
    rowLabel: (course) => course.name,
    tabsLabel: (name) => `Bereiche von Kurs ${name}`,
    tabs: [
      { path: "coursememberships", label: "Teilnehmer", grid: courseMembershipsGrid },
      { path: "coursedates", label: "Termine", grid: courseDatesGrid },
    ],
    defaultTab: "coursememberships",
    linkParam: { name: "selectedCourseId", follow: (db, id) => courseName(db, id) },
  },
});
