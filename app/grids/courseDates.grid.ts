import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { formatDate, formatDateTimeWithWeekday, formatWeekday } from "~/lib/format";
import { COURSE_DATE_DEFAULT_SORT, listCourseDates, pageOfCourseDate, type CourseDateRow } from "~/models/course-dates.server";

const courseDateQuery = (query: Pick<ListQuery, "parent" | "sort">) => ({
  courseId: query.parent?.type === "COURSE" ? query.parent.id : undefined,
  grouped: query.parent === null,
  sort: query.sort,
});

/**
 * Kursdaten (spec 001 §2 Course dates grid): every date, grouped by course name and start year,
 * and the tab Termine of a course ("Termine für '{course}'").
 */
export const courseDatesGrid = defineGrid<CourseDateRow>({
  id: "courseDates",
  entity: "courseDate",
  area: "courses",
  mounts: {
    PARENT: { title: "Kursdaten" },
    COURSE: { title: (course) => `Termine für '${course.name}'`, prefix: "date" },
  },
  columns: [
    { id: "id", header: "Id", value: (d) => d.id, type: "number", hidden: true },
    {
      id: "startDateTime",
      header: "Beginn",
      value: (d) => d.startDateTime,
      type: "dateTimeWeekday",
      display: (d) =>
        d.isAllDay ? `${formatDate(d.startDateTime)} (${formatWeekday(d.startDateTime)}), ganztägig` : formatDateTimeWithWeekday(d.startDateTime),
    },
    { id: "endDateTime", header: "Ende", value: (d) => d.endDateTime, type: "dateTime", hidden: true },
    { id: "courseName", header: "Kurs", value: (d) => d.courseName, omitUnder: ["COURSE"] },
    { id: "startYear", header: "Jahr", value: (d) => d.startYear, display: (d) => String(d.startYear), align: "right", omitUnder: ["COURSE"] },
    { id: "location", header: "Ort", value: (d) => d.location },
    { id: "comments", header: "Kommentar", value: (d) => d.comments },
  ],
  defaultSort: COURSE_DATE_DEFAULT_SORT,
  model: {
    list: (db, query) => listCourseDates(db, { ...courseDateQuery(query), page: query.page, pageSize: query.pageSize }),
    pageOf: (db, id, query) => pageOfCourseDate(db, id, courseDateQuery(query), query.pageSize),
  },
  groupBy: (d) => `${d.courseName} (${d.startYear})`,
  refresh: true,
  emptyText: "Keine Termine",
});
