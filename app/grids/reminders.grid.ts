import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { allReminders, isUnsent, pageOfReminders, REMINDER_DEFAULT_SORT, type ReminderRow, type ReminderWhere } from "~/models/reminders.server";

const STATUS_LABELS: Record<string, string> = { PENDING: "offen", SENT: "versandt", CANCELLED: "storniert", FAILED: "Versand fehlgeschlagen" };
const CHANNEL_LABELS: Record<string, string> = { MAIL: "Mail", PRINT: "Post" };

const reminderWhere = (query: Pick<ListQuery, "parent" | "search" | "toggles">): ReminderWhere => ({
  failedOnly: query.toggles.show === "failed",
  personId: query.parent?.type === "PERSON" ? query.parent.id : undefined,
  invoiceId: query.parent?.type === "INVOICEHEADER" ? query.parent.id : undefined,
  feeId: query.parent?.type === "FEE" ? query.parent.id : undefined,
  search: query.search || undefined,
});

/**
 * Mahnungen (issue 17), declared once: every reminder on /reminders (under the Mahnlauf), the tab
 * 'Mahnungen' of a person (every item, with the reminders of their fees) and of an invoice, and
 * the reminders of a fee in its dialog (the fee reminded, or the reminder fee). A reminder is
 * history; 'Stornieren' cancels one not sent yet, with its reminder fee (ADMIN, FINANCE).
 */
export const remindersGrid = defineGrid<ReminderRow>({
  id: "reminders",
  entity: null,
  area: "reminders",
  selectable: false,
  mounts: {
    PARENT: { title: "Mahnungen" },
    PERSON: { title: (person) => `Mahnungen an ${person.name}`, prefix: "rem" },
    INVOICEHEADER: { title: (invoice) => `Mahnungen zu Rechnung ${invoice.name}`, prefix: "rem" },
    FEE: { title: "Mahnungen zu diesem Posten", prefix: "feeRem" },
  },
  columns: [
    { id: "id", header: "Id", value: (r) => r.id, type: "number", hidden: true, sortable: false },
    { id: "date", header: "Datum", value: (r) => r.date, type: "date" },
    // The person's own history: their tab 'Mahnungen'.
    { id: "personName", header: "Person", value: (r) => r.personName, link: (r) => ({ to: `/people/${r.personId}/reminders` }), omitUnder: ["PERSON"] },
    { id: "item", header: "Posten", value: (r) => r.item, omitUnder: ["INVOICEHEADER"] },
    { id: "levelTitle", header: "Stufe", value: (r) => r.levelTitle },
    { id: "openAmount", header: "Offen", value: (r) => r.openAmount, type: "money" },
    { id: "fee", header: "Mahngebühr", value: (r) => r.fee, type: "money" },
    { id: "interest", header: "Davon Zinsen", value: (r) => r.interest, type: "money", hidden: true },
    { id: "newDueDate", header: "Zahlbar bis", value: (r) => r.newDueDate, type: "date" },
    { id: "channel", header: "Versand", value: (r) => (r.channel ? CHANNEL_LABELS[r.channel] : null) },
    { id: "status", header: "Status", value: (r) => STATUS_LABELS[r.status] ?? r.status, warn: (r) => r.status === "FAILED" },
    { id: "failure", header: "Grund", value: (r) => r.failure, sortable: false },
    { id: "createdBy", header: "Von", value: (r) => r.createdBy },
  ],
  search: { placeholder: "Person oder Posten" },
  defaultSort: REMINDER_DEFAULT_SORT,
  model: {
    list: (db, query) => pageOfReminders(db, reminderWhere(query), query.page, query.pageSize, query.sort),
    all: (db, query) => allReminders(db, reminderWhere(query), query.sort),
  },
  excel: { fileName: "Mahnungen.xlsx", sheet: "Mahnungen", path: "/reminders/export" },
  // Only a reminder not sent yet; the confirmation (app/dialogs/reminder) says what goes with it.
  // A mail that failed (issue 31 item 6): sent again, or printed and posted instead.
  rowActions: [
    { label: "Erneut senden", view: "resend", entity: "reminder", when: (r) => r.status === "FAILED" },
    { label: "Als Brief drucken", view: "print", entity: "reminder", when: (r) => r.status === "FAILED" },
    { label: "Brief (PDF)", href: (r) => `/reminders/letter/${r.id}`, newTab: true, when: (r) => Boolean(r.hasLetter) },
    { label: "Stornieren", view: "cancel", entity: "reminder", when: isUnsent },
  ],
  toggles: [
    {
      param: "show",
      label: "Mahnungen filtern",
      options: [
        { value: "all", label: "Alle" },
        { value: "failed", label: "Versand fehlgeschlagen" },
      ],
    },
  ],
  commandColumn: true,
  emptyText: "Noch keine Mahnungen",
});
