import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { DONATION_METHOD_LABELS } from "~/lib/donations";
import { formatDate, todayInBerlin } from "~/lib/format";
import { PERIOD_OPTIONS, PERIODS, type Period } from "~/lib/periods";
import {
  allDonations,
  DONATION_DEFAULT_SORT,
  donationCancelRefusal,
  listDonations,
  pageOfDonation,
  singleReceiptRefusal,
  type DonationQuery,
  type DonationRow,
} from "~/models/donations.server";
import { receiptPdfHref } from "./donationReceipts.grid";

const periodOf = (value: string | undefined): Period => (PERIODS.includes(value as Period) ? (value as Period) : "thisYear");

const donationQuery = (query: Pick<ListQuery, "toggles" | "sort" | "search">): DonationQuery => ({
  period: periodOf(query.toggles.period),
  search: query.search || undefined,
  sort: query.sort,
  today: todayInBerlin(),
});

const stateOf = (row: DonationRow) =>
  row.cancelledOn ? `storniert am ${formatDate(row.cancelledOn)}` : row.receiptNumber ? `bestätigt (${row.receiptNumber})` : "offen";

/**
 * Spenden (issue 35 item 5; ADMIN, FINANCE), declared once: every donation with its donor, how it
 * came in, and its Zuwendungsbestätigung. 'Spende erfassen' records one (booked as a paid fee on
 * the account Spenden); 'Bestätigung ausstellen' confirms a single donation; Sammelbestätigungen
 * for a year are issued under Zuwendungsbestätigungen. A donation is never edited: one recorded by
 * mistake is cancelled while unconfirmed.
 */
export const donationsGrid = defineGrid<DonationRow>({
  id: "donations",
  entity: "donation",
  area: "donations",
  selectable: false,
  mounts: {
    PARENT: {
      title: "Spenden",
      hint: "Geldspenden mit Spender/in. Mitgliedsbeiträge sind keine Spenden und werden nie bestätigt (§ 10b Abs. 1 Satz 8 EStG).",
    },
  },
  columns: [
    { id: "date", header: "Tag der Zuwendung", value: (r) => r.date, type: "date" },
    {
      id: "personName",
      header: "Spender/in",
      value: (r) => r.personName,
      link: (r) => ({ to: `/people/${r.personId}/payments` }),
    },
    { id: "amount", header: "Betrag", value: (r) => r.amount, type: "money", sum: true },
    {
      id: "method",
      header: "Eingang",
      value: (r) => (r.method ? (DONATION_METHOD_LABELS[r.method as keyof typeof DONATION_METHOD_LABELS] ?? r.method) : null),
      sortable: false,
    },
    { id: "text", header: "Notiz", value: (r) => r.text, sortable: false },
    { id: "state", header: "Bestätigung", value: stateOf, sortable: false },
    { id: "createdBy", header: "Erfasst von", value: (r) => r.createdBy, sortable: false, hidden: true },
  ],
  toggles: [{ param: "period", label: "Spenden nach Zeitraum filtern", options: PERIOD_OPTIONS, fallback: "thisYear" }],
  search: { placeholder: "Spender/in, Notiz oder Bestätigung" },
  defaultSort: DONATION_DEFAULT_SORT,
  dialogs: { add: true, edit: false, delete: false, addLabel: "Spende erfassen" },
  model: {
    list: (db, query) => listDonations(db, { ...donationQuery(query), page: query.page, pageSize: query.pageSize }),
    all: (db, query) => allDonations(db, donationQuery(query)),
    pageOf: (db, id, query) => pageOfDonation(db, id, donationQuery(query), query.pageSize),
  },
  excel: { fileName: "Spenden.xlsx", sheet: "Spenden", path: "/donations/export" },
  rowActions: [
    { label: "Bestätigung ausstellen", view: "receipt", when: (r) => singleReceiptRefusal(r) === null },
    { label: "Bestätigung anzeigen", href: (r) => receiptPdfHref(r.receiptId ?? 0), newTab: true, when: (r) => r.receiptId !== null },
    { label: "Stornieren", view: "cancel", when: (r) => donationCancelRefusal(r) === null },
  ],
  commandColumn: true,
  screenLinks: [{ label: "Zuwendungsbestätigungen", to: "/donations/receipts", area: "donations" }],
  emptyText: "Keine Spenden in diesem Zeitraum",
});
