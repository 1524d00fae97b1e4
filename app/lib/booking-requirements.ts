/**
 * What a dog must bring to a course booked online (issue 33 item 2), as its Kurs-Typ asks it: an
 * age on the first date, a rabies vaccination and a liability insurance valid until the last date
 * the booking covers, and a course of another type taken part in before. Pure: the booking reads
 * the dog, the course and the dog's earlier courses, and refuses with these German reasons.
 */
import { daysBetween, formatDate, formatCount } from "./format";

export type CourseRequirements = {
  minDogAgeWeeks: number | null;
  requiresRabies: boolean;
  requiresInsurance: boolean;
  priorCourseMasterId: number | null;
  priorCourseName: string | null;
};

export type DogProofs = {
  name: string;
  dateOfBirth: string | null;
  rabiesValidUntil: string | null;
  insuranceValidUntil: string | null;
  /** The course types of the courses the dog took part in (not on a waiting list, not cancelled). */
  takenPartTypeIds: number[];
};

/**
 * Why the dog may not be booked ([] when it may). `firstDay` and `lastDay` are the Berlin days of
 * the first and the last date the booking covers (for an open group: its next date for both).
 */
export function bookingRefusals(requirements: CourseRequirements, dog: DogProofs, firstDay: string, lastDay: string): string[] {
  const refusals: string[] = [];
  if (requirements.minDogAgeWeeks) {
    const wanted = formatCount(requirements.minDogAgeWeeks, "Woche", "Wochen");
    if (!dog.dateOfBirth) refusals.push(`Für ${dog.name} ist kein Geburtsdatum hinterlegt; der Kurs setzt ein Alter von ${wanted} voraus.`);
    else {
      const weeks = Math.floor(daysBetween(dog.dateOfBirth, firstDay) / 7);
      if (weeks < requirements.minDogAgeWeeks)
        refusals.push(
          `${dog.name} ist am ersten Termin (${formatDate(firstDay)}) ${formatCount(Math.max(0, weeks), "Woche", "Wochen")} alt; der Kurs setzt ${wanted} voraus.`,
        );
    }
  }
  if (requirements.requiresRabies) {
    if (!dog.rabiesValidUntil) refusals.push(`Für ${dog.name} ist keine gültige Tollwutimpfung nachgewiesen.`);
    else if (dog.rabiesValidUntil < lastDay)
      refusals.push(`Die Tollwutimpfung von ${dog.name} gilt bis ${formatDate(dog.rabiesValidUntil)}, der Kurs dauert bis ${formatDate(lastDay)}.`);
  }
  if (requirements.requiresInsurance) {
    if (!dog.insuranceValidUntil) refusals.push(`Für ${dog.name} ist keine Hundehaftpflichtversicherung nachgewiesen.`);
    else if (dog.insuranceValidUntil < lastDay)
      refusals.push(
        `Die Hundehaftpflichtversicherung von ${dog.name} gilt bis ${formatDate(dog.insuranceValidUntil)}, der Kurs dauert bis ${formatDate(lastDay)}.`,
      );
  }
  if (requirements.priorCourseMasterId !== null && !dog.takenPartTypeIds.includes(requirements.priorCourseMasterId))
    refusals.push(`${dog.name} hat noch an keinem Kurs '${requirements.priorCourseName ?? "?"}' teilgenommen; der Kurs setzt ihn voraus.`);
  return refusals;
}
