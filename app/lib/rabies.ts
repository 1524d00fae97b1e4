/**
 * The rabies vaccination rules every screen shares: a date has run out once it lies before today
 * (it is still good on its last day), and the home page warns of one running out within
 * RABIES_WARNING_DAYS. Dates are calendar days 'YYYY-MM-DD', today the Berlin day.
 */
import { addDaysToDate } from "./format";

/** How far ahead the home page warns of a vaccination running out. */
export const RABIES_WARNING_DAYS = 30;

/** A proof (vaccination, insurance) has run out (shown red): its last valid day lies before today. */
export const hasRunOut = (validUntil: string | null, today: string): boolean => validUntil !== null && validUntil < today;

/** The vaccination has run out (shown red): its last valid day lies before today. */
export const isRabiesExpired = (validUntil: string | null, today: string): boolean => hasRunOut(validUntil, today);

/** The last day a vaccination may end on to be warned of: today plus RABIES_WARNING_DAYS. */
export const rabiesWarningUntil = (today: string): string => addDaysToDate(today, RABIES_WARNING_DAYS);
