/**
 * The capacity check of a booking (issue 29/14): the spec's red warning when actual dogs exceed
 * maxDogs, said in the participant dialog before saving. Pure, shared by the dialog's view and
 * its action.
 */
import { formatCount } from "./format";
import { takesPart } from "./attendance";

/** The two answers to the warning: book anyway, or put the dog on the waiting list. */
export const CAPACITY_CHOICES = { book: "Trotzdem buchen", waitlist: "Auf die Warteliste" } as const;

export type Capacity = {
  /** The course's places (null: no limit). */
  maxDogs: number | null;
  /** Dogs taking part now, without the membership being edited. */
  others: number;
};

/**
 * Whether saving with this status takes one place more than the course has: only a status that
 * takes part (not Warteliste, not Abgemeldet) counts, and only when the membership did not take a
 * place already (a new one, or one coming off the waiting list).
 */
export function overbooks(capacity: Capacity | null, statusCode: string | null, before: { statusCode: string } | null): boolean {
  if (!capacity || capacity.maxDogs === null || !statusCode || !takesPart(statusCode)) return false;
  if (before && takesPart(before.statusCode)) return false;
  return capacity.others + 1 > capacity.maxDogs;
}

/** 'Der Kurs ist voll: 2 Hunde bei 2 Plätzen. Mit diesem Hund wären es 3.' */
export const capacityWarning = ({ maxDogs, others }: Capacity) =>
  `Der Kurs ist voll: ${formatCount(others, "Hund", "Hunde")} bei ${formatCount(maxDogs ?? 0, "Platz", "Plätzen")}. Mit diesem Hund wären es ${others + 1}.`;
