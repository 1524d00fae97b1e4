import { z } from "zod";
import { SALUTATIONS } from "~/lib/labels";
import {
  checkbox,
  id,
  optionalEmail,
  optionalGermanDate,
  optionalId,
  optionalPhone,
  optionalText,
  optionalZip,
  requiredText,
  rowVersion,
} from "~/lib/form-fields";

/** Name and address of a person: the same rules in the staff's form and in Mein Wuff. */
export const nameAndAddressFields = () => ({
  salutation: z
    .enum(SALUTATIONS, { error: "Bitte Herr oder Frau wählen" })
    .optional()
    .transform((value) => value ?? null),
  title: optionalText(50),
  firstName: requiredText("Vorname ist erforderlich", 100),
  lastName: requiredText("Nachname ist erforderlich", 100),
  streetNumber: optionalText(200),
  zip: optionalZip(),
  city: optionalText(100),
});

/** The person form (add and edit); membership dates and GDPR only for ADMIN and GDPR. */
export const personSchema = z
  .object({
    id: optionalId(),
    rowVersion: rowVersion().optional(),
    ...nameAndAddressFields(),
    email: optionalEmail(),
    homePhone: optionalPhone(),
    mobilePhone: optionalPhone(),
    dateOfBirth: optionalGermanDate(),
    isMember: checkbox(),
    memberTypeId: id("Mitgliedsart ist erforderlich"),
    membershipStatusId: optionalId(),
    hsvrmNr: optionalText(50),
    isVorstand: checkbox(),
    isTrainer: checkbox(),
    hasInsurance: checkbox(),
    isBusiness: checkbox(),
    comments: optionalText(2000),
    memberSince: optionalGermanDate(),
    memberUntil: optionalGermanDate(),
    hasGdpr: checkbox(),
  })
  .refine((person) => !person.memberSince || !person.memberUntil || person.memberUntil >= person.memberSince, {
    path: ["memberUntil"],
    message: "„Mitglied bis“ darf nicht vor „Mitglied seit“ liegen",
  });

export type PersonFormValues = z.infer<typeof personSchema>;
