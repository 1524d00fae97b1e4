import { z } from "zod";
import { DURATION_NOT_OFFERED, isDurationChoice, isTimeChoice, MAX_SERIES, TIME_OUT_OF_RANGE } from "~/lib/course-dates";
import { parseGermanDate } from "~/lib/format";
import { checkbox, germanDate, id, optionalId, optionalText, rowVersion } from "~/lib/form-fields";

/** 'TT.MM.JJJJ, TT.MM.JJJJ' -> ['YYYY-MM-DD', ...]: the days a series leaves out. */
const skipDays = () =>
  z
    .string()
    .max(500, "Höchstens 500 Zeichen")
    .optional()
    .transform((value, context) => {
      const days: string[] = [];
      for (const part of (value ?? "").split(/[,;\s]+/).filter(Boolean)) {
        const parsed = parseGermanDate(part);
        if (!parsed.success) {
          context.addIssue({ code: "custom", message: parsed.error });
          return z.NEVER;
        }
        days.push(parsed.value);
      }
      return days;
    });

/** The course date form (spec 001 §5): course and start required, times 07:00-22:00, the offered durations, comments up to 100 characters; a new date may be a weekly series. */
export const courseDateSchema = z.object({
  id: optionalId(),
  rowVersion: rowVersion().optional(),
  courseId: id("Kurs ist erforderlich"),
  startDate: germanDate("Datum ist erforderlich"),
  startTime: z.string({ error: "Uhrzeit ist erforderlich" }).refine(isTimeChoice, TIME_OUT_OF_RANGE),
  duration: z.string({ error: "Dauer ist erforderlich" }).refine(isDurationChoice, DURATION_NOT_OFFERED),
  isAllDay: checkbox(),
  locationId: optionalId(),
  comments: optionalText(100),
  count: z
    .number({ error: "Anzahl Termine muss eine Zahl sein" })
    .int("Anzahl Termine muss eine ganze Zahl sein")
    .min(1, "Mindestens 1 Termin")
    .max(MAX_SERIES, `Höchstens ${MAX_SERIES} Termine auf einmal`)
    .optional()
    .transform((value) => value ?? 1),
  skip: skipDays(),
});
export type CourseDateFormValues = z.infer<typeof courseDateSchema>;
