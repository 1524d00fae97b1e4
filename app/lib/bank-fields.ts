/**
 * zod fields for bank data (the Einstellungen form, the SEPA mandate form). Apart from
 * form-fields.ts, which every dialog loads: only these two forms carry ibantools to the browser.
 */
import { z } from "zod";
import { BIC_MESSAGES, bicError, bicRequiredFor, creditorIdError, ibanError, normalizeBic, normalizeCreditorId, normalizeIban } from "./banking";
import { requiredText, TOO_LONG } from "./form-fields";

/** An IBAN as typed (lower case and spaces accepted), stored normalised; checked with its
 *  ISO 13616 checksum and the country's length (app/lib/banking.ts). */
const ibanField = (schema: z.ZodType<string | null | undefined>) =>
  schema
    .transform((value) => (value ? normalizeIban(value) : null))
    .superRefine((value, context) => {
      const error = value === null ? null : ibanError(value);
      if (error) context.addIssue({ code: "custom", message: error });
    });
export const optionalIban = () => ibanField(z.string().trim().max(50, TOO_LONG(50)).optional());
const requiredIban = () =>
  ibanField(z.string({ error: "IBAN ist erforderlich" }).trim().min(1, "IBAN ist erforderlich").max(50, TOO_LONG(50))).refine(
    (value) => value !== null,
    "IBAN ist erforderlich",
  );

/** A BIC (8 or 11 characters), upper case; empty becomes null. */
export const optionalBic = () =>
  z
    .string()
    .trim()
    .max(20, TOO_LONG(20))
    .optional()
    .transform((value) => (value ? normalizeBic(value) : null))
    .refine((value) => value === null || bicError(value) === null, BIC_MESSAGES.format);

/** The SEPA creditor identifier (Gläubiger-ID) with its ISO 7064 checksum; empty becomes null. */
export const optionalCreditorId = () =>
  z
    .string()
    .trim()
    .max(40, TOO_LONG(40))
    .optional()
    .transform((value) => (value ? normalizeCreditorId(value) : null))
    .superRefine((value, context) => {
      const error = value === null ? null : creditorIdError(value);
      if (error) context.addIssue({ code: "custom", message: error });
    });

/** The account a mandate names: its holder (SEPA: at most 70 characters), IBAN and BIC. */
export const mandateAccountFields = () => ({
  accountHolder: requiredText("Kontoinhaber ist erforderlich", 70),
  iban: requiredIban(),
  bic: optionalBic(),
});

/** superRefine of a form with IBAN and BIC: outside Germany the BIC is needed (SEPA XML). */
export function requireBicOutsideGermany(value: { iban: string | null; bic: string | null }, context: z.RefinementCtx) {
  if (bicRequiredFor(value.iban) && !value.bic) context.addIssue({ code: "custom", path: ["bic"], message: BIC_MESSAGES.required });
}
