import type { ToggleDecl } from "~/components/data-grid/declare";
import { currentYearInBerlin } from "~/lib/format";
import { COURSE_STATUS_FILTERS, courseYears, type CourseQuery, type CourseStatusFilter } from "~/models/courses.server";

/**
 * The courses' filters (spec 001 §2 Courses grid: status, and the year with the current one as
 * default): on the Kurse screen and on Kursteilnehmer, the participants of all courses.
 */

/** The year a list of courses opens with: the current one (the spec's fixed 2025 was its then-current year). */
const currentYear = () => String(currentYearInBerlin());

export const COURSE_STATUS_TOGGLE: ToggleDecl = {
  param: "status",
  label: "Kurse nach Status filtern",
  options: [
    { value: "all", label: "Alle" },
    { value: "current", label: "Nur aktuelle" },
    { value: "closed", label: "Nur abgeschlossene" },
  ],
  // A saved or linked course is shown: a finished one is not among the current ones.
  follow: (saved, current) =>
    saved.statusCode === undefined || current === "all" ? undefined : (saved.statusCode === "FINISHED") === (current === "closed") ? undefined : "all",
};

export const COURSE_YEAR_TOGGLE: ToggleDecl = {
  param: "year",
  label: "Kurse nach Jahr filtern",
  options: [{ value: "all", label: "Alle" }],
  dataOptions: {
    accepts: (value) => /^\d{4}$/.test(value),
    load: async (db) => (await courseYears(db)).map((year) => ({ value: String(year), label: String(year) })).sort((a, b) => a.value.localeCompare(b.value)),
  },
  fallback: currentYear,
  follow: (saved) => (saved.startYear === undefined ? undefined : String(saved.startYear)),
};

/** The toggles' values as the models read them. */
export const courseFiltersOf = (toggles: Record<string, string | undefined>): Pick<CourseQuery, "status" | "year"> => ({
  status: (COURSE_STATUS_FILTERS.includes(toggles.status as CourseStatusFilter) ? toggles.status : "all") as CourseStatusFilter,
  year: /^\d{4}$/.test(toggles.year ?? "") ? Number(toggles.year) : "all",
});
