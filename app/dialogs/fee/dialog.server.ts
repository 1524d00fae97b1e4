/**
 * The fee dialogs (offene Posten): add, edit ("Offenen Posten '{text}' bearbeiten"), delete. The
 * rules of spec 001 §4 hold on the server whatever the form sends: unticking open sets the open
 * amount to 0 and clears the due date (what it goes down by is a payment, booked in the payment
 * journal with the Zahlungsart and date of the form); with sendInvoice the open flag is locked, and sendInvoice
 * and the person are locked when editing; the Buchungskommentar belongs to direct billing only;
 * saving a fee already invoiced warns. Below the form: the fee's Mahnungen (the reminders grid
 * under FEE) and its Änderungsverlauf.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { formatDate, formatMoneyInput, todayInBerlin } from "~/lib/format";
import { INVOICED_FEE_CHANGED } from "~/models/course-memberships.server";
import { deleteFee, getFee, insertFee, updateFee, type FeeRecord } from "~/models/fees.server";
import { personName } from "~/models/people.server";
import {
  auditText,
  defineDialog,
  deleteOutcome,
  postedId,
  saveVersioned,
  type ConfirmData,
  type DialogOutcome,
  type DialogViewContext,
} from "../define.server";
import { personLookup, type LookupOption } from "../lookup.server";
import { feeSchema, type FeeFormValues } from "./schema";
import { feesGrid } from "~/grids/fees.grid";
import { remindersGrid } from "~/grids/reminders.grid";

function present(fee: FeeRecord) {
  return {
    ...fee,
    date: formatDate(fee.date),
    dueDate: formatDate(fee.dueDate),
    amount: formatMoneyInput(fee.amount),
    openAmount: formatMoneyInput(fee.openAmount),
    isOpen: fee.openAmount > 0,
    paidBy: "TRANSFER",
    paidOn: "",
    audit: auditText(fee),
  };
}
export type FeeFormRecord = ReturnType<typeof present>;

export type FeeDialogData = {
  fee: FeeFormRecord | null;
  people: LookupOption[];
  personSearch: string;
  /** The person is fixed: editing, or added under a person. */
  personLocked: boolean;
  defaults: { personId: number | null; date: string; isOpen: boolean; sendInvoice: boolean };
  /** This form's id: the key of the journal entry a payment entered here becomes. */
  paymentKey: string;
};

async function dialogData({ db, parent, search }: DialogViewContext, fee: FeeRecord | null): Promise<FeeDialogData> {
  const personId = fee ? fee.personId : parent?.type === "PERSON" ? parent.id : null;
  const person = personId ? await personName(db, personId) : undefined;
  const lookup = await personLookup(db, search, person);
  return {
    fee: fee && present(fee),
    people: lookup.options,
    personSearch: lookup.term,
    personLocked: Boolean(fee) || parent?.type === "PERSON",
    defaults: { personId, date: formatDate(todayInBerlin()), isOpen: true, sendInvoice: true },
    paymentKey: crypto.randomUUID(),
  };
}

/** The values the rules allow, from what was posted and what is stored. */
function ruled(value: FeeFormValues, stored: FeeRecord | undefined) {
  const sendInvoice = stored ? Boolean(stored.sendInvoice) : value.sendInvoice;
  // With sendInvoice the open flag is locked: it stays as stored (a new fee billed by invoice is open).
  const isOpen = sendInvoice ? (stored ? stored.openAmount > 0 : true) : value.isOpen;
  // Locked (billed by invoice, stored): what the payments leave, the model works it out (null).
  const openAmount = sendInvoice && stored ? null : isOpen ? (value.openAmount ?? value.amount) : 0;
  return {
    personId: stored ? stored.personId : value.personId,
    sendInvoice,
    date: value.date,
    text: value.text,
    amount: value.amount,
    openAmount,
    dueDate: isOpen ? value.dueDate : null,
    comments: value.comments,
    accountNumber: value.accountNumber,
    sphere: value.sphere,
    // The Buchungskommentar is for fees collected directly.
    paymentComments: sendInvoice ? (stored?.paymentComments ?? null) : value.paymentComments,
    payment: { method: value.paidBy, date: value.paidOn ?? todayInBerlin(), key: value.paymentKey ?? null },
  };
}

export const dialog = defineDialog({
  area: "fees",
  history: { table: "fees", grid: feesGrid },
  // The fee's Mahnungen (issue 17): reminders of the fee, or the reminder whose fee it is.
  children: { parentType: "FEE", grids: [remindersGrid] },
  views: {
    add: (context) => dialogData(context, null),
    edit: async (context) => {
      const fee = context.id ? await getFee(context.db, context.id) : undefined;
      return fee ? dialogData(context, fee) : null;
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const fee = id ? await getFee(db, id) : undefined;
      if (!fee) return null;
      return {
        confirm: {
          title: `Offenen Posten '${fee.text}' löschen`,
          message: "Bist du sicher?",
          details: [[fee.personName, formatDate(fee.date)].filter(Boolean).join(", ")],
          intent: "fee:delete",
          id: fee.id,
          confirmLabel: "Löschen",
        },
      };
    },
  },
  actions: {
    save: async ({ db, user, form }): Promise<DialogOutcome> => {
      const submission = parseWithZod(form, { schema: feeSchema });
      let stored: FeeRecord | undefined;
      const outcome = await saveVersioned(submission, {
        check: async (value): Promise<Record<string, string[]> | null> => {
          stored = value.id ? await getFee(db, value.id) : undefined;
          if (!stored && !(await personName(db, value.personId))) return { personId: ["Diese Person gibt es nicht (mehr)"] };
          const rules = ruled(value, stored);
          if (rules.openAmount !== null && rules.openAmount > rules.amount) return { openAmount: ["Der offene Betrag darf nicht größer als der Betrag sein"] };
          if (!stored && value.isOpen && rules.openAmount === 0 && rules.amount > 0)
            return { openAmount: ["Ein offener Posten braucht einen offenen Betrag über 0 €"] };
          return null;
        },
        insert: async (value) => insertFee(db, ruled(value, undefined), user),
        update: async (id, rowVersion, value) => {
          const { personId: _personId, sendInvoice: _sendInvoice, ...changes } = ruled(value, stored);
          return updateFee(db, id, rowVersion, changes, user);
        },
        present,
        messages: { created: "Offener Posten wurde angelegt", saved: "Offener Posten wurde gespeichert" },
      });
      // Not silently: a fee already on an invoice was changed.
      if (outcome.status === "saved" && stored && (stored.isInvoiced || stored.invoiceNumber !== null)) {
        return { ...outcome, warning: true, message: `${INVOICED_FEE_CHANGED}${stored.invoiceNumber !== null ? ` (Rechnung ${stored.invoiceNumber})` : ""}.` };
      }
      return outcome;
    },
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteFee(db, id, user), "Offener Posten wurde gelöscht"),
  },
});
