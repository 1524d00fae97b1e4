/**
 * The course date dialogs: add (one date or a weekly series), edit, delete. A new date starts 7
 * days after the course's last date with that date's duration, else at the course's start for an
 * hour; its location is the course's. Choosing another course (a draft) brings its defaults.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import type { Db } from "~/db/client.server";
import { DEFAULT_DURATION, durationOf, endOf, isTimeChoice, weeklyStarts } from "~/lib/course-dates";
import { addDaysToDate, berlinDateOf, formatCount, formatDate, formatDateTime, formatTime, todayInBerlin } from "~/lib/format";
import { parseId } from "~/lib/ids";
import {
  courseDateBasis,
  courseDateReferencesExist,
  courseOptionsForDates,
  deleteCourseDate,
  getCourseDate,
  insertCourseDates,
  updateCourseDate,
  type CourseDateRecord,
} from "~/models/course-dates.server";
import { locationOptions } from "~/models/courses.server";
import { ATTENDANCE_WORDS, attendanceCount } from "~/models/attendances.server";
import { auditText, defineDialog, deleteOutcome, deletionDetails, postedId, saveVersioned, type ConfirmData, type DialogViewContext } from "../define.server";
import { courseDateSchema } from "./schema";
import { courseDatesGrid } from "~/grids/courseDates.grid";

const FIELDS = ["courseId", "startDate", "startTime", "duration", "isAllDay", "locationId", "comments", "count", "skip"] as const;
type Values = Partial<Record<(typeof FIELDS)[number], string>>;

function present(date: CourseDateRecord) {
  return {
    id: date.id,
    rowVersion: date.rowVersion,
    courseId: String(date.courseId),
    startDate: formatDate(berlinDateOf(date.startDateTime)),
    startTime: formatTime(date.startDateTime),
    duration: durationOf(date.startDateTime, date.endDateTime),
    isAllDay: date.isAllDay ? "on" : "",
    locationId: date.locationId ? String(date.locationId) : "",
    comments: date.comments ?? "",
    courseName: date.courseName,
    audit: auditText(date),
  };
}
export type CourseDateFormRecord = ReturnType<typeof present>;

/** Where a new date of the course starts, how long it lasts, where it is (spec 001 §4 course date). */
async function defaultsFor(db: Db, courseId: number | null): Promise<Values> {
  const basis = courseId ? await courseDateBasis(db, courseId) : undefined;
  if (!basis) return { startDate: "", startTime: "", duration: DEFAULT_DURATION, locationId: "" };
  const { course, last } = basis;
  const from = last
    ? {
        day: addDaysToDate(berlinDateOf(last.startDateTime), 7),
        time: formatTime(last.startDateTime),
        duration: durationOf(last.startDateTime, last.endDateTime),
      }
    : course.startDateTime
      ? { day: berlinDateOf(course.startDateTime), time: formatTime(course.startDateTime), duration: DEFAULT_DURATION }
      : { day: todayInBerlin(), time: "", duration: DEFAULT_DURATION };
  const locationId = last?.locationId ?? course.locationId;
  return {
    courseId: String(course.id),
    startDate: formatDate(from.day),
    startTime: isTimeChoice(from.time) ? from.time : "",
    duration: from.duration,
    locationId: locationId ? String(locationId) : "",
  };
}

export type CourseDateDialogData = {
  date: CourseDateFormRecord | null;
  values: Values;
  valuesKey: string;
  courses: { id: number; label: string }[];
  courseLocked: boolean;
  locations: { id: number; label: string }[];
};

async function dialogData({ db, parent, draft }: DialogViewContext, date: CourseDateRecord | null): Promise<CourseDateDialogData> {
  const courseFromParent = parent?.type === "COURSE" ? parent.id : null;
  const values: Values = date
    ? present(date)
    : Object.keys(draft).length > 0
      ? Object.fromEntries(FIELDS.map((field) => [field, draft[field] ?? ""]))
      : { count: "1", ...(await defaultsFor(db, courseFromParent)) };
  if (courseFromParent && !date) values.courseId = String(courseFromParent);
  const [courses, locations] = await Promise.all([courseOptionsForDates(db), locationOptions(db)]);
  return {
    date: date && present(date),
    values,
    valuesKey: FIELDS.map((field) => values[field] ?? "").join("|"),
    courses,
    courseLocked: Boolean(date) || courseFromParent !== null,
    locations,
  };
}

/** A draft: another course brings its defaults; what was typed otherwise stays. */
async function draftOf(db: Db, form: FormData): Promise<Record<string, string>> {
  const posted: Values = Object.fromEntries(FIELDS.map((field) => [field, String(form.get(field) ?? "").slice(0, 500)]));
  const courseId = parseId(posted.courseId);
  const defaults = await defaultsFor(db, courseId);
  return { ...posted, ...defaults, courseId: courseId ? String(courseId) : "", isAllDay: posted.isAllDay ? "on" : "" } as Record<string, string>;
}

export const dialog = defineDialog({
  area: "courses",
  history: { table: "course_dates", grid: courseDatesGrid },
  views: {
    add: (context) => dialogData(context, null),
    edit: async (context) => {
      const date = context.id ? await getCourseDate(context.db, context.id) : undefined;
      return date ? dialogData(context, date) : null;
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const [date, attendanceRows] = id ? await Promise.all([getCourseDate(db, id), attendanceCount(db, { courseDateId: id })]) : [];
      if (!date) return null;
      return {
        confirm: {
          title: `Termin ${formatDateTime(date.startDateTime)} löschen`,
          message: "Bist du sicher?",
          details: [`Kurs: ${date.courseName}`, ...deletionDetails("ihm", [[attendanceRows ?? 0, ...ATTENDANCE_WORDS]])],
          intent: "courseDate:delete",
          id: date.id,
          confirmLabel: "Löschen",
        },
      };
    },
  },
  actions: {
    save: async ({ db, user, form }) => {
      if (form.has("choose")) return { status: "draft", draft: await draftOf(db, form) };
      const submission = parseWithZod(form, { schema: courseDateSchema });
      const value = submission.status === "success" ? submission.value : null;
      const starts = value
        ? value.id
          ? weeklyStarts(value.startDate, value.startTime, 1)
          : weeklyStarts(value.startDate, value.startTime, value.count, value.skip)
        : [];
      const input = (start: string) => ({
        courseId: value!.courseId,
        startDateTime: start,
        endDateTime: endOf(start, Number(value!.duration)),
        isAllDay: value!.isAllDay,
        locationId: value!.locationId,
        comments: value!.comments,
      });
      return saveVersioned(submission, {
        check: async ({ id, courseId, locationId }): Promise<Record<string, string[]> | null> => {
          const current = id ? await getCourseDate(db, id) : undefined;
          // The course of a date is fixed once it exists.
          if (current && current.courseId !== courseId) return { courseId: ["Der Kurs eines Termins kann nicht geändert werden"] };
          const exists = await courseDateReferencesExist(db, courseId, locationId);
          if (!exists.course) return { courseId: ["Diesen Kurs gibt es nicht (mehr)"] };
          if (!exists.location) return { locationId: ["Diesen Ort gibt es nicht (mehr)"] };
          return null;
        },
        insert: async () =>
          (
            await insertCourseDates(
              db,
              starts.map(({ start }) => input(start)),
              user,
            )
          )[0],
        update: (id, rowVersion) => updateCourseDate(db, id, rowVersion, input(starts[0].start), user),
        present,
        messages: {
          created: starts.length > 1 ? `${formatCount(starts.length, "Termin", "Termine")} wurden angelegt` : "Termin wurde angelegt",
          saved: "Termin wurde gespeichert",
        },
      });
    },
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteCourseDate(db, id, user), "Termin wurde gelöscht"),
  },
});
