import { z } from "zod";
import { formKey, id, moneyInCents, requiredText, taxCase } from "~/lib/form-fields";

/**
 * 'Gutschrift' (issue 30): what of an issued invoice is credited, at which of its tax cases, and
 * the form's own id (the credit note's journal entry key: sent twice, it is issued once).
 */
export const creditNoteSchema = z.object({
  id: id("Rechnung fehlt"),
  text: requiredText("Buchungstext ist erforderlich", 200),
  amount: moneyInCents("Betrag ist erforderlich"),
  taxCase: taxCase(),
  formKey: formKey(),
});
export type CreditNoteFormValues = z.infer<typeof creditNoteSchema>;
