import { z } from "zod";
import { checkbox, moneyInCents, optionalEmail, optionalText, rowVersion } from "~/lib/form-fields";
import { MAX_ID } from "~/lib/ids";

const wholeNumber = (label: string) =>
  z
    .number({ error: `${label} muss eine Zahl sein` })
    .int(`${label} muss eine ganze Zahl sein`)
    .min(0, `${label} darf nicht negativ sein`)
    .max(MAX_ID, `${label} ist zu groß`);
const optionalWholeNumber = (label: string) => wholeNumber(label).optional().transform((value) => value ?? null);

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
