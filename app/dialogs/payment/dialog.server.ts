/**
 * The payment journal's dialogs (ADMIN, FINANCE; issue 30): 'Zurückbuchen' undoes an entry by a
 * counter-entry, 'Guthaben erstatten' pays out a person's credit, 'Guthaben verrechnen' lets the
 * credit pay an invoice or a fee. The journal itself is never edited (app/models/payments.server.ts).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { formatDate, formatMoney, formatMoneyInput, todayInBerlin } from "~/lib/format";
import { PAYMENT_METHOD_LABELS } from "~/lib/labels";
import { reversalRefusal } from "~/lib/payments";
import { getPayment, openTarget, personCredit, refundCredit, reversePayment, useCredit, type Target } from "~/models/payments.server";
import { personName } from "~/models/people.server";
import { defineDialog, postedId, refusedOn, type ConfirmData, type DialogOutcome, type DialogViewContext } from "../define.server";
import { refundSchema } from "./schema";

export type RefundDialogData = {
  payment: { id: number; rowVersion: number; personName: string; credit: string };
  values: { id: number; amount: string; paidBy: string; paidOn: string };
  /** This form's id: the key of the refund's journal entry (sent twice, it pays out once). */
  paymentKey: string;
  refusal: string | null;
};

const NO_CREDIT = "Die Person hat kein Guthaben.";

/** 'Guthaben verrechnen' for an invoice or a fee: how much of what credit pays what. */
async function creditConfirm(db: DialogViewContext["db"], target: Target, view: string): Promise<ConfirmData | null> {
  const open = await openTarget(db, target);
  if (!open) return null;
  const [credit, person] = await Promise.all([personCredit(db, open.personId), personName(db, open.personId)]);
  const refusal = open.refusal ?? (open.openAmount <= 0 ? `${open.label} ist bereits bezahlt.` : credit <= 0 ? NO_CREDIT : null);
  return {
    confirm: {
      title: `Guthaben mit ${open.label} verrechnen`,
      message: `Das Guthaben von ${person?.fullName ?? "der Person"} zahlt den offenen Betrag, soweit es reicht.`,
      details: [
        `Guthaben: ${formatMoney(credit)}`,
        `Offen: ${formatMoney(open.openAmount)}`,
        `Verrechnet werden ${formatMoney(Math.min(credit, open.openAmount))}.`,
      ],
      intent: `payment:${view}`,
      id: target.id,
      confirmLabel: "Verrechnen",
      ...(refusal ? { refusal } : {}),
    },
  };
}

const creditOutcome = async (target: Target, book: () => ReturnType<typeof useCredit>): Promise<DialogOutcome> => {
  const outcome = await book();
  if (outcome.status === "used")
    return { status: "done", message: `${formatMoney(outcome.amount)} Guthaben verrechnet (${target.type === "INVOICE" ? "Rechnung" : "Posten"})` };
  if (outcome.status === "stale") return { status: "refused", message: "Der offene Betrag hat sich inzwischen geändert. Bitte noch einmal versuchen." };
  return outcome;
};

export const dialog = defineDialog({
  area: "payments",
  views: {
    reverse: async ({ db, id }): Promise<ConfirmData | null> => {
      const payment = id ? await getPayment(db, id) : undefined;
      if (!payment) return null;
      const refusal = reversalRefusal(payment);
      return {
        confirm: {
          title: `Zahlung Nr. ${payment.id} zurückbuchen`,
          message: "Die Zahlung bleibt im Journal stehen; eine Gegenbuchung hebt sie auf. Was sie bezahlt hat, ist danach wieder offen. Bist du sicher?",
          details: [
            `${formatDate(payment.date)}, ${PAYMENT_METHOD_LABELS[payment.method]}, ${formatMoney(payment.amount)}`,
            ...(payment.allocated !== 0 ? [`Wieder offen: ${formatMoney(payment.allocated)}`] : []),
          ],
          intent: "payment:reverse",
          id: payment.id,
          confirmLabel: "Zurückbuchen",
          ...(refusal ? { refusal } : {}),
        },
      };
    },
    refund: async ({ db, id }): Promise<RefundDialogData | null> => {
      const payment = id ? await getPayment(db, id) : undefined;
      if (!payment) return null;
      const [credit, person] = await Promise.all([personCredit(db, payment.personId), personName(db, payment.personId)]);
      return {
        payment: { id: payment.id, rowVersion: 1, personName: person?.fullName ?? "", credit: formatMoney(credit) },
        values: { id: payment.id, amount: formatMoneyInput(Math.max(credit, 0)), paidBy: "TRANSFER", paidOn: "" },
        paymentKey: crypto.randomUUID(),
        refusal: credit > 0 ? null : NO_CREDIT,
      };
    },
    creditInvoice: ({ db, id }) => (id ? creditConfirm(db, { type: "INVOICE", id }, "creditInvoice") : Promise.resolve(null)),
    creditFee: ({ db, id }) => (id ? creditConfirm(db, { type: "FEE", id }, "creditFee") : Promise.resolve(null)),
  },
  actions: {
    reverse: async ({ db, user, form }) => {
      const id = postedId(form);
      const outcome = id
        ? await reversePayment(db, id, { date: todayInBerlin(), text: `Zurückgebucht von ${user.name}` }, user)
        : ({ status: "missing" } as const);
      return outcome.status === "reversed" ? { status: "done", message: `Zahlung Nr. ${id} wurde zurückgebucht` } : outcome;
    },
    refund: async ({ db, user, form }): Promise<DialogOutcome> => {
      const submission = parseWithZod(form, { schema: refundSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      const value = submission.value;
      const payment = await getPayment(db, value.id);
      if (!payment) return { status: "missing" };
      const outcome = await refundCredit(
        db,
        {
          personId: payment.personId,
          amount: value.amount,
          payment: { method: value.paidBy, date: value.paidOn ?? todayInBerlin(), key: value.paymentKey ?? null },
        },
        user,
      );
      if (outcome.status === "refused") return refusedOn(submission.reply, outcome.field, outcome.message);
      if (outcome.status === "already") return { status: "refused", message: "Diese Erstattung ist schon gebucht (das Formular wurde zweimal gesendet)." };
      return { status: "done", message: `${formatMoney(outcome.amount)} Guthaben erstattet` };
    },
    creditInvoice: ({ db, user, form }) => {
      const id = postedId(form);
      return id ? creditOutcome({ type: "INVOICE", id }, () => useCredit(db, { type: "INVOICE", id }, user)) : Promise.resolve({ status: "missing" } as const);
    },
    creditFee: ({ db, user, form }) => {
      const id = postedId(form);
      return id ? creditOutcome({ type: "FEE", id }, () => useCredit(db, { type: "FEE", id }, user)) : Promise.resolve({ status: "missing" } as const);
    },
  },
});
