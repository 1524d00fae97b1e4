/**
 * Kalender (/scheduler): the pure helpers of app/lib/calendar.ts, then the page as a browser
 * without JavaScript gets it: the month with local times across the change to summer time, the
 * week, the list, parameters made by hand, the link that opens a date's dialog and its post.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import {
  buildCalendar,
  calendarParams,
  COURSE_COLORS,
  courseColor,
  daysOfDate,
  monthDays,
  monthGridDays,
  periodTitle,
  shiftDate,
  timeRangeText,
  viewRange,
  weekDays,
  WEEKDAYS,
} from "~/lib/calendar";
import { todayInBerlin } from "~/lib/format";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const params = (query: string) => calendarParams(new URLSearchParams(query), "2026-11-22");

describe("calendar helpers (app/lib/calendar.ts)", () => {
  it("reads view and date from the URL; anything else is the month of today", () => {
    expect(params("view=week&date=2026-03-02")).toEqual({ view: "week", date: "2026-03-02" });
    expect(params("view=list&date=2026-03-02")).toEqual({ view: "list", date: "2026-03-02" });
    expect(params("")).toEqual({ view: "month", date: "2026-11-22" });
    expect(params("view=jahr&date=2026-02-30")).toEqual({ view: "month", date: "2026-11-22" });
    for (const bad of ["02.03.2026", "2026-3-2", "abc", "1999-12-31", "2101-01-01", "0001-01-01", "99999-01-01", "2026-03-02T00:00"]) {
      expect(params(`date=${encodeURIComponent(bad)}`).date, bad).toBe("2026-11-22");
    }
    expect(params("date=2000-01-01").date).toBe("2000-01-01");
    expect(params("date=2100-12-31").date).toBe("2100-12-31");
  });

  it("lays out a month in whole weeks from Monday, and a week from Monday to Sunday", () => {
    // March 2026 begins on a Sunday and ends on a Tuesday: six weeks.
    const grid = monthGridDays("2026-03-15");
    expect(grid).toHaveLength(42);
    expect([grid[0], grid[6], grid[7], grid.at(-1)]).toEqual(["2026-02-23", "2026-03-01", "2026-03-02", "2026-04-05"]);
    // February 2027 begins on a Monday and has 28 days: four weeks exactly.
    expect(monthGridDays("2027-02-10")).toHaveLength(28);
    expect(monthDays("2024-02-01")).toHaveLength(29);
    expect(weekDays("2026-03-04")).toEqual(["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08"]);
    expect(weekDays("2026-03-08")[0]).toBe("2026-03-02");
    expect(weekDays("2026-03-09")[0]).toBe("2026-03-09");
    expect(WEEKDAYS.map((day) => day.short)).toEqual(["Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"]);
  });

  it("covers whole Berlin days, in winter and in summer time", () => {
    expect(viewRange("month", "2026-03-15")).toEqual({ from: "2026-02-22T23:00:00.000Z", to: "2026-04-05T22:00:00.000Z" });
    expect(viewRange("week", "2026-03-25")).toEqual({ from: "2026-03-22T23:00:00.000Z", to: "2026-03-29T22:00:00.000Z" });
    expect(viewRange("list", "2026-03-15")).toEqual({ from: "2026-02-28T23:00:00.000Z", to: "2026-03-31T22:00:00.000Z" });
  });

  it("Zurück and Weiter lead to the 1st of the month or the Monday of the week before and after", () => {
    expect(shiftDate("month", "2026-03-31", -1)).toBe("2026-02-01");
    expect(shiftDate("month", "2026-03-31", 1)).toBe("2026-04-01");
    expect(shiftDate("list", "2026-01-15", -1)).toBe("2025-12-01");
    expect(shiftDate("week", "2026-03-04", 1)).toBe("2026-03-09");
    expect(shiftDate("week", "2026-03-04", -1)).toBe("2026-02-23");
    expect(shiftDate("week", "2026-01-01", -1)).toBe("2025-12-22");
  });

  it("titles in German", () => {
    expect(periodTitle("month", "2026-03-15")).toBe("März 2026");
    expect(periodTitle("list", "2026-12-01")).toBe("Dezember 2026");
    expect(periodTitle("week", "2026-03-04")).toBe("KW 10 · Mo 02.03.–So 08.03.2026");
    expect(periodTitle("week", "2026-01-01")).toBe("KW 1 · Mo 29.12.2025–So 04.01.2026");
  });

  it("writes a date's time range in Berlin time, or 'ganztägig'", () => {
    expect(timeRangeText({ startDateTime: "2026-03-23T17:00:00.000Z", endDateTime: "2026-03-23T18:30:00.000Z", isAllDay: false })).toBe("18:00–19:30");
    expect(timeRangeText({ startDateTime: "2026-03-30T16:00:00.000Z", endDateTime: "2026-03-30T17:00:00.000Z", isAllDay: false })).toBe("18:00–19:00");
    expect(timeRangeText({ startDateTime: "2026-03-30T16:00:00.000Z", endDateTime: null, isAllDay: false })).toBe("18:00");
    expect(timeRangeText({ startDateTime: "2026-03-30T08:00:00.000Z", endDateTime: "2026-03-30T09:00:00.000Z", isAllDay: true })).toBe("ganztägig");
  });

  it("puts a date on every Berlin day it touches", () => {
    // 23:30 UTC is already the next day in Berlin.
    expect(daysOfDate({ startDateTime: "2026-03-02T23:30:00.000Z", endDateTime: null })).toEqual(["2026-03-03"]);
    expect(daysOfDate({ startDateTime: "2026-03-02T21:00:00.000Z", endDateTime: "2026-03-03T01:00:00.000Z" })).toEqual(["2026-03-02", "2026-03-03"]);
    // An end at midnight belongs to the day before.
    expect(daysOfDate({ startDateTime: "2026-03-02T21:00:00.000Z", endDateTime: "2026-03-02T23:00:00.000Z" })).toEqual(["2026-03-02"]);
  });

  it("gives a course the same colour every time, from the palette", () => {
    expect(courseColor(7)).toBe(courseColor(7));
    expect(COURSE_COLORS).toContain(courseColor(12345));
    expect(courseColor(1)).not.toBe(courseColor(2));
  });

  it("builds the month: days in and outside the month, today, dates sorted with all-day first", () => {
    const row = { courseId: 3, courseName: "Kurs", location: null, trainerName: null, isAllDay: false };
    const calendar = buildCalendar({
      view: "month",
      date: "2026-03-15",
      today: "2026-03-02",
      rows: [
        { ...row, id: 1, startDateTime: "2026-03-02T17:00:00.000Z", endDateTime: "2026-03-02T18:00:00.000Z" },
        { ...row, id: 2, startDateTime: "2026-03-02T08:00:00.000Z", endDateTime: null, isAllDay: true },
        { ...row, id: 3, startDateTime: "2026-02-23T17:00:00.000Z", endDateTime: "2026-02-23T18:00:00.000Z" },
      ],
    });
    expect(calendar.title).toBe("März 2026");
    expect([calendar.previous, calendar.next]).toEqual(["2026-02-01", "2026-04-01"]);
    expect(calendar.weeks).toHaveLength(6);
    const [first] = calendar.weeks;
    expect(first[0]).toMatchObject({ day: "2026-02-23", inPeriod: false, dayNumber: "23" });
    expect(first[0].entries.map((entry) => entry.id)).toEqual([3]);
    const monday = calendar.weeks[1][0];
    expect(monday).toMatchObject({ day: "2026-03-02", isToday: true, label: "Montag, 2. März 2026", short: "Mo 02.03." });
    expect(monday.entries.map((entry) => [entry.id, entry.time])).toEqual([
      [2, "ganztägig"],
      [1, "18:00–19:00"],
    ]);
    // Only the month's own dates count and are listed.
    expect(calendar.total).toBe(2);
    expect(calendar.listDays.map((day) => day.day)).toEqual(["2026-03-02"]);
  });
});

const db = createDb(env.DB);
let course: { id: number };
let other: { id: number };
let dates: { id: number; startDateTime: string }[];

const page = async (path: string, cookie: string) => {
  const response = await fetchApp(path, { cookie });
  expect(response.status, path).toBe(200);
  return (await response.text()).replaceAll("<!-- -->", "");
};

beforeAll(async () => {
  await loadDemoData();
  const [noneType] = await db.select({ id: schema.memberTypes.id }).from(schema.memberTypes).where(eq(schema.memberTypes.code, "NONE"));
  const [trainer] = await db
    .insert(schema.people)
    .values({ firstName: "Tina", lastName: "Kalendertrainerin", memberTypeId: noneType.id, isTrainer: true })
    .returning({ id: schema.people.id });
  const [place] = await db.insert(schema.locations).values({ name: "Übungswiese Kalender" }).returning({ id: schema.locations.id });
  [course] = await db
    .insert(schema.courses)
    .values({ name: "Kalenderkurs Mantrailing", startYear: 2026, trainerId: trainer.id, locationId: place.id, startDateTime: "2026-03-02T17:00:00.000Z" })
    .returning({ id: schema.courses.id });
  [other] = await db.insert(schema.courses).values({ name: "Kalenderkurs Seminar", startYear: 2026 }).returning({ id: schema.courses.id });
  // Mondays 18:00 in Berlin for an hour: 17:00 UTC in winter time, 16:00 UTC from 29.03.2026 on.
  dates = await db
    .insert(schema.courseDates)
    .values([
      { courseId: course.id, startDateTime: "2026-03-02T17:00:00.000Z", endDateTime: "2026-03-02T18:00:00.000Z", locationId: place.id },
      { courseId: course.id, startDateTime: "2026-03-09T17:00:00.000Z", endDateTime: "2026-03-09T18:00:00.000Z", locationId: place.id },
      { courseId: course.id, startDateTime: "2026-03-23T17:00:00.000Z", endDateTime: "2026-03-23T18:00:00.000Z", locationId: place.id },
      { courseId: course.id, startDateTime: "2026-03-30T16:00:00.000Z", endDateTime: "2026-03-30T17:00:00.000Z", locationId: place.id },
      { courseId: course.id, startDateTime: "2026-04-13T16:00:00.000Z", endDateTime: "2026-04-13T17:00:00.000Z", locationId: place.id },
      { courseId: other.id, startDateTime: "2026-03-14T08:00:00.000Z", endDateTime: "2026-03-14T09:00:00.000Z", isAllDay: true },
    ])
    .returning({ id: schema.courseDates.id, startDateTime: schema.courseDates.startDateTime });
});

/** The link of a date on a page: to the page itself with the date's edit dialog open. */
const dialogLink = (query: string, id: number) => `href="/scheduler?${query.replaceAll("&", "&amp;")}&amp;dialog=courseDate-edit&amp;dialogId=${id}"`;

describe("Kalender (/scheduler)", () => {
  it("the month: title, weekdays Mo to So, the course's dates at 18:00 before and after the change to summer time", async () => {
    const html = await page("/scheduler?view=month&date=2026-03-15", await loginCookie("staff"));
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    expect(html).toMatch(/<h1[^>]*>Kalender<\/h1>/);
    expect(html).toContain("März 2026");
    expect(html).toContain("<title>Kalender März 2026 – Wuff</title>");
    for (const [short, long] of [
      ["Mo", "Montag"],
      ["Di", "Dienstag"],
      ["Mi", "Mittwoch"],
      ["Do", "Donnerstag"],
      ["Fr", "Freitag"],
      ["Sa", "Samstag"],
      ["So", "Sonntag"],
    ]) {
      expect(html).toContain(`<abbr title="${long}" class="no-underline">${short}</abbr>`);
    }
    // 23.03. (winter time) and 30.03. (summer time since 29.03.): both 18:00–19:00 in Berlin.
    const query = "view=month&date=2026-03-15";
    for (const date of dates.slice(0, 4)) {
      const link = new RegExp(`${dialogLink(query, date.id).replace(/[?]/g, "\\?")}[^>]*>(.*?)</a>`).exec(html);
      expect(link?.[1], date.startDateTime).toContain(">18:00–19:00</span>");
      expect(link?.[1]).toContain(">Kalenderkurs Mantrailing</span>");
      expect(link?.[1]).toContain(">Übungswiese Kalender</span>");
    }
    expect(html).toContain("Montag, 30. März 2026");
    // The all-day seminar, and April's date shown in the grid's trailing week? No: 13.04. is after it.
    expect(html).toMatch(/>ganztägig<\/span> <span[^>]*>Kalenderkurs Seminar<\/span>/);
    expect(html).not.toContain(dialogLink(query, dates[4].id));
    // Both courses carry their colour; the name is always written.
    expect(html).toContain(courseColor(course.id));
    expect(html).toContain(courseColor(other.id));
  });

  it("Zurück, Heute, Weiter and the view switch are links that keep the view and the date", async () => {
    const html = await page("/scheduler?view=month&date=2026-03-15", await loginCookie("staff"));
    expect(html).toMatch(/<a[^>]*href="\/scheduler\?view=month&amp;date=2026-02-01"[^>]*>Zurück<\/a>/);
    expect(html).toMatch(/<a[^>]*href="\/scheduler\?view=month"[^>]*>Heute<\/a>/);
    expect(html).toMatch(/<a[^>]*href="\/scheduler\?view=month&amp;date=2026-04-01"[^>]*>Weiter<\/a>/);
    const month = /<a[^>]*>Monat<\/a>/.exec(html)?.[0];
    expect(month).toContain('href="/scheduler?view=month&amp;date=2026-03-15"');
    expect(month).toContain('aria-current="true"');
    expect(html).toMatch(/<a[^>]*href="\/scheduler\?view=week&amp;date=2026-03-15"[^>]*>Woche<\/a>/);
    expect(html).toMatch(/<a[^>]*href="\/scheduler\?view=list&amp;date=2026-03-15"[^>]*>Liste<\/a>/);
    expect(html.match(/aria-current="true"/g)).toHaveLength(1);

    const april = await page("/scheduler?view=month&date=2026-04-01", await loginCookie("staff"));
    expect(april).toContain("April 2026");
    expect(april).toContain(dialogLink("view=month&date=2026-04-01", dates[4].id));
  });

  it("the week: ?view=week&date=2026-03-02 shows Mo 02.03. to So 08.03. with that week's dates only", async () => {
    const html = await page("/scheduler?view=week&date=2026-03-02", await loginCookie("staff"));
    expect(html).toContain("KW 10 · Mo 02.03.–So 08.03.2026");
    expect(html).toContain('<abbr title="Montag, 2. März 2026" class="no-underline">Mo 02.03.</abbr>');
    expect(html).toContain('<abbr title="Sonntag, 8. März 2026" class="no-underline">So 08.03.</abbr>');
    expect(html).toContain(dialogLink("view=week&date=2026-03-02", dates[0].id));
    expect(html).not.toContain(`dialogId=${dates[1].id}"`);
    expect(html).toContain("Trainer: Tina Kalendertrainerin");
    expect(html).toMatch(/href="\/scheduler\?view=week&amp;date=2026-02-23"[^>]*>Zurück</);
    expect(html).toMatch(/href="\/scheduler\?view=week&amp;date=2026-03-09"[^>]*>Weiter</);
    expect(html).toMatch(/aria-current="true"[^>]*>Woche<\/a>/);

    // The week after the change to summer time: still 18:00.
    const summer = await page("/scheduler?view=week&date=2026-03-30", await loginCookie("staff"));
    expect(summer).toContain("KW 14 · Mo 30.03.–So 05.04.2026");
    expect(summer).toMatch(new RegExp(`dialogId=${dates[3].id}"[^>]*><span[^>]*>18:00–19:00</span>`));
  });

  it("the list: the month's days with dates, each under its German heading", async () => {
    const html = await page("/scheduler?view=list&date=2026-03-01", await loginCookie("staff"));
    expect(html).toMatch(/<h3[^>]*>Montag, 23. März 2026<\/h3>/);
    expect(html).toMatch(/<h3[^>]*>Samstag, 14. März 2026<\/h3>/);
    expect(html).toContain(dialogLink("view=list&date=2026-03-01", dates[3].id));
    expect(html).not.toContain("<table");
    expect(html).toMatch(/aria-current="true"[^>]*>Liste<\/a>/);
    // A month without any date says so.
    const empty = await page("/scheduler?view=list&date=2000-01-01", await loginCookie("staff"));
    expect(empty).toContain("Keine Termine im Januar 2000.");
  });

  it("parameters made by hand fall back to the month of today, never an error", async () => {
    const cookie = await loginCookie("staff");
    const today = periodTitle("month", todayInBerlin());
    for (const query of [
      "view=jahr",
      "date=2026-02-30",
      "date=1899-12-31",
      "date=2101-01-01",
      "date=%3Cscript%3E",
      "view=week&date=morgen",
      "view[]=1&date=",
      "date=2026-03-15&date=x",
    ]) {
      const html = await page(`/scheduler?${query}`, cookie);
      if (query.startsWith("date=2026-03-15")) expect(html, query).toContain("März 2026");
      else if (query.startsWith("view=week")) expect(html, query).toContain("KW ");
      else expect(html, query).toContain(`${today} <span`);
    }
    // Today is marked.
    expect(await page("/scheduler", cookie)).toContain('aria-current="date"');
  });

  it("a date's link opens 'Termin bearbeiten' on the calendar, and saving it comes back to the same view", async () => {
    const cookie = await loginCookie("staff");
    const target = dates[3];
    const html = await page(`/scheduler?view=month&date=2026-03-15&dialog=courseDate-edit&dialogId=${target.id}`, cookie);
    expect(html).toContain("Termin bearbeiten");
    expect(html).toContain('value="30.03.2026"');
    expect(html).toMatch(/<option value="18:00" selected="">18:00<\/option>/);
    // The calendar stays behind it.
    expect(html).toContain(dialogLink("view=month&date=2026-03-15", target.id));

    const [before] = await db.select().from(schema.courseDates).where(eq(schema.courseDates.id, target.id));
    const response = await postForm("/scheduler?view=month&date=2026-03-15&dialog=courseDate-edit&dialogId=" + target.id, cookie, {
      intent: "courseDate:save",
      id: target.id,
      rowVersion: before.rowVersion,
      courseId: course.id,
      startDate: "30.03.2026",
      startTime: "18:30",
      duration: "1",
      locationId: before.locationId ?? undefined,
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Termin wurde gespeichert" });
    expect(response.headers.get("Location")).toBe("/scheduler?view=month&date=2026-03-15");
    const after = await page("/scheduler?view=month&date=2026-03-15", cookie);
    expect(after).toMatch(new RegExp(`dialogId=${target.id}"[^>]*><span[^>]*>18:30–19:30</span>`));
  });

  it("reads the calendar together with the session lookup: one round trip to D1", async () => {
    const response = await fetchApp("/scheduler?view=month&date=2026-03-15", { cookie: await loginCookie("staff") });
    expect(response.status).toBe(200);
    expect(response.headers.get("Server-Timing")).toContain('desc="1 D1-Abfragen"');
  });

  it("an empty post is refused; anonymous visitors are sent to the login and back", async () => {
    const empty = await fetchApp("/scheduler", { method: "POST", cookie: await loginCookie("staff") });
    expect(empty.status).toBe(400);
    const anonymous = await fetchApp("/scheduler?view=week&date=2026-03-02");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirectTo: "/scheduler?view=week&date=2026-03-02" })}`);
    expect((await fetchApp("/scheduler", { method: "POST" })).headers.get("Location")).toBe("/login?redirectTo=%2Fscheduler");
  });
});
