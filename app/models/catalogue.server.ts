/**
 * The public course catalogue (issue 33 item 1): every course open for booking with what a visitor
 * needs to choose one (type, trainer, place, dates, price per tier, free places, requirements).
 * Nothing personal: the trainer is named as the club names them on the course, no participant.
 * Read in three queries of one round trip; the rules of what is open are in app/lib/catalogue.ts.
 */
import { and, asc, eq, gte, ne, sql } from "drizzle-orm";
import { inValues } from "~/db/columns";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { courseDates, courseMasters, courses, locations, memberTypes, people } from "~/db/schema";
import { freePlaces, isOpenForBooking, requirementTexts } from "~/lib/catalogue";
import { berlinWeekdayOf, compareGerman, joinGerman } from "~/lib/format";
import { claimedPlaces, courseStart, nextCourseDate } from "./courses.server";

const trainers = alias(people, "catalogue_trainers");
const priorTypes = alias(courseMasters, "catalogue_prior_types");
const dateLocations = alias(locations, "catalogue_date_locations");

export type CatalogueDate = { start: string; end: string | null; isAllDay: boolean; location: string | null };
type CataloguePrice = { label: string; amount: number };

export type CatalogueCourse = {
  id: number;
  name: string;
  typeId: number;
  typeName: string;
  trainer: string | null;
  location: string | null;
  /** The club's own words for the times ('Mittwochs 18:00 Uhr'). */
  timeText: string | null;
  ongoing: boolean;
  perSession: boolean;
  prices: CataloguePrice[];
  maxDogs: number | null;
  /** Places left (null: no limit); 0: only the waiting list. */
  free: number | null;
  requirements: string[];
  /** The dates to come, the next first. */
  dates: CatalogueDate[];
  /** The ISO weekdays of those dates, in Berlin (the weekday filter). */
  weekdays: number[];
};

export type Catalogue = { courses: CatalogueCourse[]; types: { id: number; name: string }[] };

/** The price tiers and who pays each (named by the member types of that tier). */
async function tierLabels(db: Db) {
  const rows = await db.select({ name: memberTypes.name, tier: memberTypes.coursePriceTier }).from(memberTypes).orderBy(asc(memberTypes.id));
  const labels = { FULL: [] as string[], REDUCED1: [] as string[], REDUCED2: [] as string[] };
  for (const row of rows) labels[row.tier].push(row.name);
  return labels;
}

/** The courses open for booking at `now` (an instant), with their coming dates, and the course types that have one. */
export async function catalogue(db: Db, now: string): Promise<Catalogue> {
  const [candidates, labels] = await Promise.all([
    db
      .select({
        id: courses.id,
        name: courses.name,
        // D1 keys a row's columns by name: every column named like another gets an alias of its own.
        typeId: sql<number>`${courseMasters.id}`.as("type_id"),
        typeName: sql<string>`${courseMasters.name}`.as("type_name"),
        onlineBooking: courseMasters.onlineBooking,
        statusCode: courses.statusCode,
        durationModel: courses.durationModel,
        pricingModel: courses.pricingModel,
        trainer: sql<string | null>`${trainers.fullName}`.as("trainer_name"),
        location: sql<string | null>`${locations.name}`.as("location_name"),
        timeText: courses.webTimeInformation,
        maxDogs: courses.maxDogs,
        costFull: courses.costFull,
        costReduced1: courses.costReduced1,
        costReduced2: courses.costReduced2,
        minDogAgeWeeks: courseMasters.minDogAgeWeeks,
        requiresRabies: courseMasters.requiresRabies,
        requiresInsurance: courseMasters.requiresInsurance,
        priorCourseName: sql<string | null>`${priorTypes.name}`.as("prior_type_name"),
        claimed: claimedPlaces.as("claimed_places"),
        firstStart: courseStart(courses.id).as("first_start"),
        nextStart: nextCourseDate(courses.id, now).as("next_start"),
      })
      .from(courses)
      .innerJoin(courseMasters, and(eq(courseMasters.id, courses.courseMasterId), eq(courseMasters.onlineBooking, true)))
      .leftJoin(trainers, eq(trainers.id, courses.trainerId))
      .leftJoin(locations, eq(locations.id, courses.locationId))
      .leftJoin(priorTypes, eq(priorTypes.id, courseMasters.priorCourseMasterId))
      .where(ne(courses.statusCode, "FINISHED")),
    tierLabels(db),
  ]);
  const open = candidates.filter((course) => isOpenForBooking(course, now));
  const ids = open.map((course) => course.id);
  const dates = ids.length
    ? await db
        .select({
          courseId: courseDates.courseId,
          start: courseDates.startDateTime,
          end: courseDates.endDateTime,
          isAllDay: courseDates.isAllDay,
          location: dateLocations.name,
        })
        .from(courseDates)
        .leftJoin(dateLocations, eq(dateLocations.id, courseDates.locationId))
        .where(and(inValues(courseDates.courseId, ids), gte(courseDates.startDateTime, now)))
        .orderBy(asc(courseDates.startDateTime), asc(courseDates.id))
    : [];
  const datesOf = new Map<number, typeof dates>();
  for (const date of dates) {
    const own = datesOf.get(date.courseId);
    if (own) own.push(date);
    else datesOf.set(date.courseId, [date]);
  }
  const prices = (course: (typeof open)[number]): CataloguePrice[] =>
    (
      [
        [labels.FULL, course.costFull],
        [labels.REDUCED1, course.costReduced1],
        [labels.REDUCED2, course.costReduced2],
      ] as const
    )
      .filter(([names]) => names.length > 0)
      .map(([names, amount]) => ({ label: joinGerman([...names]), amount }));
  const result: CatalogueCourse[] = open
    .map((course) => {
      const own = (datesOf.get(course.id) ?? []).map(({ start, end, isAllDay, location }) => ({ start, end, isAllDay, location: location ?? course.location }));
      return {
        id: course.id,
        name: course.name,
        typeId: course.typeId,
        typeName: course.typeName,
        trainer: course.trainer,
        location: course.location,
        timeText: course.timeText,
        ongoing: course.durationModel === "ONGOING",
        perSession: course.pricingModel === "PER_SESSION",
        prices: prices(course),
        maxDogs: course.maxDogs,
        free: freePlaces(course.maxDogs, course.claimed),
        requirements: requirementTexts(course),
        dates: own,
        weekdays: [...new Set(own.map((date) => berlinWeekdayOf(date.start)))].sort(),
        sortKey: own[0]?.start ?? course.firstStart ?? "",
      };
    })
    // The next first; on the same start by name.
    .sort((a, b) => a.sortKey.localeCompare(b.sortKey) || compareGerman(a.name, b.name))
    .map(({ sortKey: _sortKey, ...course }) => course);
  const types = [...new Map(result.map((course) => [course.typeId, course.typeName])).entries()]
    .map(([id, name]) => ({ id, name }))
    .sort((a, b) => compareGerman(a.name, b.name));
  return { courses: result, types };
}
