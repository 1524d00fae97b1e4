import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData, useLocation, useSubmit } from "@remix-run/react";
import { DataGrid } from "~/components/data-grid/data-grid";
import { ToggleLinks } from "~/components/toggle-links";
import { childGridAction, loadChildGrid } from "~/components/data-grid/routes.server";
import { courseMembershipsGrid } from "~/grids/courseMemberships.grid";
import { formatCount } from "~/lib/format";
import { withSearch } from "~/lib/grid";
import { parseId } from "~/lib/ids";
import { attendanceSheet } from "~/models/attendances.server";
import { courseSheetOptions, type CourseSheetCourse } from "~/models/courses.server";
import { AttendanceTable } from "./attendance-table";
import { readForUser } from "~/services/auth.server";

/**
 * Kursblatt (spec 001 §2 Course sheet): a course chosen among the current (default) or all
 * courses, and its participants in the same grid as the course's tab Teilnehmer. The URL holds
 * the choice (?course=17&show=all), so it works without JavaScript; printed, it is the
 * participant list for the training field.
 */
type Show = "current" | "all";
const showOf = (search: URLSearchParams): Show => (search.get("show") === "all" ? "all" : "current");

async function chosen(args: LoaderFunctionArgs | ActionFunctionArgs, courses: CourseSheetCourse[]) {
  const wanted = parseId(new URL(args.request.url).searchParams.get("course"));
  return courses.find((course) => course.id === wanted) ?? courses[0] ?? null;
}

export async function loader(args: LoaderFunctionArgs) {
  const search = new URL(args.request.url).searchParams;
  const show = showOf(search);
  const { value } = await readForUser(args, ["courseSheet", courseMembershipsGrid.area], async (user) => {
    const courses = await courseSheetOptions(args.context.db, show);
    const course = await chosen(args, courses);
    // The grid and the attendance are read together (one round trip).
    const [grid, attendance] = course
      ? await Promise.all([
          loadChildGrid(args, courseMembershipsGrid, { type: "COURSE", id: course.id, name: course.name }, user),
          attendanceSheet(args.context.db, course.id),
        ])
      : [null, null];
    return { courses, course, grid, attendance };
  });
  const warning = value.courses.length > 0 ? null : show === "current" ? "Keine laufenden Kurse gefunden" : "Konnte keine Kurse laden";
  return { show, warning, ...value };
}

export async function action(args: ActionFunctionArgs) {
  const courses = await courseSheetOptions(args.context.db, showOf(new URL(args.request.url).searchParams));
  const course = await chosen(args, courses);
  return childGridAction(args, "courseSheet", courseMembershipsGrid, course ? { type: "COURSE", id: course.id, name: course.name } : null);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Kursblatt${data?.course ? ` ${data.course.name}` : ""} – Wuff` }];

const SHOW_OPTIONS: { value: Show; label: string }[] = [
  { value: "current", label: "Nur aktuelle Kurse" },
  { value: "all", label: "Alle Kurse" },
];

export default function CourseSheet() {
  const { show, courses, course, grid, attendance, warning } = useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  const submit = useSubmit();
  const details = course
    ? [
        course.trainerName && `Trainer: ${[course.trainerName, course.cotrainerName].filter(Boolean).join(", ")}`,
        course.webTimeInformation,
        course.location && `Ort: ${course.location}`,
        `${formatCount(course.actualNrOfDogs, "Hund", "Hunde")}${course.maxDogs !== null ? ` von ${course.maxDogs}` : ""}`,
      ].filter(Boolean)
    : [];
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-lg font-semibold text-wuff-800">
        Kursblatt<span className="hidden print:inline">{course ? `: ${course.name}` : ""}</span>
      </h1>
      <div className="flex flex-wrap items-end gap-3 print:hidden">
        <Form
          method="get"
          action={pathname}
          className="flex flex-wrap items-end gap-2"
          onChange={(event) => submit(event.currentTarget, { replace: true, preventScrollReset: true })}
        >
          {show === "all" && <input type="hidden" name="show" value="all" />}
          <div>
            <label htmlFor="course-sheet-course" className="mb-1 block text-sm font-medium text-slate-700">
              Kurs
            </label>
            <select
              id="course-sheet-course"
              name="course"
              defaultValue={course?.id}
              key={course?.id}
              className="block w-72 max-w-full rounded border border-slate-300 px-2 py-1.5 text-sm"
            >
              {courses.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50">
            Anzeigen
          </button>
        </Form>
        <ToggleLinks
          label="Kurse zur Auswahl"
          options={SHOW_OPTIONS}
          active={show}
          hrefOf={(value) => `${pathname}${withSearch(search, { show: value === "current" ? null : value, course: null })}`}
        />
      </div>
      {warning && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {warning}
        </p>
      )}
      {details.length > 0 && <p className="text-sm text-slate-700">{details.join(" · ")}</p>}
      {grid && <DataGrid data={grid} />}
      {course && attendance && <AttendanceTable courseName={course.name} {...attendance} />}
    </div>
  );
}
