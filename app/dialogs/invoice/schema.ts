import { z } from "zod";
import { checkbox, germanDate, optionalGermanDate, optionalMoneyInCents, optionalText, paymentFields, rowVersion, id } from "~/lib/form-fields";

/**
 * The invoice form (spec 001 §5): date required; the person is fixed (invoices come from fees, a
 * posted person is ignored) and the amount is the sum of the rows, never taken from the form.
 * Ist Offen unticked settles the invoice (open amount 0); ticked, the open amount typed (empty:
 * the whole amount). What the open amount goes down by is booked as a payment (Zahlungsart,
 * Gezahlt am) in the payment journal.
 */
export const invoiceSchema = z.object({
  id: id("Rechnung fehlt"),
  rowVersion: rowVersion(),
  date: germanDate("Datum ist erforderlich"),
  dueDate: optionalGermanDate(),
  sentDate: optionalGermanDate(),
  isOpen: checkbox(),
  openAmount: optionalMoneyInCents(),
  comments: optionalText(500),
  paymentComments: optionalText(500),
  ...paymentFields(),
});

export type InvoiceFormValues = z.infer<typeof invoiceSchema>;
