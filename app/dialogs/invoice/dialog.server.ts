/**
 * The invoice dialogs: 'Rechnung {number} bearbeiten' (no add: invoices come from fees), delete
 * (its rows into the bin, its fees billable again) and 'Zeile hinzufügen', the row dialog opened
 * from an invoice (the invoices grid's row action).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { formatDate, formatMoney, formatMoneyInput } from "~/lib/format";
import {
  deleteInvoiceHeader,
  getInvoiceHeader,
  invoiceDeletionContents,
  openAmountOf,
  PDF_DETACHED_MESSAGE,
  updateInvoiceHeader,
  type InvoiceHeaderRecord,
} from "~/models/invoices.server";
import { auditText, defineDialog, deleteOutcome, deletionDetails, postedId, saveVersioned, type ConfirmData } from "../define.server";
import { newRowData } from "../invoiceRow/dialog.server";
import { invoiceSchema, type InvoiceFormValues } from "./schema";
import { invoiceHeadersGrid } from "~/grids/invoiceHeaders.grid";

function present(header: InvoiceHeaderRecord) {
  const isOpen = (header.openAmount ?? 0) > 0;
  return {
    id: header.id,
    rowVersion: header.rowVersion,
    invoiceNumber: header.invoiceNumber,
    personId: header.personId,
    personName: header.personName ?? "",
    date: formatDate(header.date),
    dueDate: formatDate(header.dueDate),
    sentDate: formatDate(header.sentDate),
    amount: formatMoney(header.amount),
    // Spec 001 §4: on load, Ist Offen follows the open amount.
    isOpen: isOpen ? "on" : "",
    openAmount: formatMoneyInput(isOpen ? header.openAmount : header.amount),
    comments: header.comments ?? "",
    paymentComments: header.paymentComments ?? "",
    nrOfRows: header.nrOfRows,
    audit: auditText(header),
  };
}
export type InvoiceFormRecord = ReturnType<typeof present>;
export type InvoiceDialogData = { invoice: InvoiceFormRecord };

const input = ({ date, dueDate, sentDate, isOpen, openAmount, comments, paymentComments }: InvoiceFormValues) => ({
  date,
  dueDate,
  sentDate,
  isOpen,
  openAmount,
  comments,
  paymentComments,
});

export const dialog = defineDialog({
  area: "invoices",
  history: { table: "invoice_headers", grid: invoiceHeadersGrid },
  views: {
    edit: async ({ db, id }): Promise<InvoiceDialogData | null> => {
      const header = id ? await getInvoiceHeader(db, id) : undefined;
      return header ? { invoice: present(header) } : null;
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const [header, contents] = id ? await Promise.all([getInvoiceHeader(db, id), invoiceDeletionContents(db, id)]) : [];
      if (!header || !contents) return null;
      const details = deletionDetails("ihr", [[contents.rowCount, "Rechnungszeile", "Rechnungszeilen"]]);
      if (contents.feeCount > 0)
        details.unshift(
          contents.feeCount === 1 ? "Ihr offener Posten wird wieder abrechenbar." : `Ihre ${contents.feeCount} offenen Posten werden wieder abrechenbar.`,
        );
      return {
        confirm: {
          title: `Rechnung ${header.invoiceNumber} löschen`,
          message: "Bist du sicher?",
          details,
          intent: "invoice:delete",
          id: header.id,
          confirmLabel: "Löschen",
        },
      };
    },
    addrow: ({ db, id }) => newRowData(db, id),
  },
  actions: {
    save: async ({ db, user, form }) => {
      const submission = parseWithZod(form, { schema: invoiceSchema });
      let pdfDetached = false;
      const outcome = await saveVersioned(submission, {
        check: async (value) => {
          const current = await getInvoiceHeader(db, value.id);
          if (!current || current.rowVersion !== value.rowVersion) return null;
          const amount = current.amount ?? 0;
          return openAmountOf(value, amount) > amount
            ? { openAmount: [`Der offene Betrag darf höchstens den Rechnungsbetrag (${formatMoney(amount)}) betragen.`] }
            : null;
        },
        insert: () => Promise.reject(new Error("Rechnungen entstehen aus offenen Posten")),
        update: async (id, rowVersion, value) => {
          const outcome = await updateInvoiceHeader(db, id, rowVersion, input(value), user);
          // Refused only for an open amount above the amount, which the check has already said.
          if (outcome.status === "refused") {
            const current = await getInvoiceHeader(db, id);
            return current ? { status: "conflict" as const, current } : { status: "missing" as const };
          }
          pdfDetached = outcome.status === "updated" && outcome.pdfDetached;
          return outcome;
        },
        present,
        saved: (value) => ({ isOpen: openAmountOf(value, 1) > 0 }),
        messages: { created: "Rechnung wurde angelegt", saved: "Rechnung wurde gespeichert" },
      });
      return outcome.status === "saved" && pdfDetached ? { ...outcome, warning: true, message: `${outcome.message}. ${PDF_DETACHED_MESSAGE}` } : outcome;
    },
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteInvoiceHeader(db, id, user), "Rechnung wurde gelöscht"),
  },
});
