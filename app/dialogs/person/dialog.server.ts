/** The person dialogs: add, edit (with audit and conflict detection), delete. */
import { parseWithZod } from "@conform-to/zod/v4";
import { may, type User } from "~/lib/access";
import { groupIban } from "~/lib/banking";
import { formatDate } from "~/lib/format";
import { activeMandateSummary, type MandateSummary } from "~/models/sepa-mandates.server";
import {
  deletePerson,
  getPerson,
  insertPerson,
  personDeletionContents,
  personFormOptions,
  updatePerson,
  visiblePerson,
  type PersonInput,
  type PersonRecord,
} from "~/models/people.server";
import { auditText, defineDialog, deleteOutcome, deletionDetails, postedId, saveVersioned, type ConfirmData } from "../define.server";
import { personSchema } from "./schema";
import { peopleGrid } from "~/grids/people.grid";
import { consentHistory, type ConsentEntry } from "~/models/change-history.server";

/** The record as the form shows it: German dates; protected fields only for those who may. */
function present(person: PersonRecord) {
  const dates = "memberSince" in person ? { memberSince: formatDate(person.memberSince), memberUntil: formatDate(person.memberUntil) } : {};
  return { ...person, dateOfBirth: formatDate(person.dateOfBirth), ...dates, audit: auditText(person) };
}
export type PersonFormRecord = ReturnType<typeof present>;

export type PersonDialogData = {
  person: PersonFormRecord | null;
  options: Awaited<ReturnType<typeof personFormOptions>>;
  withProtected: boolean;
  /** The active SEPA mandate: its IBAN in full only for ADMIN and FINANCE, masked on the server for others. */
  mandate?: MandateSummary | null;
  /** ADMIN and FINANCE: the link to the mandate dialog. */
  mayEditMandate?: boolean;
  /** ADMIN and GDPR: when the GDPR consent was given or withdrawn, by whom and how (newest first). */
  consent?: ConsentEntry[];
};

const withProtected = (user: User) => may(user, "protectedPersonData");

export const dialog = defineDialog({
  area: "people",
  history: {
    table: "people",
    grid: peopleGrid,
    labels: { memberTypeId: "Mitgliedsart", membershipStatusId: "Status", dateOfBirth: "Geburtstag", hasGdpr: "DSGVO-Einwilligung" },
    requires: { memberSince: "protectedPersonData", memberUntil: "protectedPersonData", hasGdpr: "protectedPersonData" },
  },
  views: {
    add: async ({ db, user }): Promise<PersonDialogData> => ({ person: null, options: await personFormOptions(db), withProtected: withProtected(user) }),
    edit: async ({ db, user, id }): Promise<PersonDialogData | null> => {
      const withIban = may(user, "bankData");
      const [person, options, mandate, consent] = await Promise.all([
        id ? getPerson(db, id, withProtected(user)) : undefined,
        personFormOptions(db),
        id ? activeMandateSummary(db, id, withIban) : null,
        id && withProtected(user) ? consentHistory(db, id) : undefined,
      ]);
      if (!person) return null;
      const shown = mandate && { ...mandate, iban: withIban ? groupIban(mandate.iban) : mandate.iban };
      return {
        person: present(person),
        options,
        withProtected: withProtected(user),
        mandate: shown,
        mayEditMandate: withIban,
        ...(consent ? { consent } : {}),
      };
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const [person, contents] = id ? await Promise.all([getPerson(db, id, false), personDeletionContents(db, id)]) : [];
      if (!person || !contents) return null;
      const details = deletionDetails("ihr", [
        [contents.dogCount, "Hund", "Hunde"],
        [contents.membershipCount, "Kursteilnahme", "Kursteilnahmen"],
        [contents.certificationCount, "Erfolg", "Erfolge"],
        [contents.mandateCount, "SEPA-Mandat", "SEPA-Mandate"],
      ]);
      return {
        confirm: {
          title: `Person ${person.lastName} ${person.firstName} löschen`,
          message: "Bist du sicher?",
          details,
          intent: "person:delete",
          id: person.id,
          confirmLabel: "Löschen",
        },
      };
    },
  },
  actions: {
    save: ({ db, user, form }) =>
      saveVersioned(parseWithZod(form, { schema: personSchema }), {
        check: async ({ memberTypeId, membershipStatusId }) => {
          // Only the choices the form offers: a person never gets a status meant for courses.
          const options = await personFormOptions(db);
          const errors: Record<string, string[]> = {};
          if (!options.memberTypes.some((type) => type.id === memberTypeId)) errors.memberTypeId = ["Diese Mitgliedsart gibt es nicht (mehr)"];
          if (membershipStatusId !== null && !options.membershipStatuses.some((status) => status.id === membershipStatusId)) {
            errors.membershipStatusId = ["Diesen Mitgliedsstatus gibt es für Personen nicht"];
          }
          return Object.keys(errors).length > 0 ? errors : null;
        },
        insert: (value) => insertPerson(db, personInput(value, user), user),
        update: (id, rowVersion, value) => updatePerson(db, id, rowVersion, personInput(value, user), user),
        present: (current) => present(visiblePerson(current, withProtected(user))),
        messages: { created: "Person wurde angelegt", saved: "Person wurde gespeichert" },
      }),
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deletePerson(db, id, user), "Person wurde gelöscht"),
  },
});

/** Protected fields are written only by those who may see them; others leave them untouched. */
function personInput(value: ReturnType<typeof personSchema.parse>, user: User): PersonInput {
  const { id: _id, rowVersion: _rowVersion, memberSince, memberUntil, hasGdpr, ...fields } = value;
  return withProtected(user) ? { ...fields, memberSince, memberUntil, hasGdpr } : fields;
}
