import { defineGrid } from "~/components/data-grid/declare";
import { isRecipientQuery, RECIPIENT_QUERY_LABELS } from "~/lib/mail";
import { listMailshots, MAILSHOT_DEFAULT_SORT, type MailshotRow } from "~/models/mailshots.server";

const fileName = (key: string | null) => (key ? (key.split("/").pop() ?? key) : null);

/** Mailshots (ADMIN): the predefined mails to a group; sent from Tasks. */
export const mailshotsGrid = defineGrid<MailshotRow>({
  id: "mailshots",
  entity: "mailshot",
  area: "mailshots",
  mounts: { PARENT: { title: "Mailshots", hint: "Versandt wird ein Mailshot unter Tasks, mit Vorschau jeder Mail." } },
  columns: [
    { id: "id", header: "Id", value: (m) => m.id, type: "number", hidden: true },
    { id: "name", header: "Name", value: (m) => m.name },
    {
      id: "recipientQuery",
      header: "Empfänger",
      value: (m) => (isRecipientQuery(m.recipientQuery) ? RECIPIENT_QUERY_LABELS[m.recipientQuery] : m.recipientQuery),
    },
    { id: "templateName", header: "Vorlage", value: (m) => m.templateName },
    { id: "subject", header: "Betreff", value: (m) => m.subject },
    { id: "cc", header: "Cc", value: (m) => m.cc, sortable: false },
    { id: "attachInvoice", header: "Rechnung anhängen", value: (m) => m.attachInvoice, type: "checkbox", sortable: false },
    { id: "attachDocPath1", header: "Anhang 1", value: (m) => fileName(m.attachDocPath1), sortable: false },
    { id: "attachDocPath2", header: "Anhang 2", value: (m) => fileName(m.attachDocPath2), sortable: false },
  ],
  defaultSort: MAILSHOT_DEFAULT_SORT,
  model: { list: (db, query) => listMailshots(db, { sort: query.sort, page: query.page, pageSize: query.pageSize }) },
  emptyText: "Keine Mailshots",
});
