/** German labels of coded values, shared by grids, forms and exports. */

/** Dog gender codes (spec: 1 männlich, 2 weiblich, 0 (unbekannt)). */
export const DOG_GENDER_LABELS: Record<number, string> = { 1: "männlich", 2: "weiblich", 0: "(unbekannt)" };
export const UNKNOWN_GENDER = "(unbekannt)";
export const dogGenderText = (gender: number | null | undefined) => DOG_GENDER_LABELS[gender ?? 0] ?? UNKNOWN_GENDER;

/** A person's salutation. */
export const SALUTATIONS = ["Herr", "Frau"] as const;

/** Herr/Frau select of the quick add (1 Herr, 2 Frau) and the person's salutation. */
export const SALUTATION_BY_CODE = { 1: "Herr", 2: "Frau" } as const;

/** German names of the tables, per record, as the bin's Tabelle column shows them. */
export const TABLE_LABELS: Record<string, string> = {
  people: "Person",
  dogs: "Hund",
  courses: "Kurs",
  course_masters: "Kurs-Typ",
  course_memberships: "Kursteilnahme",
  course_dates: "Kurstermin",
  certifications: "Erfolg",
  certification_masters: "Erfolgsart",
  fees: "Offener Posten",
  invoice_headers: "Rechnung",
  invoice_rows: "Rechnungszeile",
  locations: "Ort",
  mailshots: "Mailing",
};
