import { z } from "zod";
import {
  bookingOverrideFields,
  checkbox,
  optionalId,
  optionalMoneyInCents,
  optionalText,
  optionalWholeNumber,
  requiredText,
  rowVersion,
  taxCase,
} from "~/lib/form-fields";

const ids = () =>
  z
    .array(z.number().int().positive())
    .max(200)
    .optional()
    .transform((value) => value ?? []);

/**
 * A card or subscription product (issue 34 item 1). A Karte: its units (1 to 100) and months of
 * validity (1 to 60). An Abo: its period, a minimum term of at most 24 months and a notice of at
 * most one month (§ 309 Nr. 9 BGB for contracts with consumers). Valid for at least one course
 * type or open group.
 */
export const cardProductSchema = z
  .object({
    id: optionalId(),
    rowVersion: rowVersion().optional(),
    name: requiredText("Name ist erforderlich", 100),
    kind: z.enum(["CARD", "SUBSCRIPTION"], { error: "Bitte Karte oder Abo wählen" }),
    units: optionalWholeNumber("Die Zahl der Einheiten", 100),
    validMonths: optionalWholeNumber("Die Gültigkeit", 60),
    period: z.enum(["MONTHLY", "QUARTERLY"]).optional(),
    minTermMonths: optionalWholeNumber("Die Mindestlaufzeit", 24),
    noticeMonths: optionalWholeNumber("Die Kündigungsfrist", 1),
    priceFull: optionalMoneyInCents(0),
    priceReduced1: optionalMoneyInCents(0),
    priceReduced2: optionalMoneyInCents(0),
    taxCase: taxCase(),
    unitsPerAttendance: optionalWholeNumber("Einheiten je Termin", 10).transform((value) => value ?? 1),
    isOffered: checkbox(),
    comments: optionalText(500),
    courseMasterIds: ids(),
    courseIds: ids(),
    /** The account and sphere of its sales in the books (issue 35); empty: Buchhaltung's for cards. */
    ...bookingOverrideFields(),
  })
  .superRefine((value, context) => {
    const missing = (path: string, message: string) => context.addIssue({ code: "custom", path: [path], message });
    if (value.kind === "CARD") {
      if (!value.units) missing("units", "Bitte die Zahl der Einheiten angeben (1 bis 100)");
      if (!value.validMonths) missing("validMonths", "Bitte angeben, wie viele Monate die Karte gilt (1 bis 60)");
    } else if (!value.period) missing("period", "Bitte den Abrechnungszeitraum wählen");
    if (value.unitsPerAttendance < 1) missing("unitsPerAttendance", "Mindestens 1 Einheit je Termin");
    if (value.courseMasterIds.length + value.courseIds.length === 0) {
      missing("courseMasterIds", "Bitte mindestens einen Kurs-Typ oder eine Gruppe wählen, für die das Produkt gilt");
    }
  });

export type CardProductFormValues = z.infer<typeof cardProductSchema>;
