import { z } from "zod";
import { checkbox, moneyInCents, optionalEmail, optionalText, optionalWholeNumber, rowVersion, wholeNumber } from "~/lib/form-fields";

/** The Einstellungen form (spec 000 §2, §5): numbers are numbers, the test account an e-mail,
 *  money typed the German way (1.234,56 €) into exact cents. */
export const configurationSchema = z.object({
  rowVersion: rowVersion().optional(),
  hsvrmVereinName: optionalText(200),
  hsvrmKG: optionalWholeNumber("HSVRM KG"),
  hsvrmVereinNr: optionalWholeNumber("HSVRM Verein Nr"),
  smtpTestAccount: optionalEmail(),
  clubMembershipEnrollmentFee: moneyInCents(),
  clubMembershipPriceFull: moneyInCents(),
  clubMembershipPriceReduced1: moneyInCents(),
  clubMembershipPriceReduced2: moneyInCents(),
  lastInvoiceNumber: wholeNumber("Letzte Rechnungs Nr"),
  mollieIntegration: checkbox(),
});

export type ConfigurationFormValues = z.infer<typeof configurationSchema>;
