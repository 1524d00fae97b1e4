import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import {
  INVOICE_DEFAULT_SORT,
  INVOICE_STATUS_FILTERS,
  invoiceLabel,
  invoiceName,
  listInvoiceHeaders,
  pageOfInvoiceHeader,
  type InvoiceHeaderQuery,
  type InvoiceHeaderRow,
  type InvoiceStatusFilter,
} from "~/models/invoices.server";
import { invoiceStateLabel } from "~/lib/invoice-state";
import { REMINDER_TOGGLE, reminderFilterOf } from "~/models/reminders.server";
import { invoiceRowsGrid } from "./invoiceRows.grid";
import { mailsGrid } from "./mails.grid";
import { remindersGrid } from "./reminders.grid";

/** Where an invoice's stored PDF is shown (app/routes/invoices_.pdf.$invoiceId). */
const invoicePdfHref = (invoiceId: number) => `/invoices/pdf/${invoiceId}`;
/** Where an issued invoice's e-invoice is downloaded (app/routes/invoices_.xrechnung.$invoiceId). */
const invoiceXRechnungHref = (invoiceId: number) => `/invoices/xrechnung/${invoiceId}`;

const headerQuery = (query: Pick<ListQuery, "toggles" | "sort" | "parent">): InvoiceHeaderQuery => ({
  status: (INVOICE_STATUS_FILTERS.includes(query.toggles.status as InvoiceStatusFilter) ? query.toggles.status : "all") as InvoiceStatusFilter,
  personId: query.parent?.type === "PERSON" ? query.parent.id : undefined,
  sort: query.sort,
  reminder: reminderFilterOf(query.toggles.reminder),
});

/**
 * Rechnungen (spec 001 §2 Invoice headers grid): PARENT, 300 px high, over the tab
 * Rechnungszeilen of the selected invoice; and the tab Rechnungen of a person. Invoices come from
 * fees, so there is no Add; 'Zeile hinzufügen' adds a row to a draft, 'Ausstellen' issues it. On its own screen the
 * row actions (context menu, toolbar, command column) also offer the invoice's PDF.
 */
export const invoiceHeadersGrid = defineGrid<InvoiceHeaderRow>({
  id: "invoiceHeaders",
  entity: "invoice",
  area: "invoices",
  mounts: {
    PARENT: { title: "Rechnungen", maxHeight: "300px" },
    PERSON: { title: (person) => `Rechnungen für ${person.name}`, prefix: "inv" },
  },
  columns: [
    { id: "id", header: "Id", value: (h) => h.id, type: "number", hidden: true },
    { id: "date", header: "Datum", value: (h) => h.date, type: "date" },
    {
      id: "invoiceNumber",
      header: "Rechnungsnr.",
      value: (h) => h.invoiceNumber,
      type: "number",
      display: (h) => (h.invoiceNumber === null ? "" : String(h.invoiceNumber)),
    },
    { id: "state", header: "Status", value: (h) => invoiceStateLabel(h), sortable: false },
    { id: "personName", header: "Person", value: (h) => h.personName, link: (h) => ({ dialog: "person-edit", id: h.personId }), omitUnder: ["PERSON"] },
    { id: "amount", header: "Betrag", value: (h) => h.amount, type: "money" },
    { id: "openAmount", header: "Offen", value: (h) => h.openAmount, type: "money" },
    { id: "isOpen", header: "Ist Offen", value: (h) => h.isOpen, type: "checkbox" },
    { id: "sentDate", header: "Versendet am", value: (h) => h.sentDate, type: "date" },
    { id: "dueDate", header: "Fällig am", value: (h) => h.dueDate, type: "date" },
    { id: "reminderLevel", header: "Mahnstufe", value: (h) => h.reminderLevel || null, type: "number" },
    { id: "lastReminderDate", header: "Letzte Mahnung", value: (h) => h.lastReminderDate, type: "date" },
    { id: "pdfFilePath", header: "PDF", value: (h) => h.pdfFilePath, hidden: true },
    { id: "comments", header: "Kommentar", value: (h) => h.comments },
    { id: "paymentComments", header: "Zahlungskommentar", value: (h) => h.paymentComments },
  ],
  toggles: [
    {
      param: "status",
      label: "Rechnungen nach Status filtern",
      options: [
        { value: "all", label: "Alle" },
        { value: "draft", label: "Nur Entwürfe" },
        { value: "open", label: "Nur offene" },
        { value: "paid", label: "Nur bezahlte" },
      ],
      // A saved invoice stays in view: one just marked paid is no longer among the open ones.
      follow: (saved, current) =>
        saved.isOpen === undefined || current === "all" ? undefined : (saved.isOpen === true) === (current === "open") ? undefined : "all",
    },
    REMINDER_TOGGLE,
  ],
  defaultSort: INVOICE_DEFAULT_SORT,
  dialogs: { add: false },
  model: {
    list: async (db, query) => listInvoiceHeaders(db, { ...headerQuery(query), page: query.page, pageSize: query.pageSize }),
    pageOf: async (db, id, query) => pageOfInvoiceHeader(db, id, headerQuery(query), query.pageSize),
  },
  rowActions: [
    // Issue 30: a draft gets rows and is issued; an issued invoice gets its PDF once (spec 001 §2's
    // 'PDF erneut erzeugen' is gone: an issued invoice's PDF is the document sent, never replaced).
    { label: "Zeile hinzufügen", view: "addrow", when: (h) => h.status === "DRAFT" },
    { label: "Ausstellen", view: "issue", when: (h) => h.status === "DRAFT" },
    { label: "Stornieren", view: "cancel", when: (h) => h.status === "ISSUED" && h.kind === "INVOICE" && !h.cancelled },
    { label: "Gutschrift", view: "create", entity: "creditNote", when: (h) => h.status === "ISSUED" && h.kind === "INVOICE" && !h.cancelled && h.amount > 0 },
    { label: "Guthaben verrechnen", view: "creditInvoice", entity: "payment", area: "payments", when: (h) => h.status === "ISSUED" && h.openAmount > 0 },
    { label: "PDF anzeigen", href: (h) => invoicePdfHref(h.id), newTab: true, when: (h) => h.pdfFilePath !== null, mounts: ["PARENT"] },
    // Issue 35 item 6: the e-invoice for a recipient marked as Unternehmer (the route serves any issued invoice).
    { label: "E-Rechnung (XRechnung)", href: (h) => invoiceXRechnungHref(h.id), when: (h) => h.status === "ISSUED" && h.personIsBusiness, mounts: ["PARENT"] },
    { label: "PDF erzeugen", entity: "invoicePdf", view: "create", when: (h) => h.status === "ISSUED" && h.pdfFilePath === null, mounts: ["PARENT"] },
    // Not to an erased person (issue 29/16): the invoice is kept, its addressee is gone.
    { label: "Mail senden", view: "invoice", entity: "mail", area: "mailer", browse: true, when: (h) => h.status === "ISSUED" && !h.personErased },
  ],
  commandColumn: true,
  // Spec 001 §2: Edit, Delete, ColumnChooser, Refresh.
  refresh: true,
  emptyText: "Keine Rechnungen gefunden",
  rows: {
    parentType: "INVOICEHEADER",
    label: async (db, id) => (await invoiceName(db, id))?.name,
    rowLabel: (header) => invoiceLabel(header),
    tabsLabel: (name) => `Bereiche von Rechnung ${name}`,
    tabs: [
      { path: "invoicerows", label: "Rechnungszeilen", grid: invoiceRowsGrid },
      { path: "mails", label: "Mails", area: "mailer", grid: mailsGrid },
      { path: "reminders", label: "Mahnungen", area: "reminders", grid: remindersGrid },
    ],
    defaultTab: "invoicerows",
  },
});
