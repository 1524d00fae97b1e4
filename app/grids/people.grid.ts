import { courseMembershipsGrid } from "./courseMemberships.grid";
import { certificationsGrid } from "./certifications.grid";
import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { may } from "~/lib/access";
import { groupIban } from "~/lib/banking";
import { listAllPeople, listPeople, pageOfPerson, personName, PEOPLE_FILTERS, type PeopleFilter, type PersonRow } from "~/models/people.server";
import { dogsGrid } from "./dogs.grid";
import { feesGrid } from "./fees.grid";
import { invoiceHeadersGrid } from "./invoiceHeaders.grid";
import { mailsGrid } from "./mails.grid";
import { remindersGrid } from "./reminders.grid";
import { nextSessionsGrid } from "./nextsessions.grid";
import { paymentsGrid } from "./payments.grid";
import { cardsGrid } from "./cards.grid";

const peopleQuery = (query: Pick<ListQuery, "toggles" | "search" | "sort" | "user">) => ({
  filter: (PEOPLE_FILTERS.includes(query.toggles.filter as PeopleFilter) ? query.toggles.filter : "all") as PeopleFilter,
  term: query.search,
  sort: query.sort,
  withProtected: may(query.user, "protectedPersonData"),
  withBankData: may(query.user, "bankData"),
});

/**
 * Personen (spec 000 §2 People screen) and Mitgliederliste.xlsx. GDPR, insurance and date columns
 * are hidden by default; membership dates and GDPR consent exist only for ADMIN and GDPR.
 */
export const peopleGrid = defineGrid<PersonRow>({
  id: "people",
  entity: "person",
  area: "people",
  mounts: { PARENT: { title: "Personen" } },
  columns: [
    { id: "id", header: "Id", value: (p) => p.id, type: "number", hidden: true },
    { id: "lastName", header: "Nachname", value: (p) => p.lastName },
    { id: "firstName", header: "Vorname", value: (p) => p.firstName },
    { id: "salutation", header: "Anrede", value: (p) => p.salutation, hidden: true },
    { id: "title", header: "Titel", value: (p) => p.title, hidden: true },
    { id: "isMember", header: "Mitglied", value: (p) => p.isMember, type: "checkbox" },
    { id: "memberType", header: "Mitgliedsart", value: (p) => p.memberType },
    { id: "membershipStatus", header: "Status", value: (p) => p.membershipStatus },
    { id: "hsvrmNr", header: "HSVRM-Nr", value: (p) => p.hsvrmNr, hidden: true },
    { id: "streetNumber", header: "Straße", value: (p) => p.streetNumber },
    { id: "zip", header: "PLZ", value: (p) => p.zip },
    { id: "city", header: "Ort", value: (p) => p.city },
    { id: "email", header: "E-Mail", value: (p) => p.email, type: "email" },
    { id: "mobilePhone", header: "Mobil", value: (p) => p.mobilePhone, type: "phone" },
    { id: "homePhone", header: "Telefon", value: (p) => p.homePhone, type: "phone", hidden: true },
    { id: "dateOfBirth", header: "Geburtstag", value: (p) => p.dateOfBirth, type: "date", hidden: true },
    { id: "isVorstand", header: "Vorstand", value: (p) => p.isVorstand, type: "checkbox", hidden: true },
    { id: "isTrainer", header: "Trainer", value: (p) => p.isTrainer, type: "checkbox", hidden: true },
    { id: "hasInsurance", header: "Versichert", value: (p) => p.hasInsurance, type: "checkbox", hidden: true },
    { id: "isBusiness", header: "Unternehmer", value: (p) => p.isBusiness, type: "checkbox", hidden: true },
    { id: "comments", header: "Kommentar", value: (p) => p.comments, hidden: true },
    { id: "memberSince", header: "Mitglied seit", value: (p) => p.memberSince, type: "date", hidden: true, requires: "protectedPersonData" },
    { id: "memberUntil", header: "Mitglied bis", value: (p) => p.memberUntil, type: "date", hidden: true, requires: "protectedPersonData" },
    { id: "hasGdpr", header: "DSGVO", value: (p) => p.hasGdpr, type: "checkbox", hidden: true, requires: "protectedPersonData" },
    // The active SEPA mandate: ADMIN and FINANCE only, the IBAN masked even for them (a list).
    { id: "mandateReference", header: "Mandat", value: (p) => p.mandateReference ?? null, hidden: true, requires: "bankData" },
    { id: "mandateIban", header: "IBAN", value: (p) => groupIban(p.mandateIban) || null, hidden: true, sortable: false, requires: "bankData" },
  ],
  toggles: [
    {
      param: "filter",
      label: "Personen filtern",
      options: [
        { value: "all", label: "Alle" },
        { value: "members", label: "Nur Mitglieder" },
        { value: "nonmembers", label: "Nur Nichtmitglieder" },
      ],
    },
  ],
  // The name search of the phone's Personen (DIN 5007: Müller, Mueller and Muller alike).
  search: { placeholder: "Name" },
  defaultSort: { id: "lastName", descending: false },
  model: {
    list: (db, query) => listPeople(db, { ...peopleQuery(query), page: query.page, pageSize: query.pageSize }),
    pageOf: (db, id, query) => pageOfPerson(db, id, peopleQuery(query), query.pageSize),
    all: (db, query) => listAllPeople(db, peopleQuery(query)),
  },
  excel: { fileName: "Mitgliederliste.xlsx", sheet: "Personen", path: "/people/export" },
  rowActions: [
    { label: "Mail senden", view: "person", entity: "mail", area: "mailer", browse: true, when: (p) => !p.erased },
    { label: "SEPA-Mandat", view: "person", entity: "mandate", area: "fees" },
    // Datenschutz (ADMIN, GDPR): the Auskunft (Art. 15) as a zip, and the erasure (Art. 17).
    { label: "DSGVO-Auskunft", href: (person) => `/gdpr/auskunft/${person.id}`, area: "gdpr" },
    { label: "DSGVO-Löschung…", view: "preview", entity: "erasure", area: "gdpr" },
  ],
  emptyText: "Keine Personen gefunden",
  rows: {
    parentType: "PERSON",
    label: async (db, id) => (await personName(db, id))?.fullName ?? undefined,
    rowLabel: (person) => person.fullName ?? "",
    tabsLabel: () => "Bereiche der Person",
    tabs: [
      { path: "coursememberships", label: "Kurse", grid: courseMembershipsGrid },
      { path: "dogs", label: "Hunde", grid: dogsGrid },
      { path: "certifications", label: "Erfolge", grid: certificationsGrid },
      { path: "fees", label: "Kontenblatt", area: "fees", grid: feesGrid },
      { path: "invoiceheaders", label: "Rechnungen", area: "invoices", grid: invoiceHeadersGrid },
      { path: "payments", label: "Zahlungen", area: "payments", grid: paymentsGrid },
      { path: "cards", label: "Karten & Abos", area: "cards", grid: cardsGrid },
      { path: "nextsessions", label: "Nächste Kurstermine", grid: nextSessionsGrid },
      { path: "mails", label: "Mails", area: "mailer", grid: mailsGrid },
      { path: "reminders", label: "Mahnungen", area: "reminders", grid: remindersGrid },
    ],
    defaultTab: "dogs",
  },
});
