import { z } from "zod";
import {
  bookingOverrideFields,
  checkbox,
  germanDate,
  id,
  moneyInCents,
  optionalGermanDate,
  optionalId,
  optionalMoneyInCents,
  optionalText,
  paymentFields,
  requiredText,
  rowVersion,
} from "~/lib/form-fields";

/** The fee form (spec 001 §5): person, date and text required (text up to 100, 'Text is required'); amounts the German way. */
export const feeSchema = z
  .object({
    id: optionalId(),
    rowVersion: rowVersion().optional(),
    personId: id("Person ist erforderlich"),
    date: germanDate("Datum ist erforderlich"),
    text: requiredText("Text is required", 100),
    amount: moneyInCents("Betrag ist erforderlich"),
    isOpen: checkbox(),
    openAmount: optionalMoneyInCents(),
    dueDate: optionalGermanDate(),
    comments: optionalText(500),
    paymentComments: optionalText(500),
    sendInvoice: checkbox(),
    ...paymentFields(),
    /** Its account and sphere in the books (issue 35); empty: its course type's, product's or kind's. */
    ...bookingOverrideFields(),
  })
  .refine((fee) => !fee.isOpen || fee.openAmount === null || fee.openAmount <= fee.amount, {
    path: ["openAmount"],
    message: "Der offene Betrag darf nicht größer als der Betrag sein",
  });
export type FeeFormValues = z.infer<typeof feeSchema>;
