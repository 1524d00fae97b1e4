/** The Kurs-Typ dialogs (ADMIN): add, edit, delete (refused while courses of the type exist). */
import { parseWithZod } from "@conform-to/zod/v4";
import { formatMoneyInput } from "~/lib/format";
import {
  courseCountOfMaster,
  courseMasterInUseMessage,
  courseMasterNameTaken,
  courseMasterOptions,
  deleteCourseMaster,
  getCourseMasterRecord,
  insertCourseMaster,
  updateCourseMaster,
  type CourseMasterRecord,
} from "~/models/course-masters.server";
import { auditText, defineDialog, deleteOutcome, deletionDetails, postedId, saveVersioned, type ConfirmData } from "../define.server";
import { courseMasterSchema } from "./schema";
import { courseMastersGrid } from "~/grids/courseMasters.grid";

/** The record as the form shows it: prices as 1.234,56. */
const present = (master: CourseMasterRecord) => ({
  ...master,
  costFull: formatMoneyInput(master.costFull),
  costReduced1: formatMoneyInput(master.costReduced1),
  costReduced2: formatMoneyInput(master.costReduced2),
  audit: auditText(master),
});
export type CourseMasterFormRecord = ReturnType<typeof present>;
export type CourseMasterDialogData = {
  master: CourseMasterFormRecord | null;
  /** The other course types, one of which may be required attended before. */
  priorOptions: { value: number; label: string }[];
};

export const dialog = defineDialog({
  area: "courseMasters",
  history: { table: "course_masters", grid: courseMastersGrid },
  views: {
    add: async ({ db }): Promise<CourseMasterDialogData> => ({ master: null, priorOptions: await courseMasterOptions(db, null) }),
    edit: async ({ db, id }): Promise<CourseMasterDialogData | null> => {
      const [master, priorOptions] = id ? await Promise.all([getCourseMasterRecord(db, id), courseMasterOptions(db, id)]) : [];
      return master && priorOptions ? { master: present(master), priorOptions } : null;
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const [master, courseCount] = id ? await Promise.all([getCourseMasterRecord(db, id), courseCountOfMaster(db, id)]) : [];
      if (!master) return null;
      // Nothing goes with a type: while it has courses the delete is refused, and it says so beforehand.
      const details = courseCount ? [courseMasterInUseMessage(courseCount)] : deletionDetails("ihm", []);
      return {
        confirm: {
          title: `Kurs-Typ '${master.name}' löschen`,
          message: "Bist du sicher?",
          details,
          intent: "courseMaster:delete",
          id: master.id,
          confirmLabel: "Löschen",
        },
      };
    },
  },
  actions: {
    save: ({ db, user, form }) =>
      saveVersioned(parseWithZod(form, { schema: courseMasterSchema }), {
        check: async ({ id, name, priorCourseMasterId }): Promise<Record<string, string[]> | null> => {
          if (await courseMasterNameTaken(db, name, id)) return { name: ["Diesen Kurs-Typ gibt es schon"] };
          // The required course is another type that exists (a hand-made id gets a message, not a 500).
          if (priorCourseMasterId !== null && (priorCourseMasterId === id || !(await getCourseMasterRecord(db, priorCourseMasterId))))
            return { priorCourseMasterId: ["Bitte einen anderen, vorhandenen Kurs-Typ wählen"] };
          return null;
        },
        insert: ({ id: _id, rowVersion: _rowVersion, ...input }) => insertCourseMaster(db, input, user),
        update: (id, rowVersion, { id: _id, rowVersion: _version, ...input }) => updateCourseMaster(db, id, rowVersion, input, user),
        present,
        messages: { created: "Kurs-Typ wurde angelegt", saved: "Kurs-Typ wurde gespeichert" },
      }),
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteCourseMaster(db, id, user), "Kurs-Typ wurde gelöscht"),
  },
});
