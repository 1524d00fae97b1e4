import { z } from "zod";
import { mandateAccountFields, requireBicOutsideGermany } from "~/lib/bank-fields";

/** A mandate given in Mein Wuff: the account and the explicit 'I grant it' (no pre-ticked box). */
export const portalMandateSchema = z
  .object({
    ...mandateAccountFields(),
    agree: z.literal("on", { error: "Bitte bestätige, dass du das Mandat erteilst" }),
  })
  .superRefine(requireBicOutsideGermany);
