import { z } from "zod";

/** 'Sammelbestätigungen ausstellen': the year whose unconfirmed donations are confirmed. */
export const collectiveReceiptsSchema = z.object({
  year: z
    .number({ error: "Bitte das Jahr wählen" })
    .int("Bitte das Jahr wählen")
    .min(2000, "Bitte ein Jahr ab 2000 wählen")
    .max(2100, "Bitte ein Jahr bis 2100 wählen"),
});

export type CollectiveReceiptsFormValues = z.infer<typeof collectiveReceiptsSchema>;
