import { z } from "zod";
import { DONATION_METHODS } from "~/lib/donations";
import { formKey, germanDate, id, moneyInCents, optionalText } from "~/lib/form-fields";

/** 'Spende erfassen': who gave how much when, and how it came in (issue 35 item 5). */
export const donationSchema = z.object({
  personId: id("Bitte den Spender oder die Spenderin wählen"),
  date: germanDate("Bitte den Tag der Zuwendung angeben"),
  amount: moneyInCents("Bitte den Betrag der Spende eingeben").refine((cents) => cents > 0, "Eine Spende ist mehr als 0,00 €"),
  method: z.enum(DONATION_METHODS, { error: "Bitte wählen, wie die Spende kam (Überweisung oder bar)" }),
  text: optionalText(200),
  formKey: formKey(),
});

export type DonationFormValues = z.infer<typeof donationSchema>;
