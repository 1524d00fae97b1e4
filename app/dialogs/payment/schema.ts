import { z } from "zod";
import { id, moneyInCents, paymentFields } from "~/lib/form-fields";

/** 'Guthaben erstatten': how much of the person's credit is paid out, how and when. */
export const refundSchema = z.object({
  id: id("Zahlung fehlt"),
  amount: moneyInCents("Betrag ist erforderlich"),
  ...paymentFields(),
});
export type RefundFormValues = z.infer<typeof refundSchema>;
