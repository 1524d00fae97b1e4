import { z } from "zod";
import { mandateAccountFields, requireBicOutsideGermany } from "~/lib/bank-fields";
import { checkbox, germanDate, id, optionalGermanDate, optionalId, optionalText, rowVersion } from "~/lib/form-fields";

/** The SEPA mandate form: the account (IBAN checked by its checksum, a BIC needed outside
 *  Germany), the holder (SEPA: at most 70 characters), the mandate's date, its revocation and whether it is active. */
export const mandateSchema = z
  .object({
    id: optionalId(),
    rowVersion: rowVersion().optional(),
    personId: id("Person ist erforderlich"),
    ...mandateAccountFields(),
    mandateDate: germanDate("Datum des Mandats ist erforderlich"),
    previousUseOn: optionalGermanDate(),
    revokedOn: optionalGermanDate(),
    isActive: checkbox(),
    comments: optionalText(500),
  })
  .superRefine((value, context) => {
    requireBicOutsideGermany(value, context);
    if (value.previousUseOn && value.previousUseOn < value.mandateDate)
      context.addIssue({ code: "custom", path: ["previousUseOn"], message: "Die letzte Einziehung kann nicht vor dem Datum des Mandats liegen" });
    if (value.revokedOn && value.revokedOn < value.mandateDate)
      context.addIssue({ code: "custom", path: ["revokedOn"], message: "Der Widerruf kann nicht vor dem Datum des Mandats liegen" });
  });

export type MandateFormValues = z.infer<typeof mandateSchema>;
