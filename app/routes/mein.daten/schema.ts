import { z } from "zod";
import { CONSENT_KINDS } from "~/lib/consents";
import { nameAndAddressFields } from "~/dialogs/person/schema";
import { optionalPhone, rowVersion } from "~/lib/form-fields";

/** Mein Wuff's own data: the fields and rules of the staff's person form, for what a person keeps current. */
export const ownDataSchema = z.object({
  rowVersion: rowVersion(),
  ...nameAndAddressFields(),
  homePhone: optionalPhone(),
  mobilePhone: optionalPhone(),
});

export const newEmailSchema = z.object({
  email: z.email({ error: "Bitte eine gültige E-Mail-Adresse eingeben" }).max(200, "Die E-Mail-Adresse ist zu lang (höchstens 200 Zeichen)"),
});

export const consentSchema = z.object({
  kind: z.enum(CONSENT_KINDS, { error: "Unbekannte Einwilligung" }),
  give: z.enum(["ja", "nein"], { error: "Unbekannte Auswahl" }),
  version: z.coerce.number().int().min(1).max(1_000_000).optional(),
});
