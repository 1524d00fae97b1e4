import { z } from "zod";
import { BIC_MESSAGES, bicRequiredFor } from "~/lib/banking";
import { optionalBic, optionalCreditorId, optionalIban } from "~/lib/bank-fields";
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
  // The club on its invoices (§14 UStG), the account they ask to pay to (also the GiroCode's and
  // the direct debits' account) and the club as SEPA creditor.
  clubName: optionalText(200),
  clubStreet: optionalText(200),
  clubZip: optionalText(10),
  clubCity: optionalText(100),
  clubPhone: optionalText(50),
  clubEmail: optionalEmail(),
  taxNumber: optionalText(50),
  taxExemptionNote: optionalText(300),
  bankAccountHolder: optionalText(200),
  iban: optionalIban(),
  bic: optionalBic(),
  bankName: optionalText(200),
  creditorId: optionalCreditorId(),
  mandateText: optionalText(4000),
}).superRefine((value, context) => {
  if (bicRequiredFor(value.iban) && !value.bic) context.addIssue({ code: "custom", path: ["bic"], message: BIC_MESSAGES.required });
});

export type ConfigurationFormValues = z.infer<typeof configurationSchema>;
