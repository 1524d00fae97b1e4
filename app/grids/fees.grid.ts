import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { REMINDER_TOGGLE, reminderFilterOf } from "~/models/reminders.server";
import {
  currentPaymentLink,
  FEE_BILLING,
  FEE_DEFAULT_SORT,
  FEE_STATES,
  listAllFees,
  listFees,
  pageOfFee,
  type FeeBilling,
  type FeeRow,
  type FeeState,
} from "~/models/fees.server";

const feeQuery = (query: Pick<ListQuery, "toggles" | "sort" | "parent">) => ({
  state: (FEE_STATES.includes(query.toggles.state as FeeState) ? query.toggles.state : "all") as FeeState,
  billing: (FEE_BILLING.includes(query.toggles.billing as FeeBilling) ? query.toggles.billing : "all") as FeeBilling,
  personId: query.parent?.type === "PERSON" ? query.parent.id : undefined,
  sort: query.sort,
  reminder: reminderFilterOf(query.toggles.reminder),
});

/**
 * Kontenblatt (spec 001 §2 Fees grid): every open item, and the People tab 'Kontenblatt für
 * {person}'; sums of amount and open amount over all filtered rows; Kontenblatt.xlsx.
 */
export const feesGrid = defineGrid<FeeRow>({
  id: "fees",
  entity: "fee",
  area: "fees",
  mounts: {
    PARENT: { title: "Kontenblatt" },
    PERSON: { title: (person) => `Kontenblatt für ${person.name}`, prefix: "fee" },
  },
  columns: [
    { id: "id", header: "Id", value: (f) => f.id, type: "number", hidden: true },
    { id: "date", header: "Datum", value: (f) => f.date, type: "date" },
    {
      id: "text",
      header: "Text",
      value: (f) => f.text,
      // A course fee leads to its course (in a new tab, as the participants' course does).
      link: (f) => (f.courseId ? { to: `/courses?selectedCourseId=${f.courseId}`, newTab: true } : null),
    },
    { id: "personName", header: "Person", value: (f) => f.personName, link: (f) => ({ dialog: "person-edit", id: f.personId }), omitUnder: ["PERSON"] },
    { id: "amount", header: "Betrag", value: (f) => f.amount, type: "money", sum: true },
    { id: "openAmount", header: "Offener Betrag", value: (f) => f.openAmount, type: "money", sum: true },
    { id: "dueDate", header: "Fällig am", value: (f) => f.dueDate, type: "date" },
    { id: "reminderLevel", header: "Mahnstufe", value: (f) => f.reminderLevel || null, type: "number" },
    { id: "lastReminderDate", header: "Letzte Mahnung", value: (f) => f.lastReminderDate, type: "date" },
    { id: "comments", header: "Kommentar", value: (f) => f.comments },
    { id: "paymentComments", header: "Buchungskommentar", value: (f) => f.paymentComments },
    { id: "isOpen", header: "Offen", value: (f) => f.isOpen, type: "checkbox" },
    { id: "sendInvoice", header: "Per Rechnung", value: (f) => f.sendInvoice, type: "checkbox" },
    { id: "isInvoiced", header: "Berechnet", value: (f) => f.isInvoiced, type: "checkbox" },
    { id: "paymentReference", header: "Zahlungsreferenz", value: (f) => f.paymentReference },
    {
      // The Mollie payment link while it fits the open amount: opens in a new tab, a button copies it.
      id: "paymentLink",
      header: "Zahlungslink",
      value: (f) => currentPaymentLink(f),
      sortable: false,
      link: (f) => {
        const url = currentPaymentLink(f);
        return url ? { to: url, newTab: true, copy: true } : null;
      },
    },
  ],
  toggles: [
    {
      param: "state",
      label: "Offene Posten nach Zahlung filtern",
      options: [
        { value: "all", label: "Alle" },
        { value: "open", label: "Nur offene" },
        { value: "paid", label: "Nur bezahlte" },
        { value: "due", label: "Nur fällige" },
      ],
    },
    {
      param: "billing",
      label: "Offene Posten nach Rechnung filtern",
      options: [
        { value: "all", label: "Alle" },
        { value: "invoiced", label: "Nur mit Rechnung" },
        { value: "notInvoiced", label: "Nur ohne Rechnung" },
      ],
    },
    REMINDER_TOGGLE,
  ],
  defaultSort: FEE_DEFAULT_SORT,
  model: {
    list: async (db, query) => listFees(db, { ...feeQuery(query), page: query.page, pageSize: query.pageSize }),
    pageOf: async (db, id, query) => pageOfFee(db, id, feeQuery(query), query.pageSize),
    all: async (db, query) => listAllFees(db, feeQuery(query)),
  },
  excel: { fileName: "Kontenblatt.xlsx", sheet: "Kontenblatt", path: "/fees/export" },
  refresh: true,
  screenLinks: [
    { label: "Kontoauszug importieren", to: "/bankstatements", area: "bankstatements", mounts: ["PARENT"] },
    { label: "Lastschriftläufe", to: "/directdebits", area: "directdebits", mounts: ["PARENT"] },
    { label: "Zahlungen", to: "/payments", area: "payments", mounts: ["PARENT"] },
  ],
  rowActions: [
    { label: "Zahlungslink erzeugen", view: "create", entity: "paymentLink" },
    // Issue 30: the person's credit (an overpayment, a cancelled invoice paid on) pays the fee.
    { label: "Guthaben verrechnen", view: "creditFee", entity: "payment", area: "payments", when: (f) => f.openAmount > 0 && !f.isInvoiced },
    { label: "Mail senden", view: "fee", entity: "mail", area: "mailer", browse: true, when: (f) => !f.personErased },
  ],
  emptyText: "Keine offenen Posten",
});
