import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { MAIL_KIND_LABELS, MAIL_STATUS_LABELS } from "~/lib/mail";
import { listMailLog, MAIL_LOG_DEFAULT_SORT, type MailLogQuery, type MailLogRow } from "~/models/mails.server";

const logQuery = (query: Pick<ListQuery, "parent" | "sort">): MailLogQuery => ({
  personId: query.parent?.type === "PERSON" ? query.parent.id : undefined,
  invoiceHeaderId: query.parent?.type === "INVOICEHEADER" ? query.parent.id : undefined,
  sort: query.sort,
});

/**
 * The mail log (spec 001 §7 mailer, ?invoiceHeaderId=): every mail Wuff sent or tried to send,
 * newest first. Declared once: the screen /mailer and the tab 'Mails' of a person and of an
 * invoice. Read only: a sent mail is history.
 */
export const mailsGrid = defineGrid<MailLogRow>({
  id: "mails",
  entity: null,
  area: "mailer",
  selectable: false,
  mounts: {
    PARENT: { title: "Mail-Protokoll" },
    PERSON: { title: (person) => `Mails an ${person.name}`, prefix: "mail" },
    INVOICEHEADER: { title: (invoice) => `Mails zu Rechnung ${invoice.name}`, prefix: "mail" },
  },
  columns: [
    { id: "id", header: "Id", value: (m) => m.id, type: "number", hidden: true },
    { id: "createdOn", header: "Erstellt am", value: (m) => m.createdOn, type: "dateTime" },
    { id: "sentOn", header: "Versandt am", value: (m) => m.sentOn, type: "dateTime" },
    { id: "kind", header: "Art", value: (m) => MAIL_KIND_LABELS[m.kind] },
    { id: "status", header: "Status", value: (m) => MAIL_STATUS_LABELS[m.status], warn: (m) => m.status !== "SENT" },
    { id: "subject", header: "Betreff", value: (m) => m.subject },
    { id: "intendedRecipient", header: "Empfänger", value: (m) => m.intendedRecipient },
    { id: "recipient", header: "Gesendet an", value: (m) => m.recipient },
    { id: "cc", header: "Cc", value: (m) => m.cc ?? (m.intendedCc ? `(${m.intendedCc}, nicht gesendet)` : null), sortable: false },
    { id: "attachments", header: "Anhänge", value: (m) => m.attachments, sortable: false },
    {
      id: "personName",
      header: "Person",
      value: (m) => m.personName,
      link: (m) => (m.personId && m.personName ? { dialog: "person-edit", id: m.personId } : null),
      omitUnder: ["PERSON"],
      sortable: false,
    },
    {
      id: "invoiceNumber",
      header: "Rechnung",
      value: (m) => m.invoiceNumber,
      type: "number",
      display: (m) => (m.invoiceNumber ? String(m.invoiceNumber) : ""),
      omitUnder: ["INVOICEHEADER"],
      sortable: false,
    },
    { id: "feeId", header: "Posten-Nr", value: (m) => m.feeId, type: "number", hidden: true, sortable: false },
    { id: "mailshotId", header: "Mailshot-Nr", value: (m) => m.mailshotId, type: "number", hidden: true, sortable: false },
    { id: "jobId", header: "Lauf-Nr", value: (m) => m.jobId, type: "number", hidden: true, sortable: false },
    { id: "sentBy", header: "Von", value: (m) => m.sentBy },
    { id: "smtpResponse", header: "Antwort des Mailservers", value: (m) => m.smtpResponse, sortable: false },
  ],
  defaultSort: MAIL_LOG_DEFAULT_SORT,
  model: {
    list: (db, query) => listMailLog(db, { ...logQuery(query), page: query.page, pageSize: query.pageSize }),
  },
  emptyText: "Noch keine Mails",
});
