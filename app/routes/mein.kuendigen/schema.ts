import { z } from "zod";
import { optionalGermanDate, optionalText } from "~/lib/form-fields";
import { declarationSchema } from "../mein.widerruf/schema";

export const CONTRACT_MISSING = "Bitte gib an, welchen Vertrag du kündigst, zum Beispiel das Abo und seit wann es läuft.";

/**
 * The notice (§ 312k Abs. 2 Satz 2 BGB): who, the address for the confirmation, which contract (an
 * Abo chosen or in words), ordinary or for cause with the reason, and when it shall end (the
 * earliest possible, or a day).
 */
export const noticeSchema = declarationSchema
  .omit({ contract: true })
  .extend({
    subscription: z
      .string()
      .regex(/^(other|[1-9]\d{0,8})$/, "Bitte wähle ein Abo aus der Liste.")
      .optional(),
    contract: optionalText(500),
    kind: z.enum(["ORDINARY", "EXTRAORDINARY"], { error: "Bitte wähle, wie du kündigst." }),
    reason: optionalText(500),
    end: z.enum(["earliest", "date"], { error: "Bitte wähle, wann der Vertrag enden soll." }),
    wantedEnd: optionalGermanDate(),
  })
  .superRefine((value, context) => {
    if ((value.subscription ?? "other") === "other" && !value.contract) context.addIssue({ code: "custom", path: ["contract"], message: CONTRACT_MISSING });
    if (value.kind === "EXTRAORDINARY" && !value.reason)
      context.addIssue({ code: "custom", path: ["reason"], message: "Bitte nenne den wichtigen Grund für die außerordentliche Kündigung." });
    if (value.end === "date" && !value.wantedEnd)
      context.addIssue({ code: "custom", path: ["wantedEnd"], message: "Bitte gib den Tag an, zu dem der Vertrag enden soll (TT.MM.JJJJ)." });
  });
