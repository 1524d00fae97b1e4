import { z } from "zod";
import { germanDate, id, optionalText, requiredText } from "~/lib/form-fields";

/** A rabies paper: the dog and the last day the vaccination is valid. */
export const rabiesPaperSchema = z.object({
  dogId: id("Bitte einen Hund wählen"),
  rabiesValidUntil: germanDate("Bitte angeben, bis wann die Impfung gilt"),
});

/** An insurance paper: the dog, the insurer, the policy number and the last day it is valid. */
export const insurancePaperSchema = z.object({
  dogId: id("Bitte einen Hund wählen"),
  insuranceCompany: requiredText("Bitte die Versicherung angeben", 100),
  insurancePolicyNr: optionalText(50),
  insuranceValidUntil: germanDate("Bitte angeben, bis wann die Versicherung gilt"),
});
