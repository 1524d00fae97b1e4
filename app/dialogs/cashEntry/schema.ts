import { z } from "zod";
import { MANUAL_CASH_KINDS } from "~/lib/cash-book";
import { bookingOverrideFields, formKey, germanDate, moneyInCents, requiredText } from "~/lib/form-fields";

/** 'Buchung erfassen' in the Kasse: an entry without a person (Einlage, Ausgabe, Bankeinzahlung, Entnahme). */
export const cashEntrySchema = z.object({
  kind: z.enum(MANUAL_CASH_KINDS, { error: "Bitte die Art der Buchung wählen" }),
  date: germanDate("Bitte das Datum der Buchung angeben"),
  amount: moneyInCents("Bitte einen Betrag eingeben"),
  text: requiredText("Bitte einen Buchungstext angeben (wofür, an wen)"),
  /** The account and sphere of an Ausgabe (issue 35); empty: Buchhaltung's account for cash expenses. */
  ...bookingOverrideFields(),
  formKey: formKey(),
});

export type CashEntryFormValues = z.infer<typeof cashEntrySchema>;
