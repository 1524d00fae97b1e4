/**
 * What the handset views show on the training field: small, complete answers in one round trip
 * each (a person with their dogs, a dog with its owner's phones, the running courses with their
 * next date, the coming dates by day).
 */
import { and, asc, eq, gte, lt, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { qualified } from "~/db/columns";
import type { Db } from "~/db/client.server";
import { courseDates, courses, dogs, locations, people } from "~/db/schema";
import { actualNrOfDogs, isRunningCourse, nextCourseDate } from "./courses.server";
import { dogNameMatches } from "./dogs.server";
import { containsPattern, nameMatches, personNames } from "./search.server";

/** Cards per handset list: enough to scroll with a thumb, small on a slow connection. */
export const HANDSET_LIMIT = 30;

type HandsetDog = { id: number; name: string; breed: string | null; rabiesValidUntil: string | null };

export type HandsetPerson = {
  id: number;
  fullName: string;
  email: string | null;
  homePhone: string | null;
  mobilePhone: string | null;
  isMember: boolean;
  dogs: HandsetDog[];
};

/** People whose name contains `term` (DIN 5007, as the desk's Personen; all when empty), by name, with their dogs that are not archived. */
export async function handsetPeople(db: Db, term: string): Promise<{ people: HandsetPerson[]; more: boolean }> {
  const rows = await db
    .select({
      id: people.id,
      fullName: sql<string>`${people.fullName}`,
      email: people.email,
      homePhone: people.homePhone,
      mobilePhone: people.mobilePhone,
      isMember: people.isMember,
      dogs: sql<string>`(SELECT json_group_array(json_object('id', id, 'name', common_name, 'breed', breed, 'rabiesValidUntil', rabies_valid_until))
        FROM (SELECT * FROM ${dogs} d WHERE d.owner_id = ${qualified(people.id)} AND d.archived = 0 ORDER BY d.common_name_key))`,
    })
    .from(people)
    .where(nameMatches(term, personNames(people)))
    .orderBy(people.lastNameKey, people.firstNameKey, people.id)
    .limit(HANDSET_LIMIT + 1);
  return {
    people: rows.slice(0, HANDSET_LIMIT).map((row) => ({ ...row, dogs: JSON.parse(row.dogs) as HandsetDog[] })),
    more: rows.length > HANDSET_LIMIT,
  };
}

export type HandsetDogCard = HandsetDog & {
  gender: number;
  dateOfBirth: string | null;
  ownerId: number;
  ownerName: string;
  ownerMobilePhone: string | null;
  ownerHomePhone: string | null;
};

/** Dogs (not archived) whose name or owner (DIN 5007, as the desk's Hunde) or breed contains `term`, by name. */
export async function handsetDogs(db: Db, term: string): Promise<{ dogs: HandsetDogCard[]; more: boolean }> {
  const pattern = containsPattern(term);
  const rows = await db
    .select({
      id: dogs.id,
      name: dogs.commonName,
      breed: dogs.breed,
      gender: dogs.gender,
      dateOfBirth: dogs.dateOfBirth,
      rabiesValidUntil: dogs.rabiesValidUntil,
      ownerId: dogs.ownerId,
      ownerName: sql<string>`${people.fullName}`,
      ownerMobilePhone: people.mobilePhone,
      ownerHomePhone: people.homePhone,
    })
    .from(dogs)
    .innerJoin(people, eq(people.id, dogs.ownerId))
    .where(and(eq(dogs.archived, false), pattern ? or(dogNameMatches(term), sql`${dogs.breed} LIKE ${pattern}`) : undefined))
    .orderBy(dogs.commonNameKey, dogs.id)
    .limit(HANDSET_LIMIT + 1);
  return { dogs: rows.slice(0, HANDSET_LIMIT), more: rows.length > HANDSET_LIMIT };
}

const trainers = alias(people, "trainers");
const dateLocations = alias(locations, "date_locations");

export type RunningCourse = {
  id: number;
  name: string;
  webTimeInformation: string | null;
  trainerName: string | null;
  trainerEmail: string | null;
  location: string | null;
  actualNrOfDogs: number;
  maxDogs: number | null;
  /** The next date from now on (UTC instant), and where it is. */
  nextDate: string | null;
  nextLocation: string | null;
};

/**
 * The running courses (not finished) with trainer, place, participants and their next date; the
 * courses of the trainer with `trainerEmail` (the logged-in user, when they are a trainer) first.
 */
export async function runningCourses(db: Db, now: Date, trainerEmail: string | null): Promise<RunningCourse[]> {
  const iso = now.toISOString();
  const nextDate = nextCourseDate(courses.id, iso);
  const rows = await db
    .select({
      id: courses.id,
      name: courses.name,
      webTimeInformation: courses.webTimeInformation,
      trainerName: sql<string | null>`${trainers.fullName}`.as("trainer_name"),
      trainerEmail: sql<string | null>`${trainers.email}`.as("trainer_email"),
      location: sql<string | null>`${locations.name}`.as("location_name"),
      actualNrOfDogs: actualNrOfDogs.as("actual_nr_of_dogs"),
      maxDogs: courses.maxDogs,
      nextDate: nextDate.as("next_date"),
      nextLocation: sql<string | null>`(SELECT coalesce(l.name, ${locations.name}) FROM ${courseDates} d LEFT JOIN ${locations} l ON l.id = d.location_id
        WHERE d.course_id = ${courses.id} AND d.start_date_time >= ${iso} ORDER BY d.start_date_time LIMIT 1)`.as("next_location"),
    })
    .from(courses)
    .leftJoin(trainers, eq(trainers.id, courses.trainerId))
    .leftJoin(locations, eq(locations.id, courses.locationId))
    .where(isRunningCourse())
    .orderBy(sql`next_date IS NULL`, sql`next_date`, sql`${courses.name} COLLATE NOCASE`, asc(courses.id));
  const own = trainerEmail?.toLowerCase();
  const isOwn = (course: RunningCourse) => own !== undefined && course.trainerEmail?.toLowerCase() === own;
  // Stable: the trainer's own courses first, each group in the order of their next date.
  return [...rows.filter(isOwn), ...rows.filter((course) => !isOwn(course))];
}

export type ComingDate = {
  id: number;
  courseId: number;
  courseName: string;
  startDateTime: string;
  endDateTime: string | null;
  isAllDay: boolean;
  location: string | null;
};

/** The dates of all courses from the instant `from` until before `until` (ISO), soonest first (the first `limit`, if given). */
export async function comingCourseDates(db: Db, from: string, until: string, limit?: number): Promise<ComingDate[]> {
  const query = db
    .select({
      id: courseDates.id,
      courseId: courseDates.courseId,
      courseName: courses.name,
      startDateTime: courseDates.startDateTime,
      endDateTime: courseDates.endDateTime,
      isAllDay: courseDates.isAllDay,
      location: sql<string | null>`coalesce(${dateLocations.name}, ${locations.name})`,
    })
    .from(courseDates)
    .innerJoin(courses, eq(courses.id, courseDates.courseId))
    .leftJoin(dateLocations, eq(dateLocations.id, courseDates.locationId))
    .leftJoin(locations, eq(locations.id, courses.locationId))
    .where(and(gte(courseDates.startDateTime, from), lt(courseDates.startDateTime, until)))
    .orderBy(courseDates.startDateTime, sql`${courses.name} COLLATE NOCASE`, courseDates.id)
    .$dynamic();
  return limit === undefined ? query : query.limit(limit);
}
