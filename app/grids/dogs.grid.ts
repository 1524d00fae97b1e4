import { courseMembershipsGrid } from "./courseMemberships.grid";
import { certificationsGrid } from "./certifications.grid";
import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { UNKNOWN_GENDER } from "~/lib/labels";
import { DOG_LISTS, getDog, listDogs, pageOfDog, type DogList, type DogRow } from "~/models/dogs.server";

const dogQuery = (query: ListQuery) => ({
  list: (DOG_LISTS.includes(query.toggles.list as DogList) ? query.toggles.list : "current") as DogList,
  ownerId: query.parent?.type === "PERSON" ? query.parent.id : undefined,
  term: query.search,
  sort: query.sort,
});

/** Hunde (spec 000 §2 Dogs screen): PARENT with the tabs Kurse and Erfolge, and under a person. */
export const dogsGrid = defineGrid<DogRow>({
  id: "dogs",
  entity: "dog",
  area: "dogs",
  mounts: {
    PARENT: { title: "Hunde" },
    PERSON: { title: (owner) => `Hunde für ${owner.name}`, prefix: "dog" },
  },
  columns: [
    { id: "id", header: "Id", value: (d) => d.id, type: "number", hidden: true },
    { id: "commonName", header: "Name", value: (d) => d.commonName },
    {
      id: "ownerFullName",
      header: "Besitzer",
      value: (d) => d.ownerFullName,
      link: (d) => ({ dialog: "person-edit", id: d.ownerId }),
      omitUnder: ["PERSON"],
    },
    { id: "breed", header: "Rasse", value: (d) => d.breed },
    { id: "genderText", header: "Geschlecht", value: (d) => d.genderText, warn: (d) => d.genderText === UNKNOWN_GENDER },
    { id: "dateOfBirth", header: "Wurftag", value: (d) => d.dateOfBirth, type: "date" },
    { id: "ageText", header: "Alter", value: (d) => d.ageText },
    { id: "ageDays", header: "Alter (Tage)", value: (d) => d.ageDays, type: "number", hidden: true },
    { id: "rabiesValidUntil", header: "Tollwut bis", value: (d) => d.rabiesValidUntil, type: "date", warn: (d) => d.rabiesExpired },
    {
      id: "insuranceValidUntil",
      header: "Haftpflicht bis",
      value: (d) => d.insuranceValidUntil,
      type: "date",
      warn: (d) => d.insuranceExpired,
      hidden: true,
    },
    { id: "chipNr", header: "Chip Nr", value: (d) => d.chipNr, hidden: true },
    { id: "zuchtBuchNr", header: "Zuchtbuch Nr", value: (d) => d.zuchtBuchNr, hidden: true },
    { id: "comments", header: "Kommentar", value: (d) => d.comments },
    { id: "archived", header: "Archiviert", value: (d) => d.archived, type: "checkbox", hidden: true },
  ],
  toggles: [
    {
      param: "list",
      label: "Hunde filtern",
      options: [
        { value: "current", label: "Aktuelle" },
        { value: "archived", label: "Archivierte" },
      ],
      // A saved dog is shown in the list it now belongs to.
      follow: (saved) => (saved.archived === undefined ? undefined : saved.archived ? "archived" : "current"),
    },
  ],
  // The name search of the phone's Hunde (DIN 5007): the dog's name or its owner's.
  search: { placeholder: "Hund oder Besitzer" },
  defaultSort: { id: "commonName", descending: false },
  model: {
    list: (db, query) => listDogs(db, { ...dogQuery(query), page: query.page, pageSize: query.pageSize }),
    pageOf: (db, id, query) => pageOfDog(db, id, dogQuery(query), query.pageSize),
  },
  emptyText: "Keine Hunde gefunden",
  rows: {
    parentType: "DOG",
    label: async (db, id) => (await getDog(db, id))?.commonName,
    rowLabel: (dog) => dog.commonName,
    tabsLabel: (name) => `Bereiche von ${name}`,
    tabs: [
      { path: "coursememberships", label: "Kurse", grid: courseMembershipsGrid },
      { path: "certifications", label: "Erfolge", grid: certificationsGrid },
    ],
    defaultTab: "coursememberships",
  },
});
