/**
 * 'Gutschrift' (ADMIN, FINANCE; issue 30): a credit note for part of an issued invoice, issued at
 * once with the next number (app/models/credit-notes.server.ts). The form offers the invoice's tax
 * cases with what is left to credit of each.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { formatMoney, todayInBerlin } from "~/lib/format";
import { TAX_CASE_SHORT } from "~/lib/tax";
import { creditableOf, creditNoteRefusal, issueCreditNote } from "~/models/credit-notes.server";
import { invoiceTitle } from "~/models/invoices.server";
import { defineDialog, refusedOn, type DialogOutcome } from "../define.server";
import { creditNoteSchema } from "./schema";

export type CreditNoteDialogData = {
  invoice: { id: number; rowVersion: number; title: string; personName: string; amount: string; openAmount: string };
  values: { id: number; text: string; amount: string; taxCase: string };
  /** The invoice's tax cases with what is left to credit ('19 %: noch 119,00 €'). */
  cases: { value: string; label: string }[];
  /** This form's id: the key of the credit note's journal entry. */
  formKey: string;
  refusal: string | null;
};

export const dialog = defineDialog({
  area: "invoices",
  views: {
    create: async ({ db, id }): Promise<CreditNoteDialogData | null> => {
      const creditable = id ? await creditableOf(db, id) : undefined;
      if (!creditable) return null;
      const { header, cases } = creditable;
      const first = cases.find((entry) => entry.left > 0) ?? cases[0];
      return {
        invoice: {
          id: header.id,
          rowVersion: header.rowVersion,
          title: invoiceTitle(header),
          personName: header.personName ?? "",
          amount: formatMoney(header.amount),
          openAmount: formatMoney(header.openAmount),
        },
        values: { id: header.id, text: `Gutschrift zu Rechnung ${header.invoiceNumber ?? ""}`.trim(), amount: "", taxCase: first?.taxCase ?? "" },
        cases: cases.map((entry) => ({
          value: entry.taxCase,
          label: `${TAX_CASE_SHORT[entry.taxCase]}: noch ${formatMoney(entry.left)} von ${formatMoney(entry.gross)}`,
        })),
        formKey: crypto.randomUUID(),
        refusal: creditNoteRefusal(creditable),
      };
    },
  },
  actions: {
    create: async ({ db, user, form }): Promise<DialogOutcome> => {
      const submission = parseWithZod(form, { schema: creditNoteSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      const { id, formKey, ...input } = submission.value;
      const outcome = await issueCreditNote(db, id, { ...input, key: formKey }, user, todayInBerlin());
      switch (outcome.status) {
        case "issued":
          return { status: "done", message: `Gutschrift ${outcome.invoiceNumber} über ${formatMoney(input.amount)} wurde ausgestellt` };
        case "already":
          return { status: "refused", message: "Diese Gutschrift ist schon ausgestellt (das Formular wurde zweimal gesendet)." };
        case "missing":
          return { status: "missing" };
        case "refused":
          return refusedOn(submission.reply, outcome.field, outcome.message);
      }
    },
  },
});
