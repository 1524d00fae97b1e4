import { z } from "zod";
import { MAX_PORTAL_CANCEL_DAYS } from "~/lib/portal-courses";
import {
  bookingOverrideFields,
  checkbox,
  optionalId,
  optionalMoneyInCents,
  optionalTaxCase,
  optionalText,
  optionalWholeNumber,
  requiredText,
  rowVersion,
} from "~/lib/form-fields";

/** The largest planned number of sessions and of dogs a course type may have. */
const MAX_COURSE_COUNT = 999;

/** The oldest a minimum age may be: ten years, in weeks (the database's rule). */
const MAX_MIN_DOG_AGE_WEEKS = 520;

/** A Kurs-Typ: its name, planned sessions, capacity, the three prices (typed 1.234,56 €), its tax
 *  case, and whether and with what requirements its courses are booked online (issue 33). */
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
  /** The share of the course fee still owed after such a cancellation (percent); empty: 0, the fee is cancelled in full. */
  portalCancelFeePercent: optionalWholeNumber("Die Stornogebühr", 100).transform((value) => value ?? 0),
  /** In the public catalogue (/kurse) and booked online. */
  onlineBooking: checkbox(),
  minDogAgeWeeks: optionalWholeNumber("Das Mindestalter", MAX_MIN_DOG_AGE_WEEKS),
  requiresRabies: checkbox(),
  requiresInsurance: checkbox(),
  /** A booking made online may be withdrawn within 14 days (§ 355 BGB); off for dated leisure services (§ 312g Abs. 2 Nr. 9 BGB). */
  withdrawalRight: checkbox(),
  /** A course of this type attended before; empty: none. */
  priorCourseMasterId: optionalId(),
  /** The account and sphere of this type's course fees in the books (issue 35); empty: Buchhaltung's for course fees. */
  ...bookingOverrideFields(),
});

export type CourseMasterFormValues = z.infer<typeof courseMasterSchema>;
