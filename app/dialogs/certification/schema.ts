import { z } from "zod";
import { id, optionalGermanDate, optionalId, optionalText, rowVersion } from "~/lib/form-fields";

/** The certification form (spec 001 §5: the master is required; person and dog as it says). */
export const certificationSchema = z.object({
  id: optionalId(),
  rowVersion: rowVersion().optional(),
  certificationMasterId: id("Erfolgsart ist erforderlich"),
  personId: optionalId(),
  dogId: optionalId(),
  date: optionalGermanDate(),
  comments: optionalText(500),
});

export type CertificationFormValues = z.infer<typeof certificationSchema>;
