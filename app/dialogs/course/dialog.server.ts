/**
 * The course dialogs: add (under a course type: prefilled from it), edit, delete (with its dates,
 * participants and their unpaid course fees into the bin; refused while a fee is paid or billed).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import type { CourseMasterRecord } from "~/models/course-masters.server";
import { getCourseMasterRecord } from "~/models/course-masters.server";
import { formatDateTime, formatMoneyInput, currentYearInBerlin } from "~/lib/format";
import {
  courseDeletionContents,
  courseMasterOptions,
  deleteCourse,
  getCourse,
  insertCourse,
  isTrainerOrCurrent,
  locationOptions,
  trainerOptions,
  updateCourse,
  type CourseRecord,
} from "~/models/courses.server";
import { ATTENDANCE_WORDS } from "~/models/attendances.server";
import { auditText, defineDialog, deleteOutcome, deletionDetails, postedId, saveVersioned, type ConfirmData, type DialogViewContext } from "../define.server";
import { courseSchema, type CourseFormValues } from "./schema";
import { coursesGrid } from "~/grids/courses.grid";

function present(course: CourseRecord) {
  return {
    ...course,
    startDateTime: formatDateTime(course.startDateTime),
    costFull: formatMoneyInput(course.costFull),
    costReduced1: formatMoneyInput(course.costReduced1),
    costReduced2: formatMoneyInput(course.costReduced2),
    audit: auditText(course),
  };
}
export type CourseFormRecord = ReturnType<typeof present>;

type Option = { id: number; label: string };
export type CourseDialogData = {
  course: CourseFormRecord | null;
  /** A new course's values (under a course type: taken from it). */
  defaults: Record<string, string | number | null>;
  /** The course type a new course is added for ('Neuen Kurs für Kurs-Typ ...'). */
  master: string | null;
  trainers: Option[];
  locations: Option[];
  masters: Option[];
};

function defaultsFrom(master: CourseMasterRecord | undefined): CourseDialogData["defaults"] {
  const year = currentYearInBerlin();
  return {
    startYear: year,
    statusCode: "PLANNED",
    durationModel: "FIXED",
    pricingModel: "PER_COURSE",
    ...(master
      ? {
          name: `${master.name} ${year}`,
          courseMasterId: master.id,
          nrOfSessions: master.nrOfSessions,
          maxDogs: master.maxDogs,
          costFull: formatMoneyInput(master.costFull),
          costReduced1: formatMoneyInput(master.costReduced1),
          costReduced2: formatMoneyInput(master.costReduced2),
        }
      : {}),
  };
}

async function dialogData({ db, parent }: DialogViewContext, course: CourseRecord | null): Promise<CourseDialogData> {
  const master = !course && parent?.type === "COURSEMASTER" ? await getCourseMasterRecord(db, parent.id) : undefined;
  const [trainers, locations, masters] = await Promise.all([
    trainerOptions(db, course ? [course.trainerId, course.cotrainerId] : []),
    locationOptions(db),
    courseMasterOptions(db),
  ]);
  return {
    course: course && present(course),
    defaults: defaultsFrom(master),
    master: master?.name ?? null,
    trainers,
    locations,
    masters: masters.map(({ id, label }) => ({ id, label })),
  };
}

const input = ({ id: _id, rowVersion: _rowVersion, ...values }: CourseFormValues) => values;

export const dialog = defineDialog({
  area: "courses",
  history: { table: "courses", grid: coursesGrid },
  views: {
    add: (context) => dialogData(context, null),
    edit: async (context) => {
      const course = context.id ? await getCourse(context.db, context.id) : undefined;
      return course ? dialogData(context, course) : null;
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const [course, contents] = id ? await Promise.all([getCourse(db, id), courseDeletionContents(db, id)]) : [];
      if (!course || !contents) return null;
      const details = deletionDetails("ihm", [
        [contents.membershipCount, "Teilnehmer", "Teilnehmer"],
        [contents.dateCount, "Termin", "Termine"],
        [contents.feeCount, "offener Posten", "offene Posten"],
        [contents.attendanceCount, ...ATTENDANCE_WORDS],
      ]);
      return {
        confirm: {
          title: `Kurs '${course.name}' löschen`,
          message: "Bist du sicher?",
          details,
          intent: "course:delete",
          id: course.id,
          confirmLabel: "Löschen",
        },
      };
    },
  },
  actions: {
    save: async ({ db, user, form }) => {
      const submission = parseWithZod(form, { schema: courseSchema });
      return saveVersioned(submission, {
        check: async (value) => {
          const current = value.id ? await getCourse(db, value.id) : undefined;
          const keep = current ? [current.trainerId, current.cotrainerId] : [];
          const errors: Record<string, string[]> = {};
          if (value.trainerId && !(await isTrainerOrCurrent(db, value.trainerId, keep))) errors.trainerId = ["Bitte eine Person wählen, die Trainer ist"];
          if (value.cotrainerId && !(await isTrainerOrCurrent(db, value.cotrainerId, keep))) errors.cotrainerId = ["Bitte eine Person wählen, die Trainer ist"];
          return Object.keys(errors).length > 0 ? errors : null;
        },
        insert: (value) => insertCourse(db, input(value), user),
        update: (id, rowVersion, value) => updateCourse(db, id, rowVersion, input(value), user),
        present,
        saved: (value) => ({ startYear: value.startYear, statusCode: value.statusCode }),
        messages: { created: "Kurs wurde angelegt", saved: "Kurs wurde gespeichert" },
      });
    },
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteCourse(db, id, user), "Kurs wurde gelöscht"),
  },
});
