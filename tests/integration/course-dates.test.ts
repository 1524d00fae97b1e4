/**
 * Termine and Kursdaten: the tab of a course and the grouped list, the dialog's defaults (7 days
 * after the last date with its duration, else the course's start for an hour), the end as start
 * plus duration, weekly series across a change to summer time, the rules of the form, delete.
 */
import { env } from "cloudflare:test";
import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
let course: { id: number };
let empty: { id: number };

const page = async (path: string, cookie: string) => (await (await fetchApp(path, { cookie })).text()).replaceAll("<!-- -->", "");
const datesOf = (courseId: number) =>
  db.select().from(schema.courseDates).where(eq(schema.courseDates.courseId, courseId)).orderBy(asc(schema.courseDates.startDateTime));

beforeAll(async () => {
  await loadDemoData();
  [course] = await db
    .insert(schema.courses)
    .values({ name: "Terminkurs", startYear: 2026, nrOfSessions: 6, locationId: 2, startDateTime: "2026-03-02T17:00:00.000Z" })
    .returning({ id: schema.courses.id });
  [empty] = await db
    .insert(schema.courses)
    .values({ name: "Ohne Termine", startYear: 2026, locationId: 3, startDateTime: "2026-06-10T16:30:00.000Z" })
    .returning({ id: schema.courses.id });
  // Two dates of 90 minutes, Monday 18:00 in Berlin (winter time).
  await db.insert(schema.courseDates).values([
    { courseId: course.id, startDateTime: "2026-03-02T17:00:00.000Z", endDateTime: "2026-03-02T18:30:00.000Z", locationId: 1 },
    { courseId: course.id, startDateTime: "2026-03-09T17:00:00.000Z", endDateTime: "2026-03-09T18:30:00.000Z", locationId: 1 },
  ]);
});

const valid = (courseId: number) => ({ intent: "courseDate:save", courseId, startDate: "16.03.2026", startTime: "18:00", duration: "1.5", count: 1 });

describe("Termine of a course and Kursdaten", () => {
  it("the course's tab: 'Termine für '{course}'' with the dates and their weekday", async () => {
    const html = await page(`/courses/${course.id}/coursedates`, await loginCookie("staff"));
    expect(html).toContain('Termine für &#x27;Terminkurs&#x27; <span class="font-normal text-slate-500">(2)</span>');
    expect(html).toContain("02.03.2026 18:00 (Mo.)");
  });

  it("Kursdaten lists every date grouped by course name and start year, with Refresh", async () => {
    const html = await page("/courseDates?dialog=", await loginCookie("staff"));
    expect(html).toMatch(/<h1[^>]*>Kursdaten <span[^>]*>\(\d+\)<\/span><\/h1>/);
    expect(html).toContain(">Aktualisieren<");
    expect(html).toMatch(/Agility Einsteiger 20\d\d \(20\d\d\)/);
  });

  it("a new date defaults to 7 days after the last one with its duration and location", async () => {
    const html = await page(`/courses/${course.id}/coursedates?dialog=courseDate-add&dialogParent=COURSE:${course.id}`, await loginCookie("staff"));
    expect(html).toContain("Termin hinzufügen");
    expect(html).toContain('value="16.03.2026"');
    expect(html).toMatch(/<option value="18:00" selected="">18:00<\/option>/);
    expect(html).toMatch(/<option value="1.5" selected="">1,5 Stunden<\/option>/);
    expect(html).toMatch(/<option value="1" selected="">Hundeplatz Am Stadtwald<\/option>/);
    expect(html).toContain("Ende: 16.03.2026 19:30");
  });

  it("without dates: the course's start for one hour, at the course's location", async () => {
    const html = await page(`/courses/${empty.id}/coursedates?dialog=courseDate-add&dialogParent=COURSE:${empty.id}`, await loginCookie("staff"));
    expect(html).toContain('value="10.06.2026"');
    expect(html).toMatch(/<option value="18:30" selected="">18:30<\/option>/);
    expect(html).toMatch(/<option value="1" selected="">1 Stunde<\/option>/);
    expect(html).toMatch(/<option value="3" selected="">Stadtpark, Treffpunkt Parkplatz<\/option>/);
  });

  it("adds a date whose end is start plus duration; the course counts it", async () => {
    const response = await postForm(`/courses/${course.id}/coursedates`, await loginCookie("staff"), valid(course.id));
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Termin wurde angelegt" });
    const dates = await datesOf(course.id);
    expect(dates).toHaveLength(3);
    expect(dates[2]).toMatchObject({ startDateTime: "2026-03-16T17:00:00.000Z", endDateTime: "2026-03-16T18:30:00.000Z", createdBy: "Sven Mitarbeiter" });
    expect(response.headers.get("Location")).toBe(`/courses/${course.id}/coursedates?date=${dates[2].id}`);
    const courses = await page("/courses?q=Terminkurs", await loginCookie("staff"));
    expect(courses).toContain("3 / 6");
  });

  it("adds a weekly series at the same local time across the change to summer time, leaving out a day", async () => {
    const response = await postForm(`/courses/${course.id}/coursedates`, await loginCookie("staff"), {
      ...valid(course.id),
      startDate: "23.03.2026",
      duration: "1",
      count: 3,
      skip: "30.03.2026",
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe("3 Termine wurden angelegt");
    const starts = (await datesOf(course.id)).slice(3).map((date) => [date.startDateTime, date.endDateTime]);
    // 18:00 in Berlin: 17:00 UTC in winter time, 16:00 UTC in summer time (from 29.03.2026).
    expect(starts).toEqual([
      ["2026-03-23T17:00:00.000Z", "2026-03-23T18:00:00.000Z"],
      ["2026-04-06T16:00:00.000Z", "2026-04-06T17:00:00.000Z"],
      ["2026-04-13T16:00:00.000Z", "2026-04-13T17:00:00.000Z"],
    ]);
  });

  it("edits a date: new time and duration, the course stays", async () => {
    const [first] = await datesOf(course.id);
    const cookie = await loginCookie("staff");
    const form = await page(`/courses/${course.id}/coursedates?dialog=courseDate-edit&dialogId=${first.id}`, cookie);
    expect(form).toContain("Termin bearbeiten");
    expect(form).toContain('value="02.03.2026"');
    const response = await postForm(`/courses/${course.id}/coursedates`, cookie, {
      ...valid(course.id),
      id: first.id,
      rowVersion: first.rowVersion,
      startDate: "02.03.2026",
      startTime: "19:15",
      duration: "0.75",
      comments: "Theorie im Vereinsheim",
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe("Termin wurde gespeichert");
    const [after] = await db.select().from(schema.courseDates).where(eq(schema.courseDates.id, first.id));
    expect(after).toMatchObject({
      startDateTime: "2026-03-02T18:15:00.000Z",
      endDateTime: "2026-03-02T19:00:00.000Z",
      comments: "Theorie im Vereinsheim",
      rowVersion: first.rowVersion + 1,
    });
    const moved = await postForm(`/courses/${course.id}/coursedates`, cookie, { ...valid(empty.id), id: first.id, rowVersion: after.rowVersion });
    expect(moved.status).toBe(400);
    expect(await moved.text()).toContain("Der Kurs eines Termins kann nicht geändert werden");
  });

  it("deletes a date into the bin", async () => {
    const [first] = await datesOf(course.id);
    const cookie = await loginCookie("staff");
    const confirm = await page(`/courses/${course.id}/coursedates?dialog=courseDate-delete&dialogId=${first.id}`, cookie);
    expect(confirm).toContain("Termin 02.03.2026 19:15 löschen");
    expect(confirm).toContain("Bist du sicher?");
    const response = await postForm(`/courses/${course.id}/coursedates`, cookie, { intent: "courseDate:delete", id: first.id });
    expect(toastOf(response)).toMatchObject({ message: "Termin wurde gelöscht", undo: expect.any(Number) });
    expect(await db.$count(schema.courseDates, eq(schema.courseDates.id, first.id))).toBe(0);
  });

  it.each([
    [{ courseId: "" }, "Kurs ist erforderlich"],
    [{ courseId: 999_999 }, "Diesen Kurs gibt es nicht (mehr)"],
    [{ startDate: "" }, "Datum ist erforderlich"],
    [{ startDate: "31.02.2026" }, "Das Datum 31.02.2026 gibt es nicht"],
    [{ startTime: "06:45" }, "Bitte eine Uhrzeit zwischen 07:00 und 22:00 wählen"],
    [{ startTime: "22:15" }, "Bitte eine Uhrzeit zwischen 07:00 und 22:00 wählen"],
    [{ startTime: "18:10" }, "Bitte eine Uhrzeit zwischen 07:00 und 22:00 wählen"],
    [{ startTime: "" }, "Uhrzeit ist erforderlich"],
    [{ duration: "5" }, "Bitte eine der angebotenen Dauern wählen"],
    [{ duration: "0.5" }, "Bitte eine der angebotenen Dauern wählen"],
    [{ comments: "x".repeat(101) }, "Höchstens 100 Zeichen"],
    [{ locationId: 999_999 }, "Diesen Ort gibt es nicht (mehr)"],
    [{ count: 53 }, "Höchstens 52 Termine auf einmal"],
    [{ count: "zwei" }, "Anzahl Termine muss eine Zahl sein"],
    [{ skip: "1.4.2026, 31.04.2026" }, "Das Datum 31.04.2026 gibt es nicht"],
  ])("refuses %j with a German message and changes nothing", async (change, message) => {
    const before = await db.$count(schema.courseDates);
    const response = await postForm(`/courses/${course.id}/coursedates`, await loginCookie("staff"), { ...valid(course.id), ...change });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    expect(await db.$count(schema.courseDates)).toBe(before);
  });

  it("choosing another course in the Kursdaten dialog brings that course's defaults (a draft)", async () => {
    const cookie = await loginCookie("staff");
    const response = await postForm("/courseDates?dialog=courseDate-add", cookie, {
      intent: "courseDate:save",
      choose: "1",
      courseId: empty.id,
      comments: "bleibt",
    });
    expect(response.status).toBe(302);
    const html = await page(response.headers.get("Location")!, cookie);
    expect(html).toContain('value="10.06.2026"');
    expect(html).toContain('value="bleibt"');
  });
});
