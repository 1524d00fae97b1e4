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
  // The club on its invoices (§14 UStG) and the account they ask to pay to. Light checks only:
  // the IBAN's checksum comes later.
  clubName: optionalText(200),
  clubStreet: optionalText(200),
  clubZip: optionalText(10),
  clubCity: optionalText(100),
  clubPhone: optionalText(50),
  clubEmail: optionalEmail(),
  taxNumber: optionalText(50),
  taxExemptionNote: optionalText(300),
  bankAccountHolder: optionalText(200),
  iban: optionalText(42)
    .transform((value) => (value ? value.replace(/\s+/g, "").toUpperCase() : null))
    .refine((value) => value === null || /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(value), "Bitte eine IBAN eingeben (z. B. DE89 3704 0044 0532 0130 00)"),
  bic: optionalText(11)
    .transform((value) => (value ? value.toUpperCase() : null))
    .refine((value) => value === null || /^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(value), "Bitte eine BIC mit 8 oder 11 Zeichen eingeben"),
  bankName: optionalText(200),
});

export type ConfigurationFormValues = z.infer<typeof configurationSchema>;
