/**
 * The certification dialogs (Erfolge): the master decides whether a person, a dog or both are
 * certified; under a person or a dog only fitting masters are offered and that parent is fixed.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { formatDate } from "~/lib/format";
import {
  certificationMasterOptions,
  deleteCertification,
  dogOptions,
  getCertification,
  getCertificationMaster,
  insertCertification,
  updateCertification,
  type CertificationMasterOption,
  type CertificationRecord,
} from "~/models/certifications.server";
import { getDog } from "~/models/dogs.server";
import { personName } from "~/models/people.server";
import {
  auditText,
  type ConfirmData,
  defineDialog,
  deleteOutcome,
  deletionDetails,
  type DialogParent,
  type DialogViewContext,
  postedId,
  saveVersioned,
} from "../define.server";
import { lookupOptions, personLookup, type LookupOption } from "../lookup.server";
import { certificationSchema, type CertificationFormValues } from "./schema";
import { certificationsGrid } from "~/grids/certifications.grid";

export const MASTER_NOT_FOUND = "selected certification master not found";

function present(certification: CertificationRecord) {
  return { ...certification, date: formatDate(certification.date), audit: auditText(certification) };
}
export type CertificationFormRecord = ReturnType<typeof present>;

export type CertificationDialogData = {
  certification: CertificationFormRecord | null;
  masters: CertificationMasterOption[];
  people: LookupOption[];
  dogs: LookupOption[];
  personSearch: string;
  dogSearch: string;
  defaults: { personId: number | null; dogId: number | null };
  /** The parent the dialog was opened under is fixed. */
  locked: { person: boolean; dog: boolean };
};

const subjectOf = (parent: DialogParent | null) => (parent?.type === "PERSON" || parent?.type === "DOG" ? parent.type : null);

async function dialogData({ db, parent, search }: DialogViewContext, certification: CertificationRecord | null): Promise<CertificationDialogData> {
  const dog = parent?.type === "DOG" ? await getDog(db, parent.id) : undefined;
  const personId = certification ? certification.personId : parent?.type === "PERSON" ? parent.id : (dog?.ownerId ?? null);
  const dogId = certification ? certification.dogId : (dog?.id ?? null);
  const [masters, person, ownDogs] = await Promise.all([
    certificationMasterOptions(db, subjectOf(parent)),
    personId ? personName(db, personId) : undefined,
    personId ? dogOptions(db, { ownerId: personId }) : [],
  ]);
  const currentMaster =
    certification && !masters.some((master) => master.id === certification.certificationMasterId)
      ? await getCertificationMaster(db, certification.certificationMasterId)
      : undefined;
  const keptDog = dogId && !ownDogs.some((option) => option.id === dogId) ? await dogOptions(db, { id: dogId }) : [];
  const [people, dogs] = await Promise.all([
    personLookup(db, search, person),
    lookupOptions(
      search,
      "dogId",
      (term) => dogOptions(db, { term }),
      [...keptDog, ...ownDogs].map((option) => ({ id: option.id, label: option.fullName })),
    ),
  ]);
  return {
    certification: certification && present(certification),
    masters: currentMaster ? [...masters, currentMaster] : masters,
    people: people.options,
    dogs: dogs.options,
    personSearch: people.term,
    dogSearch: dogs.term,
    defaults: { personId, dogId },
    locked: { person: parent?.type === "PERSON", dog: parent?.type === "DOG" },
  };
}

/** Checks the database must make, and the subject as the master says (fields that do not apply are cleared). */
async function checkSubject(db: DialogViewContext["db"], value: CertificationFormValues) {
  const master = await getCertificationMaster(db, value.certificationMasterId);
  if (!master) return { errors: { certificationMasterId: [MASTER_NOT_FOUND] } };
  const personId = master.isPersonCertification ? value.personId : null;
  const dogId = master.isDogCertification ? value.dogId : null;
  const errors: Record<string, string[]> = {};
  if (master.isPersonCertification && !personId) errors.personId = ["Person ist erforderlich"];
  else if (personId && !(await personName(db, personId))) errors.personId = ["Diese Person gibt es nicht (mehr)"];
  if (master.isDogCertification && !dogId) errors.dogId = ["Hund ist erforderlich"];
  else if (dogId && !(await getDog(db, dogId))) errors.dogId = ["Diesen Hund gibt es nicht (mehr)"];
  return Object.keys(errors).length > 0 ? { errors } : { subject: { personId, dogId } };
}

export const dialog = defineDialog({
  area: "certifications",
  history: { table: "certifications", grid: certificationsGrid },
  views: {
    add: (context) => dialogData(context, null),
    edit: async (context) => {
      const certification = context.id ? await getCertification(context.db, context.id) : undefined;
      return certification ? dialogData(context, certification) : null;
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const certification = id ? await getCertification(db, id) : undefined;
      if (!certification) return null;
      return {
        confirm: {
          title: `Erfolg ${certification.certificationName} löschen`,
          message: "Bist du sicher?",
          details: [
            [certification.personName, certification.dogName, formatDate(certification.date)].filter(Boolean).join(", "),
            ...deletionDetails("ihm", []),
          ].filter(Boolean),
          intent: "certification:delete",
          id: certification.id,
          confirmLabel: "Löschen",
        },
      };
    },
  },
  actions: {
    save: async ({ db, user, form }) => {
      let subject = { personId: null as number | null, dogId: null as number | null };
      return saveVersioned(parseWithZod(form, { schema: certificationSchema }), {
        check: async (value) => {
          const checked = await checkSubject(db, value);
          if (checked.subject) subject = checked.subject;
          return checked.errors ?? null;
        },
        insert: (value) => insertCertification(db, { ...input(value), ...subject }, user),
        update: (id, rowVersion, value) => updateCertification(db, id, rowVersion, { ...input(value), ...subject }, user),
        present,
        messages: { created: "Erfolg wurde angelegt", saved: "Erfolg wurde gespeichert" },
      });
    },
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteCertification(db, id, user), "Erfolg wurde gelöscht"),
  },
});

const input = ({ certificationMasterId, date, comments }: CertificationFormValues) => ({ certificationMasterId, date, comments });
