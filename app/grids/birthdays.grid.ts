import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { formatDate, formatWeekday, todayInBerlin } from "~/lib/format";
import {
  allBirthdays,
  BIRTHDAY_PERIODS,
  BIRTHDAY_SCOPES,
  listBirthdays,
  type BirthdayPeriod,
  type BirthdayRow,
  type BirthdayScope,
} from "~/models/club-lists.server";

const birthdayQuery = (query: Pick<ListQuery, "toggles">) => ({
  period: (BIRTHDAY_PERIODS.includes(query.toggles.period as BirthdayPeriod) ? query.toggles.period : "thisMonth") as BirthdayPeriod,
  scope: (BIRTHDAY_SCOPES.includes(query.toggles.who as BirthdayScope) ? query.toggles.who : "members") as BirthdayScope,
  today: todayInBerlin(),
});

/**
 * Geburtstags-Liste: the coming birthdays from today through the year, with the age each person
 * turns; a round one (every ten years) is named. Its order is the calendar's, so no column sorts.
 */
export const birthdaysGrid = defineGrid<BirthdayRow>({
  id: "birthdays",
  entity: null,
  area: "birthdaylist",
  mounts: { PARENT: { title: "Geburtstags-Liste" } },
  columns: [
    {
      id: "nextBirthday",
      header: "Geburtstag",
      value: (b) => b.next.date,
      type: "date",
      display: (b) => `${formatWeekday(b.next.date)}, ${formatDate(b.next.date)}`,
      sortable: false,
    },
    { id: "lastName", header: "Nachname", value: (b) => b.lastName, sortable: false },
    { id: "firstName", header: "Vorname", value: (b) => b.firstName, sortable: false },
    { id: "age", header: "Wird", value: (b) => b.next.age, type: "number", display: (b) => String(b.next.age), sortable: false },
    { id: "round", header: "Anlass", value: (b) => (b.next.round ? "Runder Geburtstag" : ""), warn: (b) => b.next.round, sortable: false },
    { id: "dateOfBirth", header: "Geburtsdatum", value: (b) => b.dateOfBirth, type: "date", sortable: false },
    { id: "isMember", header: "Mitglied", value: (b) => b.isMember, type: "checkbox", sortable: false },
    { id: "mobilePhone", header: "Mobil", value: (b) => b.mobilePhone, type: "phone", sortable: false },
    { id: "email", header: "E-Mail", value: (b) => b.email, type: "email", sortable: false },
  ],
  toggles: [
    {
      param: "period",
      label: "Geburtstage im Zeitraum",
      options: [
        { value: "thisMonth", label: "Dieser Monat" },
        { value: "nextMonth", label: "Nächster Monat" },
        { value: "all", label: "Alle" },
      ],
    },
    {
      param: "who",
      label: "Geburtstage von",
      options: [
        { value: "members", label: "Nur Mitglieder" },
        { value: "everyone", label: "Alle Personen" },
      ],
    },
  ],
  defaultSort: { id: "nextBirthday", descending: false },
  model: {
    list: (db, query) => listBirthdays(db, { ...birthdayQuery(query), page: query.page, pageSize: query.pageSize }),
    all: (db, query) => allBirthdays(db, birthdayQuery(query)),
  },
  excel: { path: "/birthdaylist/export", sheet: "Geburtstage", fileName: "Geburtstagsliste.xlsx" },
  selectable: false,
  refresh: true,
  emptyText: "Keine Geburtstage in diesem Zeitraum",
});
