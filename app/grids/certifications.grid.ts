import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { CERTIFICATION_DEFAULT_SORT, listCertifications, pageOfCertification, type CertificationRow } from "~/models/certifications.server";

const subject = (query: ListQuery) => ({
  personId: query.parent?.type === "PERSON" ? query.parent.id : undefined,
  dogId: query.parent?.type === "DOG" ? query.parent.id : undefined,
  sort: query.sort,
});

/** Erfolge (spec 001 §2 Certifications grid): the list, and the tab under a person and a dog. */
export const certificationsGrid = defineGrid<CertificationRow>({
  id: "certifications",
  entity: "certification",
  area: "certifications",
  mounts: {
    PARENT: { title: "Erfolge", maxHeight: "700px" },
    PERSON: { title: (person) => `Erfolge von ${person.name}`, prefix: "cert" },
    DOG: { title: (dog) => `Erfolge von ${dog.name}`, prefix: "cert" },
  },
  columns: [
    { id: "id", header: "Id", value: (c) => c.id, type: "number", hidden: true },
    {
      id: "personName",
      header: "Person",
      value: (c) => c.personName,
      link: (c) => (c.personId ? { dialog: "person-edit", id: c.personId } : null),
      omitUnder: ["PERSON"],
    },
    {
      id: "dogName",
      header: "Hund",
      value: (c) => c.dogName,
      display: (c) => (c.dogName ? `${c.dogName}${c.dogOwnerName && c.dogOwnerName !== c.personName ? ` (${c.dogOwnerName})` : ""}` : ""),
      omitUnder: ["DOG"],
    },
    { id: "certificationName", header: "Erfolg", value: (c) => c.certificationName },
    { id: "date", header: "Datum", value: (c) => c.date, type: "date" },
    { id: "comments", header: "Kommentar", value: (c) => c.comments },
  ],
  defaultSort: CERTIFICATION_DEFAULT_SORT,
  model: {
    list: (db, query) => listCertifications(db, { ...subject(query), page: query.page, pageSize: query.pageSize }),
    pageOf: (db, id, query) => pageOfCertification(db, id, subject(query), query.pageSize),
  },
  emptyText: "Keine Erfolge",
});
