import { z } from "zod";
import { parseMoney } from "~/lib/format";
import { bookingOverrideFields, optionalId, optionalText, rowVersion, taxCase } from "~/lib/form-fields";

/** An amount that may be negative (a discount), typed the German way; empty is 0,00 €. */
const signedMoneyInCents = () =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value?.trim()) return 0;
      const parsed = parseMoney(value, { allowNegative: true });
      if (parsed.success) return parsed.value;
      context.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    });

/**
 * The invoice row form (spec 001 §2/§5: Buchungstext and Betrag, no required rules shown; issue 30:
 * the row's tax case): a new row names its invoice and gets the next line number; an edited row
 * keeps its line number.
 */
export const invoiceRowSchema = z.object({
  id: optionalId(),
  rowVersion: rowVersion().optional(),
  invoiceId: optionalId(),
  text: optionalText(200).transform((value) => value ?? ""),
  amount: signedMoneyInCents(),
  /** Left out (a request without the field): a new row takes the default, a changed one keeps its case. */
  taxCase: taxCase().optional(),
  /** The row's account and sphere in the books (issue 35); empty: its fee's, course type's, product's or kind's. */
  ...bookingOverrideFields(),
});

export type InvoiceRowFormValues = z.infer<typeof invoiceRowSchema>;
