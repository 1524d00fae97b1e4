import { z } from "zod";
import { checkbox, optionalId, requiredText, rowVersion } from "~/lib/form-fields";

/** An Erfolgsart: its name, and whether people, dogs or both are certified. */
export const certificationMasterSchema = z
  .object({
    id: optionalId(),
    rowVersion: rowVersion().optional(),
    name: requiredText("Name ist erforderlich", 100),
    isPersonCertification: checkbox(),
    isDogCertification: checkbox(),
  })
  .refine((master) => master.isPersonCertification || master.isDogCertification, {
    path: ["isDogCertification"],
    message: "Bitte „für Personen“, „für Hunde“ oder beides wählen",
  });

export type CertificationMasterFormValues = z.infer<typeof certificationMasterSchema>;
