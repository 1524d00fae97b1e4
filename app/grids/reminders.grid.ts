import { defineGrid } from "~/components/data-grid/declare";
import { pageOfReminders, type ReminderRow } from "~/models/reminders.server";

const STATUS_LABELS: Record<string, string> = { PENDING: "offen", SENT: "versandt", CANCELLED: "storniert" };
const CHANNEL_LABELS: Record<string, string> = { MAIL: "Mail", PRINT: "Post" };

/**
 * Mahnungen (issue 17): the reminders of a person (every item, with the reminders of their fees)
 * and of an invoice, newest first, as the tab 'Mahnungen'. Read only: a reminder is history.
 */
export const remindersGrid = defineGrid<ReminderRow>({
  id: "reminders",
  entity: null,
  area: "reminders",
  selectable: false,
  mounts: {
    PERSON: { title: (person) => `Mahnungen an ${person.name}`, prefix: "rem" },
    INVOICEHEADER: { title: (invoice) => `Mahnungen zu Rechnung ${invoice.name}`, prefix: "rem" },
  },
  columns: [
    { id: "id", header: "Id", value: (r) => r.id, type: "number", hidden: true, sortable: false },
    { id: "date", header: "Datum", value: (r) => r.date, type: "date", sortable: false },
    { id: "item", header: "Posten", value: (r) => r.item, omitUnder: ["INVOICEHEADER"], sortable: false },
    { id: "levelTitle", header: "Stufe", value: (r) => r.levelTitle, sortable: false },
    { id: "openAmount", header: "Offen", value: (r) => r.openAmount, type: "money", sortable: false },
    { id: "fee", header: "Mahngebühr", value: (r) => r.fee, type: "money", sortable: false },
    { id: "newDueDate", header: "Zahlbar bis", value: (r) => r.newDueDate, type: "date", sortable: false },
    { id: "channel", header: "Versand", value: (r) => (r.channel ? CHANNEL_LABELS[r.channel] : null), sortable: false },
    { id: "status", header: "Status", value: (r) => STATUS_LABELS[r.status] ?? r.status, sortable: false },
    { id: "createdBy", header: "Von", value: (r) => r.createdBy, sortable: false },
  ],
  defaultSort: { id: "date", descending: true },
  model: {
    list: (db, query) =>
      pageOfReminders(
        db,
        { personId: query.parent?.type === "PERSON" ? query.parent.id : undefined, invoiceId: query.parent?.type === "INVOICEHEADER" ? query.parent.id : undefined },
        query.page,
        query.pageSize ?? 50,
      ),
  },
  emptyText: "Noch keine Mahnungen",
});
