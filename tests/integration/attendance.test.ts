/**
 * Anwesenheit: ticking on the mobile Kursblatt (a form post of the state wanted: idempotent), the
 * refusals that change nothing, who may tick, the count 'x von y' over the dates held so far in
 * the participants grid and on the desktop Kursblatt, and the Papierkorb: a deleted date,
 * participant, person, dog or course takes its attendance along and the restore brings it back
 * exactly. Also: the participants grid finds a row's page under every sort.
 */
import { env } from "cloudflare:test";
import { asc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { STATUS_IDS } from "~/db/seed/generate";
import * as schema from "~/db/schema";
import { todayInBerlin } from "~/lib/format";
import { chooseDate, heldUntil } from "~/models/attendances.server";
import { listAllMemberships, listMemberships, pageOfMembership } from "~/models/course-memberships.server";
import { deleteCourse } from "~/models/courses.server";
import { deleteCourseDate } from "~/models/course-dates.server";
import { deleteMembership } from "~/models/course-memberships.server";
import { deleteDog } from "~/models/dogs.server";
import { restoreDeletedRecord, mainRecordOfTransaction } from "~/models/recycle-bin.server";
import { courseMembershipsGrid } from "~/grids/courseMemberships.grid";
import { fetchApp, postForm } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie, type DemoUserName } from "../support/sessions";
import { berlinDayAt } from "../support/dates";

const db = createDb(env.DB);
const actor = { name: "Test" };
const today = todayInBerlin();

/** A course with three dates held (two days ago, yesterday, today) and two to come, and four participants. */
let course: { id: number; dates: number[]; confirmed: number[]; waitlisted: number; cancelled: number };
let otherCourse: { id: number; date: number; membership: number };

const dayAt = berlinDayAt(today);

async function makeCourse(name: string, offsets: number[], statuses: number[]) {
  const [{ id }] = await db
    .insert(schema.courses)
    .values({ name, startYear: Number(today.slice(0, 4)), statusCode: "RUNNING", maxDogs: 8, nrOfSessions: offsets.length, startDateTime: dayAt(offsets[0]) })
    .returning({ id: schema.courses.id });
  const dates = [];
  for (const offset of offsets) {
    const [row] = await db
      .insert(schema.courseDates)
      .values({ courseId: id, startDateTime: dayAt(offset), endDateTime: new Date(Date.parse(dayAt(offset)) + 3_600_000).toISOString() })
      .returning({ id: schema.courseDates.id });
    dates.push(row.id);
  }
  // Dogs in no course yet (so a dog can be deleted with its participation), each with its owner.
  const dogs = await db
    .select({ id: schema.dogs.id, ownerId: schema.dogs.ownerId })
    .from(schema.dogs)
    .where(sql`${schema.dogs.archived} = 0 AND ${schema.dogs.id} NOT IN (SELECT dog_id FROM course_memberships)`)
    .orderBy(schema.dogs.id)
    .limit(statuses.length);
  const memberships = [];
  for (const [index, statusId] of statuses.entries()) {
    const [row] = await db
      .insert(schema.courseMemberships)
      .values({ courseId: id, personId: dogs[index].ownerId, dogId: dogs[index].id, statusId })
      .returning({ id: schema.courseMemberships.id });
    memberships.push(row.id);
  }
  return { id, dates, memberships };
}

beforeAll(async () => {
  await loadDemoData(today);
  const made = await makeCourse(
    "Anwesenheitskurs",
    [-2, -1, 0, 7, 14],
    [STATUS_IDS.CONFIRMED, STATUS_IDS.CONFIRMED, STATUS_IDS.CONFIRMED, STATUS_IDS.WAITLIST, STATUS_IDS.CANCELLED],
  );
  course = { id: made.id, dates: made.dates, confirmed: made.memberships.slice(0, 3), waitlisted: made.memberships[3], cancelled: made.memberships[4] };
  const other = await makeCourse("Anderer Kurs", [-1], [STATUS_IDS.CONFIRMED]);
  otherCourse = { id: other.id, date: other.dates[0], membership: other.memberships[0] };
});

const tick = async (fields: { course?: number; date: number; membership: number; present: 0 | 1 | string }, who: DemoUserName = "staff") =>
  postForm(`/coursesheetmobile?course=${fields.course ?? course.id}&date=${fields.date}`, await loginCookie(who), {
    intent: "attendance",
    course: fields.course ?? course.id,
    date: fields.date,
    membership: fields.membership,
    present: fields.present,
  });

/** The attendance of the two test courses' participants (the demo data has its own). */
const allAttendance = async () => {
  const ours = new Set([...course.confirmed, course.waitlisted, course.cancelled, otherCourse.membership]);
  return (await db.select().from(schema.attendances).orderBy(asc(schema.attendances.id))).filter((row) => ours.has(row.courseMembershipId));
};

describe("pageOfMembership", () => {
  it("finds a row's page under every sortable column of the participants grid", async () => {
    const sortable = courseMembershipsGrid.columns.filter((column) => column.sortable !== false).map((column) => column.id);
    expect(sortable).toContain("rabiesValidUntil");
    const { rows } = await listMemberships(db, { sort: { id: "fullName", descending: false }, page: 1, pageSize: 500 });
    const some = rows.filter((_, index) => index % 37 === 0).map((row) => row.id);
    for (const id of sortable) {
      for (const descending of [false, true]) {
        const sort = { id, descending };
        const ordered = (await listAllMemberships(db, { sort })).map((row) => row.id);
        for (const membershipId of some) {
          expect(await pageOfMembership(db, membershipId, { sort }, 7), `${id} ${descending}`).toBe(Math.floor(ordered.indexOf(membershipId) / 7) + 1);
        }
      }
    }
  });
});

describe("ticking on the mobile Kursblatt", () => {
  it("a tick stores present with who and when; a repeated tick changes nothing", async () => {
    const [date, membership] = [course.dates[1], course.confirmed[0]];
    const first = await tick({ date, membership, present: 1 });
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe(`/coursesheetmobile?course=${course.id}&date=${date}#teilnehmer-${membership}`);
    const [stored] = await db.select().from(schema.attendances).where(eq(schema.attendances.courseMembershipId, membership));
    expect(stored).toMatchObject({ courseDateId: date, present: true, createdBy: "Sven Mitarbeiter", rowVersion: 1, lastModifiedBy: null });
    const again = await tick({ date, membership, present: 1 });
    expect(again.status).toBe(302);
    expect(await allAttendance()).toEqual([stored]);
  });

  it("an untick keeps the row as not present; a repeated untick and an untick of what was never ticked change nothing", async () => {
    const [date, membership] = [course.dates[1], course.confirmed[0]];
    expect((await tick({ date, membership, present: 0 }, "admin")).status).toBe(302);
    const after = await allAttendance();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ present: false, lastModifiedBy: "Anna Admin", rowVersion: 2 });
    await tick({ date, membership, present: 0 });
    await tick({ date: course.dates[0], membership: course.confirmed[1], present: 0 });
    expect(await allAttendance()).toEqual(after);
    // Ticked again: the same row, present once more.
    await tick({ date, membership, present: 1 });
    expect(await allAttendance()).toEqual([
      { ...after[0], present: true, lastModifiedBy: "Sven Mitarbeiter", lastModifiedOn: expect.any(String), rowVersion: 3 },
    ]);
  });

  it("with JavaScript (via=fetch) it answers the state instead of redirecting", async () => {
    const response = await postForm(`/coursesheetmobile?course=${course.id}`, await loginCookie("gdpr"), {
      intent: "attendance",
      course: course.id,
      date: course.dates[2],
      membership: course.confirmed[1],
      present: 1,
      via: "fetch",
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("present");
    const rows = await db.select().from(schema.attendances).where(eq(schema.attendances.courseDateId, course.dates[2]));
    expect(rows.map((row) => [row.courseMembershipId, row.present])).toEqual([[course.confirmed[1], true]]);
  });

  it.each([
    ["an unknown date", () => ({ date: 999_999, membership: course.confirmed[0], present: 1 as const }), 404, "Diesen Kurstermin gibt es nicht (mehr)."],
    ["an unknown participant", () => ({ date: course.dates[0], membership: 999_999, present: 1 as const }), 404, "Diesen Teilnehmer gibt es nicht (mehr)."],
    [
      "a date of another course",
      () => ({ date: otherCourse.date, membership: course.confirmed[0], present: 1 as const }),
      409,
      "Dieser Termin gehört zu einem anderen Kurs.",
    ],
    [
      "a participant of another course",
      () => ({ date: course.dates[0], membership: otherCourse.membership, present: 1 as const }),
      409,
      "Dieser Teilnehmer ist nicht in diesem Kurs.",
    ],
    [
      "the other course's date and participant under this course",
      () => ({ date: otherCourse.date, membership: otherCourse.membership, present: 1 as const }),
      409,
      "Dieser Termin gehört zu einem anderen Kurs.",
    ],
    [
      "a participant on the Warteliste",
      () => ({ date: course.dates[0], membership: course.waitlisted, present: 1 as const }),
      409,
      "Teilnehmer auf der Warteliste",
    ],
    ["an abgemeldet participant", () => ({ date: course.dates[0], membership: course.cancelled, present: 1 as const }), 409, "abgemeldete Teilnehmer"],
    ["a date not held yet", () => ({ date: course.dates[3], membership: course.confirmed[0], present: 1 as const }), 409, "noch nicht stattgefunden"],
    ["no present flag", () => ({ date: course.dates[0], membership: course.confirmed[0], present: "ja" }), 400, "ob anwesend"],
    ["a broken id", () => ({ date: "1x" as unknown as number, membership: course.confirmed[0], present: 1 as const }), 400, "braucht Kurs, Termin"],
  ])("refuses %s in German and changes nothing", async (_, fields, status, message) => {
    const before = await allAttendance();
    const response = await tick(fields());
    expect(response.status).toBe(status);
    expect((await response.text()).replaceAll("<!-- -->", "")).toContain(message);
    expect(await allAttendance()).toEqual(before);
  });

  it("asks for the login without a session and stores nothing", async () => {
    const before = await allAttendance();
    const response = await fetchApp(`/coursesheetmobile?course=${course.id}`, {
      method: "POST",
      body: new URLSearchParams({
        intent: "attendance",
        course: String(course.id),
        date: String(course.dates[0]),
        membership: String(course.confirmed[2]),
        present: "1",
      }),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    expect(await allAttendance()).toEqual(before);
  });
});

describe("what the pages show", () => {
  it("the mobile Kursblatt preselects today's date, shows the ticks and the count, in one D1 round trip", async () => {
    const response = await fetchApp(`/coursesheetmobile?course=${course.id}`, { cookie: await loginCookie("staff") });
    const html = (await response.text()).replaceAll("<!-- -->", "");
    expect(response.headers.get("Server-Timing")).toContain('desc="1 D1-Abfragen"');
    // Today's date (index 2) is chosen: the second participant is ticked there (the fetch test).
    expect(html).toMatch(new RegExp(`<option value="${course.dates[2]}" selected="">[^<]*\\(heute\\)</option>`));
    expect(html).toContain("1 von 3 anwesend");
    expect(html).toContain('aria-pressed="true"');
    expect(html).toContain("Warteliste: nimmt nicht teil");
  });

  it("chooses the date: asked for, else today's, else the nearest coming, else the last one", () => {
    const dates = [-3, -1, 2, 5].map((offset, index) => ({ id: index + 1, startDateTime: dayAt(offset) }));
    expect(chooseDate(dates, 2, today)?.id).toBe(2);
    expect(chooseDate(dates, 99, today)?.id).toBe(3);
    expect(chooseDate([...dates, { id: 9, startDateTime: dayAt(0, 10) }], null, today)?.id).toBe(9);
    expect(chooseDate(dates.slice(0, 2), null, today)?.id).toBe(2);
    expect(chooseDate([], null, today)).toBeNull();
    // Held so far: every date that starts before today ends in Berlin.
    expect(dayAt(0, 23) < heldUntil(today) && dayAt(1, 0) >= heldUntil(today)).toBe(true);
  });

  it("the participants grid shows 'x von y' over the dates held so far only", async () => {
    // Confirmed[0] present on date 1 (yesterday) and, ticked now, on date 0; a tick on a coming date cannot exist.
    await tick({ date: course.dates[0], membership: course.confirmed[0], present: 1 });
    const { rows } = await listMemberships(db, { courseId: course.id, sort: { id: "fullName", descending: false }, page: 1 });
    const text = new Map(rows.map((row) => [row.id, row.attendanceText]));
    expect(text.get(course.confirmed[0])).toBe("2 von 3");
    expect(text.get(course.confirmed[1])).toBe("1 von 3");
    expect(text.get(course.confirmed[2])).toBe("0 von 3");
    // Not taking part and never ticked: no count.
    expect(text.get(course.waitlisted)).toBe("");
    // Sorted by Anwesend: the best attended last when ascending.
    const sorted = await listAllMemberships(db, { courseId: course.id, sort: { id: "attendanceText", descending: true } });
    expect(sorted[0].id).toBe(course.confirmed[0]);
    const html = (await (await fetchApp(`/courses/${course.id}/coursememberships`, { cookie: await loginCookie("staff") })).text()).replaceAll("<!-- -->", "");
    expect(html).toContain(">Anwesend<");
    expect(html).toContain("2 von 3");
  });

  it("the desktop Kursblatt has a column per date held so far with ✓ and the count", async () => {
    const html = (await (await fetchApp(`/courseSheet?course=${course.id}`, { cookie: await loginCookie("staff") })).text()).replaceAll("<!-- -->", "");
    const table = /<table id="attendance-table"[^>]*>(.*?)<\/table>/s.exec(html)?.[1] ?? "";
    expect(table).not.toBe("");
    expect([...table.matchAll(/<th scope="col"/g)]).toHaveLength(3 + 2);
    expect([...table.matchAll(/>✓</g)]).toHaveLength(3);
    expect(table).toContain("2 von 3");
  });
});

describe("the Papierkorb", () => {
  const snapshot = allAttendance;

  it("the delete confirmations say that the attendance goes along", async () => {
    const cookie = await loginCookie("staff");
    const text = async (path: string) => (await (await fetchApp(path, { cookie })).text()).replaceAll("<!-- -->", "");
    expect(await text(`/scheduler?dialog=courseDate-delete&dialogId=${course.dates[0]}`)).toContain("Mit ihm werden auch gelöscht: 1 Anwesenheitseintrag.");
    expect(await text(`/courses/${course.id}/coursememberships?dialog=courseMembership-delete&dialogId=${course.confirmed[0]}`)).toContain(
      "Mit ihm werden auch gelöscht: 2 Anwesenheitseinträge.",
    );
    expect(await text(`/courses?dialog=course-delete&dialogId=${course.id}`)).toMatch(
      /Mit ihm werden auch gelöscht: 5 Teilnehmer, 5 Termine und 3 Anwesenheitseinträge\./,
    );
  });

  it("a deleted date takes its attendance along; the restore brings it back exactly", async () => {
    const before = await snapshot();
    const onDate = before.filter((row) => row.courseDateId === course.dates[0]);
    expect(onDate.length).toBeGreaterThan(0);
    const outcome = await deleteCourseDate(db, course.dates[0], actor);
    expect(outcome.status).toBe("deleted");
    expect((await snapshot()).filter((row) => row.courseDateId === course.dates[0])).toEqual([]);
    const transactionId = (outcome as { transactionId: number }).transactionId;
    const tables = await db
      .select({ tableName: schema.deletedRecords.tableName })
      .from(schema.deletedRecords)
      .where(eq(schema.deletedRecords.transactionId, transactionId));
    expect(tables.map((row) => row.tableName).sort()).toEqual([...Array<string>(onDate.length).fill("attendances"), "course_dates"]);
    expect(await restoreDeletedRecord(db, (await mainRecordOfTransaction(db, transactionId))!.id)).toMatchObject({ status: "restored" });
    expect(await snapshot()).toEqual(before);
  });

  it("a deleted participant takes its attendance along; the restore brings it back exactly", async () => {
    const before = await snapshot();
    const outcome = await deleteMembership(db, course.confirmed[0], actor);
    expect(outcome.status).toBe("deleted");
    expect((await snapshot()).filter((row) => row.courseMembershipId === course.confirmed[0])).toEqual([]);
    const transactionId = (outcome as { transactionId: number }).transactionId;
    expect(await restoreDeletedRecord(db, (await mainRecordOfTransaction(db, transactionId))!.id)).toMatchObject({ status: "restored" });
    expect(await snapshot()).toEqual(before);
  });

  it("a deleted dog (with its participation) takes its attendance along and brings it back", async () => {
    const before = await snapshot();
    const [membership] = await db.select().from(schema.courseMemberships).where(eq(schema.courseMemberships.id, course.confirmed[1]));
    // A dog whose participation carries no fee can be deleted.
    const outcome = await deleteDog(db, membership.dogId, actor);
    expect(outcome.status).toBe("deleted");
    expect((await snapshot()).filter((row) => row.courseMembershipId === course.confirmed[1])).toEqual([]);
    const transactionId = (outcome as { transactionId: number }).transactionId;
    expect(await restoreDeletedRecord(db, (await mainRecordOfTransaction(db, transactionId))!.id)).toMatchObject({ status: "restored" });
    expect(await snapshot()).toEqual(before);
  });

  it("a deleted course takes every attendance of its dates and participants along and brings it back", async () => {
    const before = await snapshot();
    const outcome = await deleteCourse(db, course.id, actor);
    expect(outcome.status).toBe("deleted");
    expect(before.length).toBeGreaterThan(0);
    expect(await snapshot()).toEqual([]);
    const transactionId = (outcome as { transactionId: number }).transactionId;
    expect(await restoreDeletedRecord(db, (await mainRecordOfTransaction(db, transactionId))!.id)).toMatchObject({ status: "restored" });
    expect(await snapshot()).toEqual(before);
  });
});
