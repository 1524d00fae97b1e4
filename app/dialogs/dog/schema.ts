import { z } from "zod";
import { checkbox, id, optionalGermanDate, optionalId, optionalText, requiredText, rowVersion } from "~/lib/form-fields";

/** The dog form (add and edit). Gender codes: 1 männlich, 2 weiblich, 0 (unbekannt). */
export const dogSchema = z.object({
  id: optionalId(),
  rowVersion: rowVersion().optional(),
  ownerId: id("Besitzer ist erforderlich"),
  commonName: requiredText("Name ist erforderlich", 100),
  breed: optionalText(100),
  gender: z.number({ error: "Geschlecht ist erforderlich" }).int().min(0, "Geschlecht ist erforderlich").max(2, "Geschlecht ist erforderlich"),
  dateOfBirth: optionalGermanDate(),
  rabiesValidUntil: optionalGermanDate(),
  insuranceCompany: optionalText(100),
  insurancePolicyNr: optionalText(50),
  insuranceValidUntil: optionalGermanDate(),
  chipNr: optionalText(50),
  zuchtBuchNr: optionalText(50),
  comments: optionalText(2000),
  archived: checkbox(),
});

export type DogFormValues = z.infer<typeof dogSchema>;
