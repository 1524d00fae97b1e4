/**
 * The home page (Startseite) of a logged-in user: what a club office looks at first. Each panel is
 * read only for a user who may use the screens it leads into (HOME_PANEL_AREAS in app/lib/access.ts),
 * each at most HOME_PANEL_LIMIT rows (one more tells whether there are more), and all of them are
 * started at the same moment, so they go to D1 as one batch: with readForOptionalUser, in the
 * round trip of the session lookup itself. The home page is the benchmark's reference page.
 *
 * The rules are the ones of the screens the panels lead into, not copies: running courses and
 * places taken (courses.server.ts), a participant's rabies date (course-memberships.server.ts) and
 * its expiry (app/lib/rabies.ts), the Geburtstags-Liste's birthdays (club-lists.server.ts), the
 * Kontenblatt's open and due fees (fees.server.ts), the Tasks screen's runs (jobs.server.ts).
 */
import { and, asc, eq, notInArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { courseMemberships, courses, dogs, membershipStatuses, people } from "~/db/schema";
import { may, mayUse, maySeeHomePanel, type HomePanel, type User } from "~/lib/access";
import { weekDays } from "~/lib/calendar";
import { addDaysToDate, berlinMidnight, compareGerman, todayInBerlin } from "~/lib/format";
import { rabiesWarningUntil } from "~/lib/rabies";
import { birthdaysOnDays, type BirthdayRow } from "./club-lists.server";
import { participantRabiesDate } from "./course-memberships.server";
import { actualNrOfDogs, isRunningCourse, NOT_TAKING_PART, overCapacity } from "./courses.server";
import { openAndDueFees, type FeeTotal } from "./fees.server";
import { comingCourseDates, type ComingDate } from "./handset.server";
import { lastJob, type JobRow } from "./jobs.server";
import { failedReminders, type ReminderRow } from "./reminders.server";
import { pendingPaperCount } from "./dog-papers.server";
import { dogNameKey } from "./paging.server";
import { openNoticeCount } from "./notice-declarations.server";
import { openDeclarationCount } from "./withdrawal-declarations.server";
import { attendanceWithoutCard, cardsExpiring, type ExpiringCard, type WithoutCard } from "./cards.server";
import { openApplicationCount } from "./membership-applications.server";
import { portalChanges, PORTAL_CHANGES_DAYS, type PortalChange } from "./portal-changes.server";

/** Rows per panel: what fits at a glance; the rest is one link away. */
export const HOME_PANEL_LIMIT = 10;
/** Cards running out this many days ahead are named on the home page (issue 34 item 4). */
export const CARD_EXPIRY_WARNING_DAYS = 14;

/** A panel's rows, at most HOME_PANEL_LIMIT, and whether there are more. */
type Limited<Row> = { rows: Row[]; more: boolean };

type OverCapacityCourse = { id: number; name: string; maxDogs: number; actualNrOfDogs: number };

type RabiesWarning = {
  dogId: number;
  dogName: string;
  ownerName: string;
  /** The later of the dates of its participations (see participantRabiesDate). */
  rabiesValidUntil: string;
  /** The running courses the dog takes part in, by name. */
  courseNames: string[];
};

/** What the home page shows a logged-in user; a panel the user may not see is absent. */
export type HomePanels = {
  /** The Berlin day the panels were read for. */
  today: string;
  courseDates?: Limited<ComingDate>;
  overCapacity?: Limited<OverCapacityCourse>;
  rabies?: Limited<RabiesWarning> & { until: string };
  birthdays?: Limited<BirthdayRow> & { days: string[] };
  fees?: { open: FeeTotal; due: FeeTotal };
  lastJob?: { job: JobRow | null };
  /** Only while there are any (issue 31 item 6). */
  failedReminders?: Limited<ReminderRow>;
  /** What people changed in Mein Wuff over the last two weeks, and the papers waiting (issue 32);
   *  only while there is any. */
  portalChanges?: Limited<PortalChange> & { pendingPapers: number; openApplications: number; openWithdrawals: number; openNotices: number };
  /** Attendance 'ohne Karte' and cards running out in the next 14 days (issue 34); only while there are any. */
  cards?: { withoutCard: Limited<WithoutCard>; expiring: Limited<ExpiringCard> };
};

const limited = <Row>(rows: Row[]): Limited<Row> => ({ rows: rows.slice(0, HOME_PANEL_LIMIT), more: rows.length > HOME_PANEL_LIMIT });

/** Running courses in which more dogs take part than they have places for, by name. */
async function overCapacityCourses(db: Db): Promise<Limited<OverCapacityCourse>> {
  const rows = await db
    .select({ id: courses.id, name: courses.name, maxDogs: sql<number>`${courses.maxDogs}`, actualNrOfDogs: actualNrOfDogs.as("actual_nr_of_dogs") })
    .from(courses)
    .where(and(isRunningCourse(), overCapacity()))
    .orderBy(sql`${courses.name} COLLATE NOCASE`, asc(courses.id))
    .limit(HOME_PANEL_LIMIT + 1);
  return limited(rows);
}

/**
 * Dogs taking part in a running course whose rabies vaccination has run out or runs out by
 * `until`, the soonest first; one row per dog (its latest date counts, as in the participants grid).
 * Dogs with the same date go by name; their DIN 5007 name key is costly to work out (a hundred
 * replace()s), so it is worked out only for the dogs up to the date of the panel's last row, not for
 * every dog warned of (84 on the benchmark data, for 11 rows).
 */
async function rabiesWarnings(db: Db, until: string): Promise<Limited<RabiesWarning>> {
  const warned = db.$with("warned").as(
    db
      .select({
        dogId: sql<number>`${courseMemberships.dogId}`.as("dog_id"),
        rabiesValidUntil: sql<string>`max(${participantRabiesDate})`.as("rabies_until"),
        courseNames: sql<string>`json_group_array(DISTINCT ${courses.name})`.as("course_names"),
      })
      // The running courses first, then their participants by the course's index (CROSS JOIN keeps
      // that order in SQLite): the cost follows the running courses, not every participation the
      // club's finished courses have gathered over the years.
      .from(courses)
      .crossJoin(courseMemberships)
      .innerJoin(membershipStatuses, eq(membershipStatuses.id, courseMemberships.statusId))
      .innerJoin(dogs, eq(dogs.id, courseMemberships.dogId))
      .where(and(isRunningCourse(), eq(courseMemberships.courseId, courses.id), notInArray(membershipStatuses.code, [...NOT_TAKING_PART])))
      .groupBy(courseMemberships.dogId)
      .having(sql`rabies_until <= ${until}`),
  );
  const lastShownDate = sql`coalesce((SELECT rabies_until FROM ${warned} ORDER BY rabies_until LIMIT 1 OFFSET ${HOME_PANEL_LIMIT}), '9999-12-31')`;
  const rows = await db
    .with(warned)
    .select({
      dogId: warned.dogId,
      dogName: dogs.commonName,
      ownerName: sql<string>`${people.fullName}`,
      rabiesValidUntil: warned.rabiesValidUntil,
      courseNames: warned.courseNames,
    })
    .from(warned)
    .innerJoin(dogs, eq(dogs.id, warned.dogId))
    .innerJoin(people, eq(people.id, dogs.ownerId))
    .where(sql`${warned.rabiesValidUntil} <= ${lastShownDate}`)
    .orderBy(sql`${warned.rabiesValidUntil}`, dogNameKey(dogs.id), dogs.id)
    .limit(HOME_PANEL_LIMIT + 1);
  return limited(rows.map((row) => ({ ...row, courseNames: (JSON.parse(row.courseNames) as string[]).sort((a, b) => compareGerman(a, b)) })));
}

/**
 * The panels `user` may see, for the Berlin day of `now`. Every query starts before the first is
 * awaited: one batch, one round trip.
 */
export async function homePanels(db: Db, user: Pick<User, "roles">, now = new Date()): Promise<HomePanels> {
  const today = todayInBerlin(now);
  const shown = (panel: HomePanel) => maySeeHomePanel(user, panel);
  const week = weekDays(today);
  const rabiesUntil = rabiesWarningUntil(today);
  const since = berlinMidnight(addDaysToDate(today, -PORTAL_CHANGES_DAYS));
  const [courseDates, overCapacity, rabies, birthdays, fees, job, failed, changes, pendingPapers, applications, withdrawals, withoutCard, expiring] =
    await Promise.all([
      shown("courseDates")
        ? comingCourseDates(db, berlinMidnight(today), berlinMidnight(addDaysToDate(today, 2)), HOME_PANEL_LIMIT + 1).then(limited)
        : undefined,
      shown("overCapacity") ? overCapacityCourses(db) : undefined,
      shown("rabies") ? rabiesWarnings(db, rabiesUntil) : undefined,
      shown("birthdays") ? birthdaysOnDays(db, { days: week, scope: "members", limit: HOME_PANEL_LIMIT }) : undefined,
      shown("fees") ? openAndDueFees(db, today) : undefined,
      shown("lastJob") ? lastJob(db) : undefined,
      shown("failedReminders") ? failedReminders(db, HOME_PANEL_LIMIT + 1).then(limited) : undefined,
      shown("portalChanges")
        ? portalChanges(db, { since, limit: HOME_PANEL_LIMIT + 1, withConsents: may(user, "protectedPersonData") }).then(limited)
        : undefined,
      shown("portalChanges") ? pendingPaperCount(db) : 0,
      shown("portalChanges") && mayUse(user, "applications") ? openApplicationCount(db) : 0,
      shown("portalChanges") && mayUse(user, "withdrawals") ? Promise.all([openDeclarationCount(db), openNoticeCount(db)]) : [0, 0],
      shown("cards") ? attendanceWithoutCard(db, HOME_PANEL_LIMIT + 1).then(limited) : undefined,
      shown("cards") ? cardsExpiring(db, today, addDaysToDate(today, CARD_EXPIRY_WARNING_DAYS), HOME_PANEL_LIMIT + 1).then(limited) : undefined,
    ]);
  const panels: HomePanels = { today };
  if (courseDates) panels.courseDates = courseDates;
  if (overCapacity) panels.overCapacity = overCapacity;
  if (rabies) panels.rabies = { ...rabies, until: rabiesUntil };
  if (birthdays) panels.birthdays = { ...birthdays, days: week };
  if (fees) panels.fees = fees;
  if (shown("lastJob")) panels.lastJob = { job: job ?? null };
  if (failed && failed.rows.length > 0) panels.failedReminders = failed;
  const [openWithdrawals, openNotices] = withdrawals;
  if (changes && (changes.rows.length > 0 || pendingPapers > 0 || applications > 0 || openWithdrawals > 0 || openNotices > 0)) {
    panels.portalChanges = { ...changes, pendingPapers, openApplications: applications, openWithdrawals, openNotices };
  }
  if (withoutCard && expiring && (withoutCard.rows.length > 0 || expiring.rows.length > 0)) panels.cards = { withoutCard, expiring };
  return panels;
}
