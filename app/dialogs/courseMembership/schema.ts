import { z } from "zod";
import { checkbox, id, optionalId, optionalMoneyInCents, optionalText, paymentFields, rowVersion } from "~/lib/form-fields";

/** The course membership form (spec 001 §5): course, person, dog and status are required. */
export const membershipSchema = z.object({
  id: optionalId(),
  rowVersion: rowVersion().optional(),
  courseId: id("Kurs ist erforderlich"),
  personId: id("Teilnehmer ist erforderlich"),
  dogId: id("Hund ist erforderlich"),
  statusId: id("Status ist erforderlich"),
  amount: optionalMoneyInCents(),
  isPaid: checkbox(),
  comments: optionalText(500),
  personComments: optionalText(500),
  dogComments: optionalText(500),
  ...paymentFields(),
});
export type MembershipFormValues = z.infer<typeof membershipSchema>;

/** The transfer form: the course to move to. */
export const transferSchema = z.object({
  id: id("Could not get courseMembership"),
  targetCourseId: id("Kurs ist erforderlich"),
});
export type TransferFormValues = z.infer<typeof transferSchema>;

/** Moving one entry of a waiting list a place up or down (issue 33 item 3). */
export const waitlistMoveSchema = z.object({
  id: id("Could not get courseMembership"),
  direction: z.enum(["up", "down"], { error: "Bitte nach oben oder nach unten wählen" }),
});

/** The labels Speichern names when it is disabled. */
export const MEMBERSHIP_LABELS = { courseId: "Kurs", personId: "Teilnehmer", dogId: "Hund", statusId: "Status", amount: "Betrag" };
