/**
 * Spenden's dialogs (ADMIN, FINANCE; issue 35 item 5): 'Spende erfassen' records a donation with
 * its donor (and books it, app/models/donations.server.ts), 'Stornieren' cancels one recorded by
 * mistake while no receipt names it, 'Bestätigung ausstellen' issues the single
 * Zuwendungsbestätigung of one donation.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { DONATION_METHOD_LABELS, DONATION_METHODS } from "~/lib/donations";
import { formatDate, formatMoney, todayInBerlin } from "~/lib/format";
import {
  cancelDonation,
  donationCancelRefusal,
  getDonation,
  issuedMessage,
  issueReceipts,
  receiptRefusal,
  recordDonation,
  singleReceiptRefusal,
} from "~/models/donations.server";
import { personName } from "~/models/people.server";
import { storeReceiptPdfs } from "~/services/donation-receipts.server";
import { defineDialog, postedId, refusedOn, type ConfirmData, type DialogOutcome, type DialogViewContext } from "../define.server";
import { personLookup, type LookupOption } from "../lookup.server";
import { donationSchema } from "./schema";

export type DonationDialogData = {
  people: LookupOption[];
  personSearch: string;
  /** Added under a person: the donor is fixed. */
  personLocked: boolean;
  methods: { value: string; label: string }[];
  values: { personId: number | null; date: string; amount: string; method: string; text: string };
  /** This form's id: the key of the journal entry (sent twice, it books once). */
  formKey: string;
};

async function addData({ db, parent, search }: DialogViewContext): Promise<DonationDialogData> {
  const personId = parent?.type === "PERSON" ? parent.id : null;
  const person = personId ? await personName(db, personId) : undefined;
  const lookup = await personLookup(db, search, person);
  return {
    people: lookup.options,
    personSearch: lookup.term,
    personLocked: personId !== null,
    methods: DONATION_METHODS.map((method) => ({ value: method, label: DONATION_METHOD_LABELS[method] })),
    values: { personId, date: formatDate(todayInBerlin()), amount: "", method: "TRANSFER", text: "" },
    formKey: crypto.randomUUID(),
  };
}

export const dialog = defineDialog({
  area: "donations",
  views: {
    add: addData,
    cancel: async ({ db, id }): Promise<ConfirmData | null> => {
      const donation = id ? await getDonation(db, id) : undefined;
      if (!donation) return null;
      const refusal = donationCancelRefusal(donation);
      return {
        confirm: {
          title: "Spende stornieren",
          message:
            "Die Spende bleibt mit dem Vermerk „storniert“ stehen, ihr Posten wird ausgeglichen. Der Betrag steht danach als Guthaben der Person: unter „Zahlungen“ erstatten oder verrechnen. Bist du sicher?",
          details: [`${donation.personName ?? ""}, ${formatDate(donation.date)}, ${formatMoney(donation.amount)}`, donation.text],
          intent: "donation:cancel",
          id: donation.id,
          confirmLabel: "Stornieren",
          ...(refusal ? { refusal } : {}),
        },
      };
    },
    receipt: async ({ db, id }): Promise<ConfirmData | null> => {
      const donation = id ? await getDonation(db, id) : undefined;
      if (!donation) return null;
      const refusal = singleReceiptRefusal(donation) ?? (await receiptRefusal(db, todayInBerlin()));
      return {
        confirm: {
          title: "Zuwendungsbestätigung ausstellen",
          message:
            "Für diese Spende wird eine eigene Zuwendungsbestätigung mit der nächsten Nummer ausgestellt und als PDF aufbewahrt. Die Spende steht danach in keiner Sammelbestätigung mehr. Bist du sicher?",
          details: [`${donation.personName ?? ""}, ${formatDate(donation.date)}, ${formatMoney(donation.amount)}`],
          intent: "donation:receipt",
          id: donation.id,
          confirmLabel: "Ausstellen",
          ...(refusal ? { refusal } : {}),
        },
      };
    },
  },
  actions: {
    save: async ({ db, user, form }): Promise<DialogOutcome> => {
      const submission = parseWithZod(form, { schema: donationSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      const value = submission.value;
      if (value.date > todayInBerlin()) return refusedOn(submission.reply, "date", "Der Tag der Zuwendung kann nicht in der Zukunft liegen.");
      const outcome = await recordDonation(db, { ...value, text: value.text ?? "", key: value.formKey }, user);
      if (outcome.status === "refused") return refusedOn(submission.reply, outcome.field, outcome.message);
      if (outcome.status === "already") return { status: "refused", message: "Diese Spende ist schon erfasst (das Formular wurde zweimal gesendet)." };
      return { status: "saved", id: outcome.id, message: `Spende über ${formatMoney(value.amount)} erfasst` };
    },
    cancel: async ({ db, user, form }): Promise<DialogOutcome> => {
      const id = postedId(form);
      if (!id) return { status: "missing" };
      const outcome = await cancelDonation(db, id, todayInBerlin(), user);
      if (outcome.status === "cancelled") return { status: "saved", id, message: "Spende storniert: Der Betrag ist Guthaben der Person." };
      return outcome;
    },
    receipt: async ({ db, user, form, env }): Promise<DialogOutcome> => {
      const id = postedId(form);
      if (!id) return { status: "missing" };
      const outcome = await issueReceipts(db, { donationId: id }, todayInBerlin(), user);
      if (outcome.status === "refused") return outcome;
      const stored = await storeReceiptPdfs(env, db, outcome.receipts);
      return { status: "saved", id, message: `${issuedMessage(outcome, "SINGLE")}${stored}` };
    },
  },
});
