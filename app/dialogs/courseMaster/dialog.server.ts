/** The Kurs-Typ dialogs (ADMIN): add, edit, delete (refused while courses of the type exist). */
import { parseWithZod } from "@conform-to/zod/v4";
import { formatMoneyInput } from "~/lib/format";
import {
  courseCountOfMaster,
  courseMasterInUseMessage,
  courseMasterNameTaken,
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
export type CourseMasterDialogData = { master: CourseMasterFormRecord | null };

export const dialog = defineDialog({
  area: "courseMasters",
  history: { table: "course_masters", grid: courseMastersGrid },
  views: {
    add: async (): Promise<CourseMasterDialogData> => ({ master: null }),
    edit: async ({ db, id }): Promise<CourseMasterDialogData | null> => {
      const master = id ? await getCourseMasterRecord(db, id) : undefined;
      return master ? { master: present(master) } : null;
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
        check: async ({ id, name }) => ((await courseMasterNameTaken(db, name, id)) ? { name: ["Diesen Kurs-Typ gibt es schon"] } : null),
        insert: ({ id: _id, rowVersion: _rowVersion, ...input }) => insertCourseMaster(db, input, user),
        update: (id, rowVersion, { id: _id, rowVersion: _version, ...input }) => updateCourseMaster(db, id, rowVersion, input, user),
        present,
        messages: { created: "Kurs-Typ wurde angelegt", saved: "Kurs-Typ wurde gespeichert" },
      }),
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteCourseMaster(db, id, user), "Kurs-Typ wurde gelöscht"),
  },
});
