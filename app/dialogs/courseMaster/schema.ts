import { z } from "zod";
import { MAX_PORTAL_CANCEL_DAYS } from "~/lib/portal-courses";
import { optionalId, optionalMoneyInCents, optionalTaxCase, optionalText, optionalWholeNumber, requiredText, rowVersion } from "~/lib/form-fields";

/** The largest planned number of sessions and of dogs a course type may have. */
const MAX_COURSE_COUNT = 999;

/** A Kurs-Typ: its name, planned sessions, capacity, the three prices (typed 1.234,56 €) and its tax case. */
export const courseMasterSchema = z.object({
  id: optionalId(),
  rowVersion: rowVersion().optional(),
  name: requiredText("Name ist erforderlich", 100),
  nrOfSessions: optionalWholeNumber("Termine (geplant)", MAX_COURSE_COUNT),
  maxDogs: optionalWholeNumber("Max. Hunde", MAX_COURSE_COUNT),
  // An empty price is 0 € (the prices are never NULL in the database).
  costFull: optionalMoneyInCents(0),
  costReduced1: optionalMoneyInCents(0),
  costReduced2: optionalMoneyInCents(0),
  comments: optionalText(500),
  /** How this type's course fees are taxed on an invoice; empty: the default of Einstellungen. */
  taxCase: optionalTaxCase(),
  /** Mein Wuff: days before the course begins until which a booking may be cancelled there; empty: not in the portal. */
  portalCancelDays: optionalWholeNumber("Die Stornierungsfrist", MAX_PORTAL_CANCEL_DAYS),
});

export type CourseMasterFormValues = z.infer<typeof courseMasterSchema>;
