/**
 * The invoice dialogs: 'Rechnung {number} bearbeiten' or 'Rechnungsentwurf bearbeiten' (no add:
 * invoices come from fees), 'Rechnung ausstellen' (a draft gets its number, issue 30),
 * 'Stornieren' (a Stornorechnung cancels an issued invoice), delete (a
 * draft's rows into the bin, its fees billable again; an issued invoice is refused) and 'Zeile
 * hinzufügen', the row dialog opened from an invoice (the invoices grid's row action).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { formatCount, formatDate, formatMoney, formatMoneyInput, todayInBerlin } from "~/lib/format";
import {
  deleteInvoiceHeader,
  getInvoiceHeader,
  invoiceDeletionContents,
  cancelInvoice,
  correctionsOf,
  cancelRefusal,
  invoiceTitle,
  ISSUED_INVOICE_KEPT,
  issueInvoice,
  issueRefusal,
  openAmountOf,
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
    title: invoiceTitle(header),
    issued: header.status === "ISSUED",
    issuedOn: header.issuedOn ? formatDate(header.issuedOn.slice(0, 10)) : "",
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
    paidBy: "TRANSFER",
    paidOn: "",
    /** This form's id: the key of the journal entry a payment entered here becomes. */
    paymentKey: crypto.randomUUID(),
    nrOfRows: header.nrOfRows,
    audit: auditText(header),
  };
}
export type InvoiceFormRecord = ReturnType<typeof present>;
export type InvoiceDialogData = { invoice: InvoiceFormRecord };

const formatCountRows = (count: number) => formatCount(count, "Zeile", "Zeilen");

const input = ({ date, dueDate, sentDate, isOpen, openAmount, comments, paymentComments, paidBy, paidOn, paymentKey }: InvoiceFormValues) => ({
  date,
  dueDate,
  sentDate,
  isOpen,
  openAmount,
  comments,
  paymentComments,
  payment: { method: paidBy, date: paidOn ?? todayInBerlin(), key: paymentKey ?? null },
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
      const issued = header.status === "ISSUED";
      return {
        confirm: {
          title: `${invoiceTitle(header)} löschen`,
          message: issued ? "Ausgestellte Rechnungen werden nicht gelöscht." : "Bist du sicher?",
          details: issued ? [] : details,
          intent: "invoice:delete",
          id: header.id,
          confirmLabel: "Löschen",
          ...(issued ? { refusal: ISSUED_INVOICE_KEPT } : {}),
        },
      };
    },
    cancel: async ({ db, id }): Promise<ConfirmData | null> => {
      const header = id ? await getInvoiceHeader(db, id) : undefined;
      if (!header) return null;
      const refusal = cancelRefusal({ ...header, ...(await correctionsOf(db, header.id)) });
      return {
        confirm: {
          title: `${invoiceTitle(header)} stornieren`,
          message:
            "Es wird eine Stornorechnung mit der nächsten Rechnungsnummer ausgestellt, die jede Zeile der Rechnung aufhebt und sie nennt. Die Rechnung selbst bleibt, wie sie ausgestellt wurde.",
          details: [
            `Die Rechnung über ${formatMoney(header.amount)} ist danach ausgeglichen.`,
            ...(header.feeCount > 0
              ? [`${formatCount(header.feeCount, "Ihr offener Posten wird", "Ihre offenen Posten werden")} wieder offen und abrechenbar.`]
              : []),
          ],
          intent: "invoice:cancel",
          id: header.id,
          confirmLabel: "Stornieren",
          ...(refusal ? { refusal } : {}),
        },
      };
    },
    issue: async ({ db, id }): Promise<ConfirmData | null> => {
      const header = id ? await getInvoiceHeader(db, id) : undefined;
      if (!header) return null;
      const refusal = issueRefusal(header);
      return {
        confirm: {
          title: ["Rechnung an", header.personName, "ausstellen"].filter(Boolean).join(" "),
          message:
            "Ausgestellt erhält die Rechnung die nächste Rechnungsnummer und das heutige Datum. Danach kann sie nicht mehr geändert oder gelöscht werden, nur storniert.",
          details: [`${formatCountRows(header.nrOfRows)}, zusammen ${formatMoney(header.amount)}`],
          intent: "invoice:issue",
          id: header.id,
          confirmLabel: "Ausstellen",
          ...(refusal ? { refusal } : {}),
        },
      };
    },
    addrow: ({ db, id }) => newRowData(db, id),
  },
  actions: {
    save: async ({ db, user, form }) => {
      const submission = parseWithZod(form, { schema: invoiceSchema });
      return saveVersioned(submission, {
        check: async (value) => {
          const current = await getInvoiceHeader(db, value.id);
          if (!current || current.rowVersion !== value.rowVersion) return null;
          const amount = current.amount ?? 0;
          return openAmountOf(value, amount) > amount
            ? { openAmount: [`Der offene Betrag darf höchstens den Rechnungsbetrag (${formatMoney(amount)}) betragen.`] }
            : null;
        },
        insert: () => Promise.reject(new Error("Rechnungen entstehen aus offenen Posten")),
        update: (id, rowVersion, value) => updateInvoiceHeader(db, id, rowVersion, input(value), user),
        present,
        saved: (value) => ({ isOpen: openAmountOf(value, 1) > 0 }),
        messages: { created: "Rechnung wurde angelegt", saved: "Rechnung wurde gespeichert" },
      });
    },
    cancel: async ({ db, user, form }) => {
      const id = postedId(form);
      if (!id) return { status: "missing" };
      const outcome = await cancelInvoice(db, id, user, todayInBerlin());
      return outcome.status === "cancelled" ? { status: "done", message: `Stornorechnung ${outcome.stornoNumber} wurde ausgestellt` } : outcome;
    },
    issue: async ({ db, user, form }) => {
      const id = postedId(form);
      if (!id) return { status: "missing" };
      const outcome = await issueInvoice(db, id, user, todayInBerlin());
      return outcome.status === "issued" ? { status: "done", message: `Rechnung ${outcome.invoiceNumber} wurde ausgestellt` } : outcome;
    },
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteInvoiceHeader(db, id, user), "Rechnung wurde gelöscht"),
  },
});
