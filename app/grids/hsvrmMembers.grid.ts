import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { currentYearInBerlin } from "~/lib/format";
import { readableFileNamePart } from "~/lib/file-names";
import {
  allHsvrmMembers,
  associationData,
  HSVRM_DEFAULT_SORT,
  listHsvrmMembers,
  memberYears,
  type Association,
  type HsvrmMemberRow,
} from "~/models/club-lists.server";

const currentYear = () => String(currentYearInBerlin());

const hsvrmQuery = (query: Pick<ListQuery, "toggles" | "sort">) => ({
  year: /^\d{4}$/.test(query.toggles.year ?? "") ? Number(query.toggles.year) : currentYearInBerlin(),
  sort: query.sort,
});

/** 'Verein: Hundefreunde Musterstadt · KG 7 · Verein-Nr. 1234' over the list, or where to enter it. */
function associationLine(association: Association): string {
  if (!association.name && association.kg === null && association.number === null) {
    return "Die HSVRM-Vereinsdaten (Verein Name, KG, Verein Nr) fehlen: bitte in den Einstellungen eintragen.";
  }
  return [`Verein: ${association.name ?? "–"}`, `KG ${association.kg ?? "–"}`, `Verein-Nr. ${association.number ?? "–"}`].join(" · ");
}

/**
 * HSVRM-Liste: the club's members of a year for its dog-sport association (one row per member with
 * their dogs), headed by the association data from Einstellungen; Excel as one sheet with German
 * headers and real dates, named after the club and the year.
 */
export const hsvrmMembersGrid = defineGrid<HsvrmMemberRow>({
  id: "hsvrmMembers",
  entity: null,
  area: "hsvrmlist",
  mounts: {
    PARENT: { title: "HSVRM-Liste", hint: async (db) => associationLine(await associationData(db)) },
  },
  columns: [
    { id: "hsvrmNr", header: "HSVRM-Nr.", value: (m) => m.hsvrmNr },
    { id: "lastName", header: "Nachname", value: (m) => m.lastName },
    { id: "firstName", header: "Vorname", value: (m) => m.firstName },
    { id: "dateOfBirth", header: "Geburtsdatum", value: (m) => m.dateOfBirth, type: "date" },
    { id: "streetNumber", header: "Straße", value: (m) => m.streetNumber, sortable: false },
    { id: "zip", header: "PLZ", value: (m) => m.zip },
    { id: "city", header: "Ort", value: (m) => m.city },
    { id: "memberSince", header: "Mitglied seit", value: (m) => m.memberSince, type: "date" },
    { id: "memberType", header: "Mitgliedsart", value: (m) => m.memberType },
    { id: "dogs", header: "Hunde", value: (m) => m.dogs, sortable: false },
  ],
  toggles: [
    {
      param: "year",
      label: "Mitglieder des Jahres",
      options: [],
      dataOptions: {
        accepts: (value) => /^\d{4}$/.test(value),
        load: async (db) => (await memberYears(db, currentYearInBerlin())).map((year) => ({ value: String(year), label: String(year) })),
      },
      fallback: currentYear,
    },
  ],
  defaultSort: HSVRM_DEFAULT_SORT,
  model: {
    list: (db, query) => listHsvrmMembers(db, { ...hsvrmQuery(query), page: query.page, pageSize: query.pageSize }),
    all: (db, query) => allHsvrmMembers(db, hsvrmQuery(query)),
  },
  excel: {
    path: "/hsvrmlist/export",
    sheet: "HSVRM-Liste",
    fileName: async (db, query) => {
      const { name } = await associationData(db);
      return `HSVRM-Liste_${readableFileNamePart(name ?? "Verein")}_${hsvrmQuery(query).year}.xlsx`;
    },
  },
  selectable: false,
  refresh: true,
  emptyText: "Keine Mitglieder in diesem Jahr",
});
