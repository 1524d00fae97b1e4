/**
 * Das Kassenbuch's dialogs (ADMIN, FINANCE; issue 35 item 2): 'Buchung erfassen' books an entry
 * without a person (Einlage, Ausgabe, Bankeinzahlung, Entnahme), 'Stornieren' an entry's
 * counter-entry. The book itself is never edited (app/models/cash-book.server.ts).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { CASH_ENTRY_KIND_LABELS, MANUAL_CASH_KINDS } from "~/lib/cash-book";
import { formatDate, formatMoney, todayInBerlin } from "~/lib/format";
import { bookCashEntry, bookedMessage, cashBalance, cashReversalRefusal, getCashEntry, reverseCashEntry } from "~/models/cash-book.server";
import { defineDialog, postedId, refusedOn, type ConfirmData, type DialogOutcome } from "../define.server";
import { cashEntrySchema } from "./schema";

export type CashEntryDialogData = {
  kinds: { value: string; label: string }[];
  values: { kind: string; date: string; amount: string; text: string; accountNumber: string; sphere: string };
  /** This form's id: the entry's key (sent twice, it books once). */
  formKey: string;
  balance: string;
  lastDate: string | null;
};

export const dialog = defineDialog({
  area: "cashbook",
  views: {
    add: async ({ db }): Promise<CashEntryDialogData> => {
      const { balance, lastDate } = await cashBalance(db);
      return {
        kinds: MANUAL_CASH_KINDS.map((kind) => ({ value: kind, label: CASH_ENTRY_KIND_LABELS[kind] })),
        values: { kind: "EXPENSE", date: formatDate(todayInBerlin()), amount: "", text: "", accountNumber: "", sphere: "" },
        formKey: crypto.randomUUID(),
        balance: formatMoney(balance),
        lastDate: lastDate ? formatDate(lastDate) : null,
      };
    },
    reverse: async ({ db, id }): Promise<ConfirmData | null> => {
      const entry = id ? await getCashEntry(db, id) : undefined;
      if (!entry) return null;
      const refusal = cashReversalRefusal(entry);
      return {
        confirm: {
          title: `Beleg ${entry.receiptNumber} stornieren`,
          message:
            entry.paymentId !== null
              ? "Die Barzahlung bleibt im Kassenbuch und im Zahlungsjournal stehen; eine Gegenbuchung mit heutigem Datum hebt sie auf. Was sie bezahlt hat, ist danach wieder offen. Bist du sicher?"
              : "Die Buchung bleibt im Kassenbuch stehen; eine Gegenbuchung mit heutigem Datum hebt sie auf. Bist du sicher?",
          details: [`${formatDate(entry.date)}, ${CASH_ENTRY_KIND_LABELS[entry.kind]}, ${formatMoney(entry.amount)}`, entry.text],
          intent: "cashEntry:reverse",
          id: entry.id,
          confirmLabel: "Stornieren",
          ...(refusal ? { refusal } : {}),
        },
      };
    },
  },
  actions: {
    save: async ({ db, user, form }): Promise<DialogOutcome> => {
      const submission = parseWithZod(form, { schema: cashEntrySchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      const value = submission.value;
      if (value.date > todayInBerlin()) return refusedOn(submission.reply, "date", "Eine Kassenbuchung kann nicht in der Zukunft liegen.");
      const outcome = await bookCashEntry(db, { ...value, account: value.accountNumber, key: value.formKey }, user);
      if (outcome.status === "refused") return refusedOn(submission.reply, outcome.field, outcome.message);
      if (outcome.status === "already") return { status: "refused", message: "Diese Buchung ist schon erfasst (das Formular wurde zweimal gesendet)." };
      return { status: "saved", id: outcome.id, message: bookedMessage(outcome.receiptNumber, value.kind, value.amount) };
    },
    reverse: async ({ db, user, form }): Promise<DialogOutcome> => {
      const id = postedId(form);
      if (!id) return { status: "missing" };
      const outcome = await reverseCashEntry(db, id, todayInBerlin(), user);
      if (outcome.status === "booked") return { status: "saved", id: outcome.id, message: `Storniert: Gegenbuchung Beleg ${outcome.receiptNumber}` };
      if (outcome.status === "already") return { status: "refused", message: "Schon storniert." };
      return outcome;
    },
  },
});
