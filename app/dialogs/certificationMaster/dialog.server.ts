/** The Erfolgsart dialogs (ADMIN): add, edit, delete (refused while certifications of it exist). */
import { parseWithZod } from "@conform-to/zod/v4";
import {
  certificationMasterNameTaken,
  deleteCertificationMaster,
  getCertificationMasterRecord,
  insertCertificationMaster,
  updateCertificationMaster,
  type CertificationMasterRecord,
} from "~/models/certifications.server";
import { auditText, defineDialog, deleteOutcome, postedId, saveVersioned, type ConfirmData } from "../define.server";
import { certificationMasterSchema } from "./schema";
import { certificationMastersGrid } from "~/grids/certificationMasters.grid";

const present = (master: CertificationMasterRecord) => ({ ...master, audit: auditText(master) });
export type CertificationMasterFormRecord = ReturnType<typeof present>;
export type CertificationMasterDialogData = { master: CertificationMasterFormRecord | null };

export const dialog = defineDialog({
  area: "certificationMasters",
  history: { table: "certification_masters", grid: certificationMastersGrid },
  views: {
    add: async (): Promise<CertificationMasterDialogData> => ({ master: null }),
    edit: async ({ db, id }): Promise<CertificationMasterDialogData | null> => {
      const master = id ? await getCertificationMasterRecord(db, id) : undefined;
      return master ? { master: present(master) } : null;
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const master = id ? await getCertificationMasterRecord(db, id) : undefined;
      return master
        ? {
            confirm: {
              title: `Erfolgsart ${master.name} löschen`,
              message: "Bist du sicher?",
              intent: "certificationMaster:delete",
              id: master.id,
              confirmLabel: "Löschen",
            },
          }
        : null;
    },
  },
  actions: {
    save: ({ db, user, form }) =>
      saveVersioned(parseWithZod(form, { schema: certificationMasterSchema }), {
        check: async ({ id, name }) => ((await certificationMasterNameTaken(db, name, id)) ? { name: ["Diese Erfolgsart gibt es schon"] } : null),
        insert: ({ name, isPersonCertification, isDogCertification }) =>
          insertCertificationMaster(db, { name, isPersonCertification, isDogCertification }, user),
        update: (id, rowVersion, { name, isPersonCertification, isDogCertification }) =>
          updateCertificationMaster(db, id, rowVersion, { name, isPersonCertification, isDogCertification }, user),
        present,
        messages: { created: "Erfolgsart wurde angelegt", saved: "Erfolgsart wurde gespeichert" },
      }),
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteCertificationMaster(db, id, user), "Erfolgsart wurde gelöscht"),
  },
});
