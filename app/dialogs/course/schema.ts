import { z } from "zod";
import { codesOf, COURSE_STATUS_LABELS, DURATION_MODEL_LABELS, PRICING_MODEL_LABELS } from "~/lib/labels";
import { optionalGermanDateTime, optionalId, optionalMoneyInCents, optionalText, optionalWholeNumber, requiredText, rowVersion } from "~/lib/form-fields";

/** The course form: every Course field of spec 001 §3 that staff edit. */
export const courseSchema = z
  .object({
    id: optionalId(),
    rowVersion: rowVersion().optional(),
    name: requiredText("Name ist erforderlich", 100),
    startYear: z
      .number({ error: "Jahr ist erforderlich" })
      .int("Das Jahr muss eine ganze Zahl sein")
      .min(2000, "Das Jahr muss zwischen 2000 und 2100 liegen")
      .max(2100, "Das Jahr muss zwischen 2000 und 2100 liegen"),
    webTimeInformation: optionalText(100),
    trainerId: optionalId(),
    cotrainerId: optionalId(),
    startDateTime: optionalGermanDateTime(),
    maxDogs: optionalWholeNumber("Max. Hunde", 999),
    nrOfSessions: optionalWholeNumber("Termine (geplant)", 999),
    costFull: optionalMoneyInCents(0),
    costReduced1: optionalMoneyInCents(0),
    costReduced2: optionalMoneyInCents(0),
    statusCode: z.enum(codesOf(COURSE_STATUS_LABELS), { error: "Status ist erforderlich" }),
    durationModel: z.enum(codesOf(DURATION_MODEL_LABELS), { error: "Dauer ist erforderlich" }),
    pricingModel: z.enum(codesOf(PRICING_MODEL_LABELS), { error: "Preismodell ist erforderlich" }),
    locationId: optionalId(),
    courseMasterId: optionalId(),
    comments: optionalText(500),
  })
  .refine((course) => !course.trainerId || course.trainerId !== course.cotrainerId, {
    path: ["cotrainerId"],
    message: "Trainer und Co-Trainer müssen verschiedene Personen sein",
  });

export type CourseFormValues = z.infer<typeof courseSchema>;
