import { dialogHref } from "~/dialogs/dialog-params";
import type { GridColumn } from "~/lib/grid";
import { UNKNOWN_GENDER } from "~/lib/labels";
import type { DogRow } from "~/models/dogs.server";

/**
 * The dogs grid, as spec'd (000 §2 Dogs screen). Besitzer opens the person dialog and is left out
 * under a PERSON parent; an expired rabies date and the gender '(unbekannt)' show red.
 */
export function dogColumns({ underPerson }: { underPerson: boolean }): GridColumn<DogRow>[] {
  return [
    { id: "id", header: "Id", value: (d) => d.id, type: "number", hiddenByDefault: true },
    { id: "commonName", header: "Name", value: (d) => d.commonName },
    ...(underPerson
      ? []
      : [
          {
            id: "ownerFullName",
            header: "Besitzer",
            value: (d: DogRow) => d.ownerFullName,
            href: (d: DogRow, search: URLSearchParams) => dialogHref("", search, "person-edit", { dialogId: d.ownerId }),
          },
        ]),
    { id: "breed", header: "Rasse", value: (d) => d.breed },
    { id: "genderText", header: "Geschlecht", value: (d) => d.genderText, warn: (d) => d.genderText === UNKNOWN_GENDER },
    { id: "dateOfBirth", header: "Wurftag", value: (d) => d.dateOfBirth, type: "date" },
    { id: "ageText", header: "Alter", value: (d) => d.ageText },
    { id: "ageDays", header: "Alter (Tage)", value: (d) => d.ageDays, type: "number", hiddenByDefault: true },
    { id: "rabiesValidUntil", header: "Tollwut bis", value: (d) => d.rabiesValidUntil, type: "date", warn: (d) => d.rabiesExpired },
    { id: "chipNr", header: "Chip Nr", value: (d) => d.chipNr, hiddenByDefault: true },
    { id: "zuchtBuchNr", header: "Zuchtbuch Nr", value: (d) => d.zuchtBuchNr, hiddenByDefault: true },
    { id: "comments", header: "Kommentar", value: (d) => d.comments },
    { id: "archived", header: "Archiviert", value: (d) => d.archived, type: "checkbox", hiddenByDefault: true },
  ];
}

/** The Dogs screen grid (PARENT): with the Besitzer column. */
export const DOG_COLUMNS = dogColumns({ underPerson: false });
