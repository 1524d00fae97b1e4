import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { COURSE_STATUS_TOGGLE, COURSE_YEAR_TOGGLE, courseFiltersOf } from "./courseFilters";
import { listAllMemberships, listMemberships, pageOfMembership, type MembershipQuery, type MembershipRow } from "~/models/course-memberships.server";

const membershipQuery = (query: Pick<ListQuery, "parent" | "sort" | "toggles">): MembershipQuery => ({
  // The course filters exist on the grid's own screen only (under a course they would hide it).
  courses: query.parent ? undefined : courseFiltersOf(query.toggles),
  courseId: query.parent?.type === "COURSE" ? query.parent.id : undefined,
  personId: query.parent?.type === "PERSON" ? query.parent.id : undefined,
  dogId: query.parent?.type === "DOG" ? query.parent.id : undefined,
  sort: query.sort,
});

/** A person's or a dog's courses: the newest first. */
const NEWEST_COURSE_FIRST = { id: "courseStart", descending: true };

/**
 * Teilnehmer (spec 001 §2 Course participants grid), one grid in four places: on its own screen
 * ('Kursteilnehmer': every participant of the courses the toggles choose, the season's list as
 * Teilnehmerliste.xlsx), under a course, under a person (tab Kurse) and under a dog (tab Kurse).
 * Beyond the spec: the column Nachweise names what the proofs lack for the course (rabies
 * vaccination until its end, insurance); rows on the Warteliste are greyed.
 */
export const courseMembershipsGrid = defineGrid<MembershipRow>({
  id: "courseMemberships",
  entity: "courseMembership",
  area: "courses",
  mounts: {
    // The season's list: by course (year, name), then by participant.
    PARENT: { title: "Kursteilnehmer", defaultSort: { id: "courseName", descending: false } },
    COURSE: { title: (course) => `Teilnehmer für '${course.name}'`, prefix: "cm" },
    PERSON: { title: (person) => `Kurse für ${person.name}`, prefix: "cm", defaultSort: NEWEST_COURSE_FIRST },
    DOG: { title: (dog) => `Kurse für ${dog.name}`, prefix: "cm", defaultSort: NEWEST_COURSE_FIRST },
  },
  columns: [
    { id: "id", header: "Id", value: (m) => m.id, type: "number", hidden: true },
    { id: "fullName", header: "Teilnehmer", value: (m) => m.fullName, link: (m) => ({ dialog: "person-edit", id: m.personId }), omitUnder: ["PERSON"] },
    {
      id: "courseName",
      header: "Kurs",
      value: (m) => m.courseName,
      link: (m) => ({ to: `/courses?selectedCourseId=${m.courseId}`, newTab: true }),
      omitUnder: ["COURSE"],
    },
    { id: "dogCommonName", header: "Hund", value: (m) => m.dogCommonName, link: (m) => ({ dialog: "dog-edit", id: m.dogId }), omitUnder: ["DOG"] },
    { id: "dogGenderText", header: "Geschlecht", value: (m) => m.dogGenderText, omitUnder: ["DOG"] },
    { id: "breed", header: "Rasse", value: (m) => m.breed, omitUnder: ["DOG"] },
    { id: "dateOfBirth", header: "Geb.-Datum", value: (m) => m.dateOfBirth, type: "date", hidden: true, omitUnder: ["DOG"] },
    { id: "dogAgeText", header: "Alter", value: (m) => m.dogAgeText, omitUnder: ["DOG"] },
    { id: "rabiesValidUntil", header: "Tollwut bis", value: (m) => m.rabiesValidUntil, type: "date", warn: (m) => m.rabiesExpired },
    { id: "proofWarnings", header: "Nachweise", value: (m) => m.proofWarnings.join("; "), sortable: false, warn: (m) => m.proofWarnings.length > 0 },
    { id: "feeId", header: "Posten-Nr", value: (m) => m.feeId, type: "number", hidden: true },
    { id: "status", header: "Status", value: (m) => m.status },
    { id: "attendanceText", header: "Anwesend", value: (m) => m.attendanceText },
    { id: "hasGdpr", header: "DSGVO", value: (m) => m.hasGdpr, type: "checkbox", requires: "protectedPersonData" },
    { id: "hasInsurance", header: "Versichert", value: (m) => m.hasInsurance, type: "checkbox" },
    { id: "price", header: "Preis", value: (m) => m.price, type: "money" },
    { id: "amount", header: "Betrag", value: (m) => m.amount, type: "money", sum: true },
    { id: "isPaid", header: "Bezahlt", value: (m) => m.isPaid, type: "checkbox" },
    { id: "comments", header: "Anmerkung Kurs", value: (m) => m.comments },
    { id: "personComments", header: "Anmerkung Teilnehmer", value: (m) => m.personComments },
    { id: "dogComments", header: "Anmerkung Hund", value: (m) => m.dogComments },
    { id: "paymentComments", header: "Zahlungskommentar", value: (m) => m.paymentComments },
  ],
  toggles: [
    { ...COURSE_STATUS_TOGGLE, mounts: ["PARENT"] },
    { ...COURSE_YEAR_TOGGLE, mounts: ["PARENT"] },
  ],
  defaultSort: { id: "fullName", descending: false },
  model: {
    list: (db, query) => listMemberships(db, { ...membershipQuery(query), page: query.page, pageSize: query.pageSize }),
    pageOf: (db, id, query) => pageOfMembership(db, id, membershipQuery(query), query.pageSize),
    all: (db, query) => listAllMemberships(db, membershipQuery(query)),
  },
  // Waiting list entries are listed but take no place (issue 29/14): greyed, in italics.
  rowMuted: (m) => m.statusCode === "WAITLIST",
  rowActions: [
    { label: "Teilnehmer in einen anderen Kurs versetzen", view: "transfer" },
    { label: "Warteliste des Kurses", view: "waitlist" },
  ],
  commandColumn: true,
  excel: { fileName: "Teilnehmerliste.xlsx", sheet: "Teilnehmer", path: "/coursememberships/export" },
  emptyText: "Keine Teilnehmer",
});
