import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import type { PaymentMethod } from "~/db/schema";
import { todayInBerlin } from "~/lib/format";
import { PAYMENT_METHOD_LABELS, PAYMENT_SOURCE_LABELS } from "~/lib/labels";
import { reversalRefusal } from "~/lib/payments";
import { PERIOD_OPTIONS } from "~/lib/periods";
import {
  allPayments,
  listPayments,
  PAYMENT_DEFAULT_SORT,
  PAYMENT_PERIODS,
  pageOfPayment,
  type PaymentPeriod,
  type PaymentQuery,
  type PaymentRow,
} from "~/models/payments.server";

const METHODS = Object.keys(PAYMENT_METHOD_LABELS) as PaymentMethod[];

const paymentQuery = (query: Pick<ListQuery, "toggles" | "sort" | "parent" | "search">): PaymentQuery => ({
  personId: query.parent?.type === "PERSON" ? query.parent.id : undefined,
  method: METHODS.includes(query.toggles.method as PaymentMethod) ? (query.toggles.method as PaymentMethod) : undefined,
  period: (PAYMENT_PERIODS.includes(query.toggles.period as PaymentPeriod) ? query.toggles.period : "all") as PaymentPeriod,
  search: query.search || undefined,
  sort: query.sort,
  today: todayInBerlin(),
});

/** 'zurückgebucht' (undone by a counter-entry), 'Gegenbuchung' (the counter-entry itself), or nothing. */
const stateOf = (row: PaymentRow) => (row.reversedBy !== null ? "zurückgebucht" : row.reversesPaymentId !== null ? "Gegenbuchung" : null);

/**
 * Zahlungen (issue 30 item 4), declared once: the payment journal on its own screen (every entry,
 * filtered by method, period and person) and the tab 'Zahlungen' of a person, beside their
 * Kontenblatt. An entry is never changed: 'Zurückbuchen' undoes it by a counter-entry, 'Guthaben
 * erstatten' pays out what the person's entries left unallocated (ADMIN, FINANCE).
 */
export const paymentsGrid = defineGrid<PaymentRow>({
  id: "payments",
  entity: "payment",
  area: "payments",
  selectable: false,
  mounts: {
    PARENT: { title: "Zahlungen" },
    PERSON: { title: (person) => `Zahlungen von ${person.name}`, prefix: "pay" },
  },
  columns: [
    { id: "id", header: "Nr.", value: (r) => r.id, type: "number" },
    { id: "date", header: "Datum", value: (r) => r.date, type: "date" },
    { id: "personName", header: "Person", value: (r) => r.personName, link: (r) => ({ to: `/people/${r.personId}/payments` }), omitUnder: ["PERSON"] },
    { id: "amount", header: "Betrag", value: (r) => r.amount, type: "money", sum: true },
    { id: "method", header: "Zahlungsart", value: (r) => PAYMENT_METHOD_LABELS[r.method] },
    { id: "source", header: "Quelle", value: (r) => PAYMENT_SOURCE_LABELS[r.source], sortable: false },
    { id: "sourceRef", header: "Referenz", value: (r) => r.sourceRef, sortable: false },
    { id: "text", header: "Buchungstext", value: (r) => r.text, sortable: false },
    { id: "allocated", header: "Zugeordnet", value: (r) => r.allocated, type: "money", sortable: false },
    { id: "unallocated", header: "Guthaben", value: (r) => r.unallocated || null, type: "money", sortable: false },
    { id: "state", header: "Status", value: stateOf, sortable: false },
    { id: "createdBy", header: "Gebucht von", value: (r) => r.createdBy },
  ],
  toggles: [
    {
      param: "method",
      label: "Zahlungen nach Zahlungsart filtern",
      options: [{ value: "all", label: "Alle" }, ...METHODS.map((method) => ({ value: method, label: PAYMENT_METHOD_LABELS[method] }))],
    },
    {
      param: "period",
      label: "Zahlungen nach Zeitraum filtern",
      options: PERIOD_OPTIONS,
    },
  ],
  search: { placeholder: "Person, Text oder Referenz" },
  defaultSort: PAYMENT_DEFAULT_SORT,
  dialogs: { add: false, edit: false, delete: false },
  model: {
    list: (db, query) => listPayments(db, { ...paymentQuery(query), page: query.page, pageSize: query.pageSize }),
    all: (db, query) => allPayments(db, paymentQuery(query)),
    pageOf: (db, id, query) => pageOfPayment(db, id, paymentQuery(query), query.pageSize),
  },
  excel: { fileName: "Zahlungen.xlsx", sheet: "Zahlungen", path: "/payments/export" },
  rowActions: [
    { label: "Zurückbuchen", view: "reverse", when: (r) => reversalRefusal(r) === null },
    { label: "Guthaben erstatten", view: "refund", when: (r) => r.unallocated > 0 && r.personCredit > 0 },
  ],
  commandColumn: true,
  emptyText: "Noch keine Zahlungen",
});
