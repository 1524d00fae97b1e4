import { z } from "zod";
import { optionalBic, optionalIban, requireBicOutsideGermany } from "~/lib/bank-fields";
import { checkbox, germanDate, id, optionalGermanDate, optionalPhone, optionalText, requiredText, ZIP_MESSAGE } from "~/lib/form-fields";
import { SALUTATIONS } from "~/lib/labels";
import { MAX_APPLICATION_DOGS } from "~/lib/membership-applications";

const applicationDog = z.object({
  commonName: requiredText("Bitte den Namen des Hundes angeben", 100),
  breed: optionalText(100),
  gender: z.number({ error: "Bitte das Geschlecht wählen" }).int().min(0).max(2, "Bitte das Geschlecht wählen"),
  dateOfBirth: optionalGermanDate(),
  chipNr: optionalText(50),
});

/**
 * The public application for membership: the person (address complete, as the club needs it for
 * the membership and a mandate), the dogs, the member type, optionally a SEPA mandate (its box is
 * the grant, never pre-ticked), the statutes and the privacy notice in the versions shown, and
 * 'website', a field people never see (a bot that fills it is answered alike and stored nowhere).
 */
export const applicationSchema = z
  .object({
    salutation: z
      .enum(SALUTATIONS, { error: "Bitte Herr oder Frau wählen" })
      .optional()
      .transform((value) => value ?? null),
    firstName: requiredText("Vorname ist erforderlich", 100),
    lastName: requiredText("Nachname ist erforderlich", 100),
    streetNumber: requiredText("Bitte Straße und Hausnummer angeben", 200),
    zip: z
      .string({ error: ZIP_MESSAGE })
      .trim()
      .regex(/^\d{5}$/, ZIP_MESSAGE),
    city: requiredText("Bitte den Ort angeben", 100),
    email: z.email({ error: "Bitte eine gültige E-Mail-Adresse eingeben" }).max(200, "Die E-Mail-Adresse ist zu lang (höchstens 200 Zeichen)"),
    phone: optionalPhone(),
    dateOfBirth: germanDate("Bitte das Geburtsdatum angeben"),
    guardianName: optionalText(200),
    memberTypeId: id("Bitte eine Mitgliedsart wählen"),
    dogs: z.array(applicationDog).max(MAX_APPLICATION_DOGS, `Höchstens ${MAX_APPLICATION_DOGS} Hunde`).default([]),
    withMandate: checkbox(),
    accountHolder: optionalText(70),
    iban: optionalIban(),
    bic: optionalBic(),
    message: optionalText(1000),
    statutes: z.literal("on", { error: "Bitte bestätige, dass du die Satzung anerkennst" }),
    privacy: z.literal("on", { error: "Bitte bestätige, dass du die Datenschutzhinweise gelesen hast" }),
    statutesVersion: z.number().int().min(1).max(1_000_000),
    privacyVersion: z.number().int().min(1).max(1_000_000),
    website: z.string().optional(),
  })
  .superRefine((value, context) => {
    if (!value.withMandate) {
      if (value.iban) context.addIssue({ code: "custom", path: ["withMandate"], message: "Bitte bestätige das Mandat oder lass die Kontodaten leer" });
      return;
    }
    if (!value.accountHolder) context.addIssue({ code: "custom", path: ["accountHolder"], message: "Kontoinhaber ist erforderlich" });
    if (!value.iban) context.addIssue({ code: "custom", path: ["iban"], message: "Bitte die IBAN angeben" });
    requireBicOutsideGermany(value, context);
  });
