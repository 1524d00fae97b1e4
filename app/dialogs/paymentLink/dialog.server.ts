/**
 * 'Zahlungslink erzeugen' (the Kontenblatt's row action): the fee's Mollie payment link for its
 * open amount. The dialog shows the link when the fee has one that fits, else what the link will
 * be for; creating it opens the dialog again with the link to copy or pass on.
 */
import { formatMoney } from "~/lib/format";
import { getFee, currentPaymentLink } from "~/models/fees.server";
import { getConfiguration } from "~/models/configuration.server";
import { FEE_ALREADY_PAID, feeLinkDescription, MOLLIE_NOT_CONFIGURED, paymentLinkForFee } from "~/services/payments.server";
import { defineDialog, postedId } from "../define.server";

export type PaymentLinkDialogData = {
  feeId: number;
  text: string;
  personName: string;
  openAmount: string;
  description: string;
  /** The link that fits the open amount, if the fee has one. */
  url: string | null;
  /** Why no link can be made (Mollie off, fee paid), or null. */
  refusal: string | null;
  /** The dialog opens again right after the link was made. */
  created: boolean;
};

export const dialog = defineDialog({
  area: "fees",
  views: {
    create: async ({ db, id, draft }): Promise<PaymentLinkDialogData | null> => {
      const [fee, configuration] = id ? await Promise.all([getFee(db, id), getConfiguration(db)]) : [];
      if (!fee) return null;
      const url = currentPaymentLink(fee);
      const refusal = fee.openAmount <= 0 ? FEE_ALREADY_PAID : configuration?.mollieIntegration ? null : MOLLIE_NOT_CONFIGURED;
      return {
        feeId: fee.id,
        text: fee.text,
        personName: fee.personName ?? "",
        openAmount: formatMoney(fee.openAmount),
        description: feeLinkDescription(fee),
        url: refusal ? null : url,
        refusal,
        created: draft.created === "1" && url !== null,
      };
    },
  },
  actions: {
    create: async ({ db, form, env }) => {
      const id = postedId(form);
      if (!id) return { status: "missing" };
      const outcome = await paymentLinkForFee({ db, env }, id);
      if (outcome.status === "ok") return { status: "draft", draft: { created: "1" } };
      if (outcome.status === "missing") return outcome;
      return { status: "refused", message: outcome.message };
    },
  },
});
