/**
 * Birthdays as the Geburtstags-Liste (and the home page) show them: the next one from a day on,
 * the age a person turns then, and whether it is a round one.
 */

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

export type NextBirthday = {
  /** 'YYYY-MM-DD' of the next birthday on or after `today`; a 29 February falls on the 28th in other years. */
  date: string;
  /** The age the person turns that day. */
  age: number;
  /** Every ten years (30, 40, 50, ...). */
  round: boolean;
};

/** The next birthday of someone born on `dateOfBirth` ('YYYY-MM-DD'), seen from `today` ('YYYY-MM-DD'). */
export function nextBirthday(dateOfBirth: string, today: string): NextBirthday {
  const birthYear = Number(dateOfBirth.slice(0, 4));
  const monthDay = dateOfBirth.slice(5, 10);
  const thisYear = Number(today.slice(0, 4));
  const year = monthDay >= today.slice(5, 10) ? thisYear : thisYear + 1;
  const day = monthDay === "02-29" && !isLeapYear(year) ? "02-28" : monthDay;
  const age = year - birthYear;
  return { date: `${year}-${day}`, age, round: age > 0 && age % 10 === 0 };
}
