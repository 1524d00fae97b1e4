/** The dog dialogs: add (under a person: that owner), edit, delete. The owner is found with a
 *  search of its own (a GET form), so it works without JavaScript. */
import { parseWithZod } from "@conform-to/zod/v4";
import { formatDate } from "~/lib/format";
import { deleteDog, dogDeletionContents, getDog, insertDog, searchOwners, updateDog, type DogRecord } from "~/models/dogs.server";
import { personName } from "~/models/people.server";
import { auditText, defineDialog, deleteOutcome, deletionDetails, postedId, saveVersioned, type ConfirmData } from "../define.server";
import { lookupOptions, type LookupOption } from "../lookup.server";
import { dogSchema } from "./schema";
import { dogsGrid } from "~/grids/dogs.grid";

function present(dog: DogRecord) {
  return {
    ...dog,
    dateOfBirth: formatDate(dog.dateOfBirth),
    rabiesValidUntil: formatDate(dog.rabiesValidUntil),
    insuranceValidUntil: formatDate(dog.insuranceValidUntil),
    audit: auditText(dog),
  };
}
export type DogFormRecord = ReturnType<typeof present>;

export type DogDialogData = { dog: DogFormRecord | null; owners: LookupOption[]; ownerId: number | null; ownerSearch: string };

export const dialog = defineDialog({
  area: "dogs",
  history: { table: "dogs", grid: dogsGrid, labels: { ownerId: "Besitzer", dateOfBirth: "Wurftag" } },
  views: {
    add: async ({ db, parent, search }): Promise<DogDialogData> => {
      const owner = parent?.type === "PERSON" ? await personName(db, parent.id) : undefined;
      const lookup = await lookupOptions(
        search,
        "ownerId",
        (term) => searchOwners(db, term),
        owner ? [{ id: owner.id, label: owner.fullName ?? String(owner.id) }] : [],
      );
      return { dog: null, owners: lookup.options, ownerId: owner?.id ?? null, ownerSearch: lookup.term };
    },
    edit: async ({ db, id, search }): Promise<DogDialogData | null> => {
      const dog = id ? await getDog(db, id) : undefined;
      if (!dog) return null;
      const lookup = await lookupOptions(search, "ownerId", (term) => searchOwners(db, term), [
        { id: dog.ownerId, label: dog.ownerFullName ?? String(dog.ownerId) },
      ]);
      return { dog: present(dog), owners: lookup.options, ownerId: dog.ownerId, ownerSearch: lookup.term };
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const [dog, contents] = id ? await Promise.all([getDog(db, id), dogDeletionContents(db, id)]) : [];
      if (!dog || !contents) return null;
      const details = deletionDetails("ihm", [
        [contents.membershipCount, "Kursteilnahme", "Kursteilnahmen"],
        [contents.certificationCount, "Erfolg", "Erfolge"],
      ]);
      return {
        confirm: { title: `Hund ${dog.commonName} löschen`, message: "Bist du sicher?", details, intent: "dog:delete", id: dog.id, confirmLabel: "Löschen" },
      };
    },
  },
  actions: {
    save: ({ db, user, form }) =>
      saveVersioned(parseWithZod(form, { schema: dogSchema }), {
        check: async ({ ownerId }) => ((await personName(db, ownerId)) ? null : { ownerId: ["Diese Person gibt es nicht (mehr)"] }),
        insert: ({ id: _id, rowVersion: _rowVersion, ...input }) => insertDog(db, input, user),
        update: (id, rowVersion, { id: _id, rowVersion: _version, ...input }) => updateDog(db, id, rowVersion, input, user),
        present,
        saved: (value) => ({ archived: value.archived }),
        messages: { created: "Hund wurde angelegt", saved: "Hund wurde gespeichert" },
      }),
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteDog(db, id, user), "Hund wurde gelöscht"),
  },
});
