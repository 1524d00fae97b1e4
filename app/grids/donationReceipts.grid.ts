import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { formatDate } from "~/lib/format";
import { allReceipts, listReceipts, pageOfReceipt, receiptYears, type ReceiptQuery, type ReceiptRow } from "~/models/donations.server";

/** Where a receipt's PDF is shown (app/routes/donations_.receipts_.pdf.$receiptId). */
export const receiptPdfHref = (receiptId: number) => `/donations/receipts/pdf/${receiptId}`;

const ALL = "all";
const receiptQuery = (query: Pick<ListQuery, "toggles" | "search">): ReceiptQuery => ({
  year: query.toggles.year === ALL || !/^\d{4}$/.test(query.toggles.year ?? "") ? null : Number(query.toggles.year),
  search: query.search || undefined,
});

/**
 * Zuwendungsbestätigungen (issue 35 item 5; ADMIN, FINANCE), declared once: every receipt issued,
 * newest first, with its number, donor and total; its PDF is the Doppel kept ten years (§ 50
 * Abs. 7 EStDV). 'Sammelbestätigungen ausstellen' confirms a year's unconfirmed donations per donor.
 * A receipt is never changed or deleted.
 */
export const donationReceiptsGrid = defineGrid<ReceiptRow>({
  id: "donationReceipts",
  entity: "donationReceipt",
  area: "donations",
  selectable: false,
  mounts: {
    PARENT: {
      title: "Zuwendungsbestätigungen",
      hint: "Ausgestellte Bestätigungen werden nicht geändert. Eine falsche fordert der Verein vom Spender zurück, bevor er eine neue ausstellt.",
    },
  },
  columns: [
    { id: "number", header: "Nummer", value: (r) => r.number, link: (r) => ({ to: receiptPdfHref(r.id) }), sortable: false },
    { id: "kind", header: "Art", value: (r) => (r.kind === "COLLECTIVE" ? "Sammelbestätigung" : "Einzelbestätigung"), sortable: false },
    { id: "issuedOn", header: "Ausgestellt am", value: (r) => r.issuedOn, type: "date", sortable: false },
    { id: "donorName", header: "Spender/in", value: (r) => r.donorName, link: (r) => ({ to: `/people/${r.personId}/payments` }), sortable: false },
    {
      id: "period",
      header: "Zeitraum",
      value: (r) => (r.periodFrom === r.periodTo ? formatDate(r.periodFrom) : `${formatDate(r.periodFrom)} – ${formatDate(r.periodTo)}`),
      sortable: false,
    },
    { id: "donations", header: "Spenden", value: (r) => r.donations, type: "number", sortable: false },
    { id: "amount", header: "Betrag", value: (r) => r.amount, type: "money", sum: true, sortable: false },
    { id: "createdBy", header: "Ausgestellt von", value: (r) => r.createdBy, sortable: false, hidden: true },
  ],
  toggles: [
    {
      param: "year",
      label: "Bestätigungen nach Jahr der Ausstellung filtern",
      options: [{ value: ALL, label: "Alle Jahre" }],
      dataOptions: { accepts: (value) => /^\d{4}$/.test(value), load: receiptYears },
      fallback: ALL,
    },
  ],
  search: { placeholder: "Nummer oder Spender/in" },
  defaultSort: { id: "number", descending: true },
  dialogs: { add: true, edit: false, delete: false, addLabel: "Sammelbestätigungen ausstellen" },
  model: {
    list: (db, query) => listReceipts(db, { ...receiptQuery(query), page: query.page, pageSize: query.pageSize }),
    all: (db, query) => allReceipts(db, receiptQuery(query)),
    pageOf: (db, id, query) => pageOfReceipt(db, id, receiptQuery(query), query.pageSize),
  },
  excel: { fileName: "Zuwendungsbestätigungen.xlsx", sheet: "Zuwendungsbestätigungen", path: "/donations/receipts/export" },
  rowActions: [{ label: "PDF anzeigen", href: (r) => receiptPdfHref(r.id), newTab: true }],
  commandColumn: true,
  screenLinks: [{ label: "Spenden", to: "/donations", area: "donations" }],
  emptyText: "Keine Zuwendungsbestätigungen",
});
