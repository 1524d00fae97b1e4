/**
 * The requirements a course booked online checks (issue 33 item 2): the dog's age on the first date,
 * rabies vaccination and liability insurance valid until the last date, a prior course taken part
 * in. A table: each rule on its own, on both sides of its limit, and all at once.
 */
import { describe, expect, it } from "vitest";
import { bookingRefusals, type CourseRequirements, type DogProofs } from "~/lib/booking-requirements";

const NOTHING: CourseRequirements = { minDogAgeWeeks: null, requiresRabies: false, requiresInsurance: false, priorCourseMasterId: null, priorCourseName: null };
const EVERYTHING: CourseRequirements = {
  minDogAgeWeeks: 16,
  requiresRabies: true,
  requiresInsurance: true,
  priorCourseMasterId: 5,
  priorCourseName: "Agility Einsteiger",
};
/** Born 2026-08-01: 16 weeks old on 2026-11-21. */
const FINE: DogProofs = {
  name: "Kira",
  dateOfBirth: "2026-08-01",
  rabiesValidUntil: "2027-08-01",
  insuranceValidUntil: "2026-12-31",
  takenPartTypeIds: [2, 5],
};
const FIRST = "2026-11-21";
const LAST = "2026-12-19";

describe("booking requirements", () => {
  it.each<[string, Partial<CourseRequirements>, Partial<DogProofs>, string[]]>([
    ["all fine", {}, {}, []],
    ["exactly 16 weeks on the first date", {}, { dateOfBirth: "2026-08-01" }, []],
    [
      "too young: a day short of 16 weeks",
      {},
      { dateOfBirth: "2026-08-02" },
      ["Kira ist am ersten Termin (21.11.2026) 15 Wochen alt; der Kurs setzt 16 Wochen voraus."],
    ],
    [
      "not born yet on the first date",
      {},
      { dateOfBirth: "2026-12-01" },
      ["Kira ist am ersten Termin (21.11.2026) 0 Wochen alt; der Kurs setzt 16 Wochen voraus."],
    ],
    ["no birth date", {}, { dateOfBirth: null }, ["Für Kira ist kein Geburtsdatum hinterlegt; der Kurs setzt ein Alter von 16 Wochen voraus."]],
    ["rabies valid until the last date", {}, { rabiesValidUntil: LAST }, []],
    [
      "rabies expiring the day before the last date",
      {},
      { rabiesValidUntil: "2026-12-18" },
      ["Die Tollwutimpfung von Kira gilt bis 18.12.2026, der Kurs dauert bis 19.12.2026."],
    ],
    ["no rabies vaccination", {}, { rabiesValidUntil: null }, ["Für Kira ist keine gültige Tollwutimpfung nachgewiesen."]],
    ["no insurance", {}, { insuranceValidUntil: null }, ["Für Kira ist keine Hundehaftpflichtversicherung nachgewiesen."]],
    [
      "insurance ending before the last date",
      {},
      { insuranceValidUntil: "2026-12-01" },
      ["Die Hundehaftpflichtversicherung von Kira gilt bis 01.12.2026, der Kurs dauert bis 19.12.2026."],
    ],
    ["prior course missing", {}, { takenPartTypeIds: [2] }, ["Kira hat noch an keinem Kurs 'Agility Einsteiger' teilgenommen; der Kurs setzt ihn voraus."]],
    ["nothing required, nothing brought", NOTHING, { dateOfBirth: null, rabiesValidUntil: null, insuranceValidUntil: null, takenPartTypeIds: [] }, []],
    [
      "everything missing at once: every reason",
      {},
      { dateOfBirth: null, rabiesValidUntil: null, insuranceValidUntil: null, takenPartTypeIds: [] },
      [
        "Für Kira ist kein Geburtsdatum hinterlegt; der Kurs setzt ein Alter von 16 Wochen voraus.",
        "Für Kira ist keine gültige Tollwutimpfung nachgewiesen.",
        "Für Kira ist keine Hundehaftpflichtversicherung nachgewiesen.",
        "Kira hat noch an keinem Kurs 'Agility Einsteiger' teilgenommen; der Kurs setzt ihn voraus.",
      ],
    ],
  ])("%s", (_case, requirements, dog, refusals) => {
    expect(bookingRefusals({ ...EVERYTHING, ...requirements }, { ...FINE, ...dog }, FIRST, LAST)).toEqual(refusals);
  });
});
