/**
 * The club's lists (Listen): the HSVRM-Liste of members for the dog-sport association and the
 * Geburtstags-Liste. Read-only queries; each page and its count in one round trip.
 */
import { count, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { configuration, dogs, memberTypes, people } from "~/db/schema";
import { nextBirthday, type NextBirthday } from "~/lib/birthdays";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { sortKey, type SortKey } from "./paging.server";

// ---------------------------------------------------------------------------------------------
// HSVRM-Liste

export type HsvrmMemberRow = {
  id: number;
  hsvrmNr: string | null;
  lastName: string;
  firstName: string;
  dateOfBirth: string | null;
  streetNumber: string | null;
  zip: string | null;
  city: string | null;
  memberSince: string | null;
  memberType: string | null;
  /** 'Bella (Labrador), Rex': the member's dogs that are not archived. */
  dogs: string | null;
};

export type HsvrmQuery = { year: number; sort: SortSpec };

export const HSVRM_DEFAULT_SORT: SortSpec = { id: "lastName", descending: false };

const hsvrmColumns = {
  id: people.id,
  hsvrmNr: people.hsvrmNr,
  lastName: people.lastName,
  firstName: people.firstName,
  dateOfBirth: people.dateOfBirth,
  streetNumber: people.streetNumber,
  zip: people.zip,
  city: people.city,
  memberSince: people.memberSince,
  memberType: sql<string | null>`${memberTypes.name}`.as("member_type"),
  dogs: sql<string | null>`(SELECT group_concat(name, ', ') FROM (
    SELECT ${dogs.commonName} || CASE WHEN coalesce(trim(${dogs.breed}), '') = '' THEN '' ELSE ' (' || trim(${dogs.breed}) || ')' END AS name
    FROM ${dogs} WHERE ${dogs.ownerId} = ${people.id} AND ${dogs.archived} = 0 ORDER BY ${dogs.commonNameKey}))`.as("dogs"),
};

/**
 * Members in `year`: their membership began by the year's end and had not ended before it began.
 * Former members (membership ended) count for the years they were members.
 */
function memberInYear(year: number): SQL {
  return sql`(${people.isMember} = 1 OR ${people.memberUntil} IS NOT NULL)
    AND (${people.memberSince} IS NULL OR ${people.memberSince} <= ${`${year}-12-31`})
    AND (${people.memberUntil} IS NULL OR ${people.memberUntil} >= ${`${year}-01-01`})`;
}

const HSVRM_SORTS: Record<string, SortKey> = {
  hsvrmNr: sortKey(sql`${people.hsvrmNr} IS NULL`, sql`${people.hsvrmNr}`),
  lastName: sortKey(sql`${people.lastNameKey}`, sql`${people.firstNameKey}`),
  firstName: sortKey(sql`${people.firstNameKey}`, sql`${people.lastNameKey}`),
  dateOfBirth: sortKey(sql`${people.dateOfBirth}`),
  zip: sortKey(sql`${people.zip}`),
  city: sortKey(sql`${people.city}`),
  memberSince: sortKey(sql`${people.memberSince}`),
  memberType: sortKey(sql`${memberTypes.name}`),
};

const hsvrmOrder = (sort: SortSpec): SQL[] => [(HSVRM_SORTS[sort.id] ?? HSVRM_SORTS.lastName)(sort.descending), sql`${people.id}`];

function hsvrmSelect(db: Db, query: HsvrmQuery) {
  return db
    .select(hsvrmColumns)
    .from(people)
    .leftJoin(memberTypes, sql`${memberTypes.id} = ${people.memberTypeId}`)
    .where(memberInYear(query.year))
    .orderBy(...hsvrmOrder(query.sort))
    .$dynamic();
}

export async function listHsvrmMembers(db: Db, query: HsvrmQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const [rows, [{ total }]] = await db.batch([
    hsvrmSelect(db, query)
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db.select({ total: count() }).from(people).where(memberInYear(query.year)),
  ]);
  return { rows: rows as HsvrmMemberRow[], total };
}

export async function allHsvrmMembers(db: Db, query: HsvrmQuery): Promise<HsvrmMemberRow[]> {
  return (await hsvrmSelect(db, query)) as HsvrmMemberRow[];
}

export type Association = { name: string | null; kg: number | null; number: number | null };

/** The club's data for its dog-sport association (Einstellungen: HSVRM Verein Name, KG, Verein Nr). */
export async function associationData(db: Db): Promise<Association> {
  const [row] = await db
    .select({ name: configuration.hsvrmVereinName, kg: configuration.hsvrmKG, number: configuration.hsvrmVereinNr })
    .from(configuration)
    .where(sql`${configuration.id} = 1`);
  return row ?? { name: null, kg: null, number: null };
}

/** The years members were in the club: from the first membership's start to this year. */
export async function memberYears(db: Db, currentYear: number): Promise<number[]> {
  const [row] = await db.select({ first: sql<string | null>`min(${people.memberSince})` }).from(people);
  const first = Math.max(Number(row?.first?.slice(0, 4) ?? currentYear), currentYear - 30);
  return Array.from({ length: currentYear - first + 1 }, (_, index) => first + index);
}

// ---------------------------------------------------------------------------------------------
// Geburtstags-Liste

export const BIRTHDAY_PERIODS = ["thisMonth", "nextMonth", "all"] as const;
export type BirthdayPeriod = (typeof BIRTHDAY_PERIODS)[number];
export const BIRTHDAY_SCOPES = ["members", "everyone"] as const;
export type BirthdayScope = (typeof BIRTHDAY_SCOPES)[number];

type BirthdayRecord = {
  id: number;
  lastName: string;
  firstName: string;
  dateOfBirth: string;
  /** 'MM-DD' */
  annualBirthday: string;
  isMember: boolean;
  email: string | null;
  mobilePhone: string | null;
  homePhone: string | null;
};

/** A person's next birthday as the list shows it: the day, the age they turn, whether it is round. */
export type BirthdayRow = BirthdayRecord & { next: NextBirthday };

const withNextBirthday = (rows: BirthdayRecord[], today: string): BirthdayRow[] => rows.map((row) => ({ ...row, next: nextBirthday(row.dateOfBirth, today) }));

/** `today` is the Berlin calendar day 'YYYY-MM-DD'. */
export type BirthdayQuery = { period: BirthdayPeriod; scope: BirthdayScope; today: string };

/** 'MM' of the month after the one of `today`. */
const nextMonthOf = (today: string) => String((Number(today.slice(5, 7)) % 12) + 1).padStart(2, "0");

function birthdayFilter({ period, scope, today }: BirthdayQuery): SQL {
  const conditions = [sql`${people.dateOfBirth} IS NOT NULL`];
  if (scope === "members") conditions.push(sql`${people.isMember} = 1`);
  if (period === "thisMonth") conditions.push(sql`substr(${people.annualBirthday}, 1, 2) = ${today.slice(5, 7)}`);
  if (period === "nextMonth") conditions.push(sql`substr(${people.annualBirthday}, 1, 2) = ${nextMonthOf(today)}`);
  return sql.join(conditions, sql` AND `);
}

/**
 * From today through the year: the birthdays still to come this year first (today's on top), then
 * those of next year; within a day by name. (Next month in December is January: after the turn.)
 */
const birthdayOrder = (today: string): SQL[] => [
  sql`${people.annualBirthday} < ${today.slice(5, 10)}`,
  sql`${people.annualBirthday}`,
  sql`${people.lastNameKey}`,
  sql`${people.firstNameKey}`,
  sql`${people.id}`,
];

const birthdayColumns = {
  id: people.id,
  lastName: people.lastName,
  firstName: people.firstName,
  dateOfBirth: sql<string>`${people.dateOfBirth}`,
  annualBirthday: sql<string>`${people.annualBirthday}`,
  isMember: people.isMember,
  email: people.email,
  mobilePhone: people.mobilePhone,
  homePhone: people.homePhone,
};

function birthdaySelect(db: Db, query: BirthdayQuery) {
  return db
    .select(birthdayColumns)
    .from(people)
    .where(birthdayFilter(query))
    .orderBy(...birthdayOrder(query.today))
    .$dynamic();
}

export async function listBirthdays(db: Db, query: BirthdayQuery & { page: number; pageSize?: number }) {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const [rows, [{ total }]] = await db.batch([
    birthdaySelect(db, query)
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db.select({ total: count() }).from(people).where(birthdayFilter(query)),
  ]);
  return { rows: withNextBirthday(rows as BirthdayRecord[], query.today), total };
}

export async function allBirthdays(db: Db, query: BirthdayQuery): Promise<BirthdayRow[]> {
  return withNextBirthday((await birthdaySelect(db, query)) as BirthdayRecord[], query.today);
}

/**
 * The birthdays on the days `days` ('YYYY-MM-DD', consecutive, e.g. a week from Monday to Sunday;
 * it may span the turn of the year), in the Geburtstags-Liste's order from the first day on, at most
 * `limit` (and whether there are more). A 29 February falls on the 28th in other years, as in the
 * list. The day and age each person turns are nextBirthday's, seen from the first day.
 */
export async function birthdaysOnDays(
  db: Db,
  { days, scope, limit }: { days: readonly string[]; scope: BirthdayScope; limit: number },
): Promise<{ rows: BirthdayRow[]; more: boolean }> {
  const first = days[0];
  const monthDays = new Set(days.map((day) => day.slice(5, 10)));
  // Someone born on 29 February has their birthday on the 28th in a year without one.
  for (const day of days) if (day.slice(5, 10) === "02-28" && nextBirthday("2000-02-29", day).date === day) monthDays.add("02-29");
  const conditions = [sql`${people.dateOfBirth} IS NOT NULL`, sql`${people.annualBirthday} IN ${[...monthDays]}`];
  if (scope === "members") conditions.push(sql`${people.isMember} = 1`);
  const rows = await db
    .select(birthdayColumns)
    .from(people)
    .where(sql.join(conditions, sql` AND `))
    .orderBy(...birthdayOrder(first))
    .limit(limit + 1);
  return { rows: withNextBirthday(rows.slice(0, limit) as BirthdayRecord[], first), more: rows.length > limit };
}
