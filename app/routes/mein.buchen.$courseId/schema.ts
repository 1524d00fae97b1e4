import { z } from "zod";
import { ACCEPT_TEXTS } from "~/lib/portal";
import { germanDate, id, optionalText } from "~/lib/form-fields";

const CHOOSE_DOG = "Bitte wähle einen Hund";

/**
 * The booking form: one of the person's dogs ('dog' = its id) or a new one ('dog' = 'new' with
 * its name, breed, gender and birth date), the accepted text versions and the button pressed.
 */
export const bookingSchema = z
  .object({
    dog: z.string({ error: CHOOSE_DOG }).regex(/^(new|[1-9]\d{0,8})$/, CHOOSE_DOG),
    dogName: optionalText(50),
    breed: optionalText(50),
    gender: z.enum(["0", "1", "2"]).optional(),
    dateOfBirth: germanDate("Bitte das Geburtsdatum angeben").optional(),
    accept: z.literal("on", { error: ACCEPT_TEXTS }),
    termsId: id("Die AGB fehlen"),
    withdrawalId: id("Die Widerrufsbelehrung fehlt"),
    privacyId: id("Die Datenschutzhinweise fehlen"),
    mode: z.enum(["book", "waitlist"], { error: "Bitte buche über den Knopf unten" }),
  })
  .superRefine((value, context) => {
    if (value.dog !== "new") return;
    if (!value.dogName) context.addIssue({ code: "custom", path: ["dogName"], message: "Bitte den Namen des Hundes angeben" });
    if (!value.dateOfBirth) context.addIssue({ code: "custom", path: ["dateOfBirth"], message: "Bitte das Geburtsdatum angeben" });
  });
