/**
 * The invoice row dialogs: 'Neue Rechnungszeile anlegen' (opened with the invoice's row action
 * 'Zeile hinzufügen', or under an invoice), "Rechnungszeile '{text}' bearbeiten" and delete. Every
 * change recomputes the invoice's amount in the same batch (the model). Only a draft's rows
 * change: for an issued invoice the dialogs say why not (issue 30) and the server refuses.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import type { Db } from "~/db/client.server";
import { formatMoneyInput } from "~/lib/format";
import {
  deleteInvoiceRow,
  getInvoiceRow,
  invoiceLabel,
  invoiceName,
  ISSUED_INVOICE_FROZEN,
  saveInvoiceRow,
  type InvoiceRowRecord,
} from "~/models/invoices.server";
import { auditText, conflictMessage, defineDialog, deleteOutcome, postedId, refusedOn, type ConfirmData, type DialogOutcome } from "../define.server";
import { invoiceRowSchema } from "./schema";
import type { TaxCase } from "~/lib/tax";
import { defaultTaxCaseOfNewRow } from "~/models/tax.server";
import { invoiceRowsGrid } from "~/grids/invoiceRows.grid";

function present(row: InvoiceRowRecord) {
  return {
    id: row.id,
    rowVersion: row.rowVersion,
    invoiceId: row.invoiceId,
    lineNumber: row.lineNumber,
    text: row.text,
    amount: formatMoneyInput(row.amount),
    taxCase: row.taxCase,
    accountNumber: row.accountNumber,
    sphere: row.sphere,
    audit: auditText(row),
  };
}
export type InvoiceRowFormRecord = ReturnType<typeof present>;

export type InvoiceRowDialogData = {
  row: InvoiceRowFormRecord | null;
  /** The invoice the row belongs to ('2026001 an Erika Muster'). */
  invoice: { id: number; label: string };
  /** Why the row cannot be changed (its invoice is issued), or null. */
  frozen: string | null;
  /** The tax case a new row starts with (Einstellungen: sonstige Posten). */
  defaultTaxCase: TaxCase;
};

/** A new row of an invoice: what the add dialog shows (also the invoice's 'Zeile hinzufügen'). */
export async function newRowData(db: Db, invoiceId: number | null | undefined): Promise<InvoiceRowDialogData | null> {
  const invoice = invoiceId ? await invoiceName(db, invoiceId) : undefined;
  if (!invoice || !invoiceId) return null;
  return {
    row: null,
    invoice: { id: invoiceId, label: invoice.name },
    frozen: invoice.issued ? ISSUED_INVOICE_FROZEN : null,
    defaultTaxCase: await defaultTaxCaseOfNewRow(db),
  };
}

export const dialog = defineDialog({
  area: "invoices",
  history: { table: "invoice_rows", grid: invoiceRowsGrid },
  views: {
    add: ({ db, parent, id }) => newRowData(db, parent?.type === "INVOICEHEADER" ? parent.id : id),
    edit: async ({ db, id }): Promise<InvoiceRowDialogData | null> => {
      const row = id ? await getInvoiceRow(db, id) : undefined;
      return row
        ? {
            row: present(row),
            invoice: { id: row.invoiceId, label: invoiceLabel(row) },
            frozen: row.invoiceStatus === "ISSUED" ? ISSUED_INVOICE_FROZEN : null,
            defaultTaxCase: row.taxCase,
          }
        : null;
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const row = id ? await getInvoiceRow(db, id) : undefined;
      if (!row) return null;
      const details = [
        "Der Betrag des Rechnungsentwurfs wird neu berechnet.",
        ...(row.feeId ? ["Der offene Posten dieser Zeile wird wieder abrechenbar."] : []),
        "Der Papierkorb bewahrt alles auf: Mit „Rückgängig“ gleich danach oder im Papierkorb kommt alles wieder zurück.",
      ];
      return {
        confirm: {
          title: `Rechnungszeile '${row.text}' löschen`,
          message: "Bist du sicher?",
          details,
          intent: "invoiceRow:delete",
          id: row.id,
          confirmLabel: "Löschen",
          ...(row.invoiceStatus === "ISSUED" ? { refusal: ISSUED_INVOICE_FROZEN } : {}),
        },
      };
    },
  },
  actions: {
    save: async ({ db, user, form }): Promise<DialogOutcome> => {
      const submission = parseWithZod(form, { schema: invoiceRowSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      const { value } = submission;
      if (value.id && !value.rowVersion) return { status: "invalid", result: submission.reply({ formErrors: ["Version fehlt"] }) };
      if (!value.id && !value.invoiceId) return { status: "invalid", result: submission.reply({ formErrors: ["Rechnung fehlt"] }) };
      const target = value.id ? { id: value.id, rowVersion: value.rowVersion! } : { invoiceId: value.invoiceId! };
      const outcome = await saveInvoiceRow(
        db,
        target,
        { text: value.text, amount: value.amount, taxCase: value.taxCase, accountNumber: value.accountNumber, sphere: value.sphere },
        user,
      );
      switch (outcome.status) {
        case "saved": {
          const message = value.id ? "Rechnungszeile wurde gespeichert" : "Rechnungszeile wurde angelegt";
          return { status: "saved", id: outcome.id, message };
        }
        case "missing":
          return { status: "missing" };
        case "conflict":
          return {
            status: "conflict",
            result: submission.reply({ resetForm: true }),
            message: conflictMessage(outcome.current),
            current: present(outcome.current),
          };
        case "refused":
          return refusedOn(submission.reply, outcome.field, outcome.message);
      }
    },
    delete: async ({ db, user, form }) => {
      return deleteOutcome(postedId(form), (rowId) => deleteInvoiceRow(db, rowId, user), "Rechnungszeile wurde gelöscht");
    },
  },
});
