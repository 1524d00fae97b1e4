import { z } from "zod";
import { requiredText } from "~/lib/form-fields";

/** The quick add form (spec 000 §2 and §5): all fields required, with the spec's messages. */
export const quickAddSchema = z.object({
  personGender: z.enum(["1", "2"], { error: "Männlich/weiblich ist erforderlich" }),
  ownerFirstName: requiredText("Vorname ist erforderlich", 100),
  ownerLastName: requiredText("Nachname ist erforderlich", 100),
  dogCommonName: requiredText("Name ist erforderlich", 100),
  dogGender: z.enum(["0", "1", "2"], { error: "Geschlecht ist erforderlich" }),
  memberTypeId: z.string().optional(),
  returnTo: z.string().optional(),
});
