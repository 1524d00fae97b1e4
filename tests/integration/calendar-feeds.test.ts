/**
 * Kalender-Abos: the ADMIN screen creates and renews the secret feed addresses; the public feed
 * GET /feeds/{token}.ics is read back with a real iCalendar parser (ical.js, running here inside
 * workerd): local times across the change to summer time, a trainer's trained and co-trained
 * courses, escaping and folding, the 12-month window, and 404 for every token that is not (or no
 * longer) valid. Non-admins neither see the screen nor can post to it. The address is shown once,
 * in the answer to the post that makes it: the database keeps only the token's hash (issue 29).
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie, type DemoUserName } from "../support/sessions";

const db = createDb(env.DB);

// A course name and a comment that need escaping (comma, semicolon, backslash) and are not ASCII.
const COURSE_NAME = "Welpen; Spiel, Spaß & Übung – Gruppe \\A";
const COMMENT = "Bitte Leckerlis, Decke; Wasser mitbringen. Treffpunkt am Tor „Süd“ – nicht am Haupteingang! 🐕 Danke.";
const OTHER_COURSE = "Agility für Ältere";

/** The Monday before and after next year's change to summer time (last Sunday of March). */
function mondaysAroundSummerTime() {
  const year = new Date().getUTCFullYear() + 1;
  const lastSunday = 31 - new Date(Date.UTC(year, 2, 31)).getUTCDay();
  return { year, before: lastSunday - 6, after: lastSunday + 1 };
}
const { year: NEXT_YEAR, before: MONDAY_BEFORE, after: MONDAY_AFTER } = mondaysAroundSummerTime();
const iso = (month: number, day: number, hour: number, minute = 0, year = NEXT_YEAR) => new Date(Date.UTC(year, month - 1, day, hour, minute)).toISOString();
const monthsAgo = (months: number) => {
  const date = new Date();
  date.setUTCMonth(date.getUTCMonth() - months);
  return date.toISOString();
};

let kian: number;
let berta: number;
let notTrainer: number;
let welpen: number;
let agility: number;
let finished: number;
const dates = {} as Record<"before" | "after" | "coTrained" | "allDay" | "tooOld" | "lastYear", number>;

beforeAll(async () => {
  await loadDemoData();
  const person = (firstName: string, lastName: string, isTrainer = true) =>
    db.insert(schema.people).values({ firstName, lastName, isTrainer, memberTypeId: 1 }).returning({ id: schema.people.id });
  [[{ id: kian }], [{ id: berta }], [{ id: notTrainer }]] = await Promise.all([
    person("Kian", "Tremmel"),
    person("Berta", "Bäumer"),
    person("Nora", "Nichttrainer", false),
  ]);
  const [location] = await db
    .insert(schema.locations)
    .values({ name: "Hundeplatz Süd, Halle 2", streetNumber: "Wiesenweg 7", zip: "35390", city: "Gießen" })
    .returning({ id: schema.locations.id });
  const course = (name: string, values: Partial<typeof schema.courses.$inferInsert>) =>
    db
      .insert(schema.courses)
      .values({ name, startYear: NEXT_YEAR, statusCode: "RUNNING", ...values })
      .returning({ id: schema.courses.id });
  [[{ id: welpen }], [{ id: agility }], [{ id: finished }]] = await Promise.all([
    course(COURSE_NAME, { trainerId: kian, cotrainerId: berta, locationId: location.id }),
    course(OTHER_COURSE, { trainerId: berta, cotrainerId: kian, locationId: 1 }),
    course("Alter Kurs", { trainerId: kian, statusCode: "FINISHED", startYear: 2024 }),
  ]);
  const date = (values: typeof schema.courseDates.$inferInsert) => db.insert(schema.courseDates).values(values).returning({ id: schema.courseDates.id });
  const inserted = await Promise.all([
    // 18:00 in Berlin: 17:00 UTC in winter time, 16:00 UTC in summer time.
    date({ courseId: welpen, startDateTime: iso(3, MONDAY_BEFORE, 17), endDateTime: iso(3, MONDAY_BEFORE, 18), comments: COMMENT }),
    date({ courseId: welpen, startDateTime: iso(3, MONDAY_AFTER, 16), endDateTime: iso(3, MONDAY_AFTER, 17, 30) }),
    date({ courseId: agility, startDateTime: iso(4, 10, 8, 30), endDateTime: iso(4, 10, 10, 30) }),
    // All day on 12.04. (Berlin): stored as the Berlin midnight instant.
    date({ courseId: agility, startDateTime: iso(4, 11, 22), endDateTime: iso(4, 11, 23), isAllDay: true }),
    date({ courseId: welpen, startDateTime: monthsAgo(13), endDateTime: monthsAgo(13) }),
    date({ courseId: welpen, startDateTime: monthsAgo(11), endDateTime: monthsAgo(11) }),
  ]);
  [dates.before, dates.after, dates.coTrained, dates.allDay, dates.tooOld, dates.lastYear] = inserted.map(([row]) => row.id);
  // A changed date: its SEQUENCE counts the change; LAST-MODIFIED is the later change of date and course.
  await db.update(schema.courses).set({ createdOn: "2026-01-05T08:00:00.000Z" }).where(eq(schema.courses.id, welpen));
  await db
    .update(schema.courseDates)
    .set({ rowVersion: 3, lastModifiedOn: "2026-11-20T09:15:00.000Z", lastModifiedBy: "Anna Admin" })
    .where(eq(schema.courseDates.id, dates.before));
});

const admin = () => loginCookie("admin");
const feedRows = () => db.select().from(schema.calendarFeeds);
/** A page's HTML with React's entities read back (the course name has '&'). */
const decodeEntities = (html: string) => html.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#x27;", "'");

/** The tokens this file was handed, by subject: the database has only their hashes. */
const handedOut = new Map<string, string>();
const tokenOf = async (kind: "COURSE" | "TRAINER", subjectId: number) => handedOut.get(`${kind}:${subjectId}`);

/** The address shown in the answer to a post of 'Neuen Link erzeugen', or null. */
const shownAddress = (html: string) => /value="(http:\/\/localhost\/feeds\/([A-Za-z0-9_-]{43})\.ics)"/.exec(html);

/** Presses 'Neuen Link erzeugen': the answer (its HTML read) and the token it shows, remembered. */
async function makeLink(kind: "COURSE" | "TRAINER", subjectId: number) {
  const response = await postForm("/calendarFeeds", await admin(), { kind, subjectId });
  const html = decodeEntities((await response.text()).replaceAll("<!-- -->", ""));
  const token = shownAddress(html)?.[2];
  if (token) handedOut.set(`${kind}:${subjectId}`, token);
  return { response, html, token };
}
const feed = (token: string | undefined) => fetchApp(`/feeds/${token}.ics`);

type Parsed = { calendar: ICAL.Component; events: Map<string, ICAL.Event>; text: string };
async function parsedFeed(token: string | undefined): Promise<Parsed> {
  const response = await feed(token);
  expect(response.status).toBe(200);
  const text = await response.text();
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = new Map(
    calendar.getAllSubcomponents("vevent").map((component) => [component.getFirstPropertyValue("uid") as string, new ICAL.Event(component)]),
  );
  return { calendar, events, text };
}

describe("the screen Kalender-Abos (ADMIN)", () => {
  it("lists the current courses and the trainers, none with a link yet; finished courses and non-trainers are not offered", async () => {
    const response = await fetchApp("/calendarFeeds", { cookie: await admin() });
    expect(response.status).toBe(200);
    const html = (await response.text()).replaceAll("<!-- -->", "");
    expect(html).toContain('<h1 class="text-2xl font-semibold text-wuff-800">Kalender-Abos</h1>');
    expect(html).toContain(`id="course-${welpen}"`);
    expect(html).toContain(`id="trainer-${kian}"`);
    expect(html).toContain("Kian Tremmel");
    expect(html).not.toContain(`id="course-${finished}"`);
    expect(html).not.toContain(`id="trainer-${notTrainer}"`);
    expect(html).toContain("Noch kein Link");
    expect(html).toContain("Neuen Link erzeugen");
  });

  it("Einstellungen links to it", async () => {
    const html = await (await fetchApp("/configuration", { cookie: await admin() })).text();
    expect(html).toMatch(/<a[^>]*href="\/calendarFeeds"[^>]*>Kalender-Abos<\/a>/);
  });

  it("creates a course's link: the answer shows the address once (to copy) and webcal://, the database keeps only its hash", async () => {
    const { response, html, token } = await makeLink("COURSE", welpen);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(html).toContain(`Kalender-Link für ${COURSE_NAME} ${NEXT_YEAR} erzeugt.`);
    expect(html).toContain("Diese Adresse wird nur jetzt angezeigt");
    // 256 bits, base64url.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(html).toMatch(new RegExp(`<input[^>]*readOnly=""[^>]*value="http://localhost/feeds/${token}\\.ics"`, "i"));
    expect(html).toContain(`href="webcal://localhost/feeds/${token}.ics"`);
    expect(html).toContain(">Abonnieren<");
    const [row] = await feedRows();
    expect(row).toMatchObject({ kind: "COURSE", subjectId: welpen, rowVersion: 1, createdBy: "Anna Admin" });
    expect(Object.keys(row)).not.toContain("token");
    expect(row.tokenHash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row.tokenHash).not.toBe(token);
    // Shown once: the list afterwards says since when there is a link, not where.
    const list = decodeEntities((await (await fetchApp("/calendarFeeds", { cookie: await admin() })).text()).replaceAll("<!-- -->", ""));
    expect(list).not.toContain(token);
    expect(list).not.toContain("/feeds/");
    expect(list).toMatch(new RegExp(`id="course-${welpen}"[\\s\\S]*?Link aktiv seit \\d{2}\\.\\d{2}\\.\\d{4}`));
    expect((await feed(token)).status).toBe(200);
  });

  it("a copy of the database opens no feed: no stored value is a working token", async () => {
    const { results } = await env.DB.prepare("SELECT * FROM calendar_feeds").all<Record<string, unknown>>();
    expect(results.length).toBeGreaterThan(0);
    const token = (await tokenOf("COURSE", welpen))!;
    for (const row of results) {
      expect(Object.values(row)).not.toContain(token);
      for (const value of Object.values(row)) {
        if (typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value)) expect((await feed(value)).status, "stored value as token").toBe(404);
      }
    }
  });

  it("tokens are random: two subjects never share one", async () => {
    await makeLink("TRAINER", kian);
    const tokens = [...handedOut.values()];
    expect(tokens).toHaveLength(2);
    expect(new Set(tokens).size).toBe(tokens.length);
    const hashes = (await feedRows()).map((row) => row.tokenHash);
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it("a hand-made post gets a German 4xx and changes nothing", async () => {
    const before = await feedRows();
    const cases: [Record<string, string | number>, number, string][] = [
      [{}, 400, "Der Link konnte nicht erzeugt werden: Unbekannte Art von Kalender."],
      [{ kind: "DOG", subjectId: 1 }, 400, "Unbekannte Art von Kalender"],
      [{ kind: "COURSE" }, 400, "Es fehlt, für wen der Link ist"],
      [{ kind: "COURSE", subjectId: "abc" }, 400, "Ungültige Nummer"],
      [{ kind: "COURSE", subjectId: 999999 }, 404, "Diesen Kurs gibt es nicht oder er ist abgeschlossen"],
      [{ kind: "COURSE", subjectId: finished }, 404, "Diesen Kurs gibt es nicht oder er ist abgeschlossen"],
      [{ kind: "TRAINER", subjectId: notTrainer }, 404, "keine Trainerin bzw. kein Trainer"],
    ];
    for (const [fields, status, message] of cases) {
      const response = await postForm("/calendarFeeds", await admin(), fields);
      expect(response.status, JSON.stringify(fields)).toBe(status);
      expect(await response.text(), JSON.stringify(fields)).toContain(message);
    }
    expect(await feedRows()).toEqual(before);
  });

  it.each(["staff", "gdpr", "finance"] as DemoUserName[])("as %s: no screen, and a post changes nothing", async (who) => {
    const before = await feedRows();
    const cookie = await loginCookie(who);
    const page = await fetchApp("/calendarFeeds", { cookie });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/");
    for (const fields of [
      { kind: "COURSE", subjectId: welpen },
      { kind: "TRAINER", subjectId: berta },
    ]) {
      const response = await postForm("/calendarFeeds", cookie, fields);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
      expect(toastOf(response)?.message).toContain("Zugriff verweigert.");
    }
    const data = await (await fetchApp("/calendarFeeds.data", { cookie })).text();
    expect(data).not.toContain("/feeds/");
    expect(await feedRows()).toEqual(before);
  });

  it("not logged in: the login, and no change", async () => {
    const before = await feedRows();
    const response = await postForm("/calendarFeeds", "", { kind: "COURSE", subjectId: welpen });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2FcalendarFeeds");
    expect(await feedRows()).toEqual(before);
  });
});

describe("a course's feed", () => {
  let parsed: Parsed;
  beforeAll(async () => {
    parsed = await parsedFeed(await tokenOf("COURSE", welpen));
  });

  it("is public RFC 5545: text/calendar, CRLF, the calendar's properties, no login needed", async () => {
    const response = await feed(await tokenOf("COURSE", welpen));
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    const { calendar, text } = parsed;
    expect(text.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(text.endsWith("\r\nEND:VCALENDAR\r\n")).toBe(true);
    expect(text.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
    expect(calendar.getFirstPropertyValue("prodid")).toBe("-//Wuff//Kalender-Abos//DE");
    expect(calendar.getFirstPropertyValue("calscale")).toBe("GREGORIAN");
    // The calendar's name is escaped TEXT too (a comma would otherwise split it).
    expect(text).toContain(`X-WR-CALNAME:Wuff: Welpen\\; Spiel\\, Spaß & Übung – Gruppe \\\\A ${NEXT_YEAR}`);
  });

  it("carries the VTIMEZONE of Europe/Berlin with its winter and summer rules", () => {
    const zone = parsed.calendar.getFirstSubcomponent("vtimezone")!;
    expect(zone.getFirstPropertyValue("tzid")).toBe("Europe/Berlin");
    const standard = zone.getFirstSubcomponent("standard")!;
    const daylight = zone.getFirstSubcomponent("daylight")!;
    expect(standard.getFirstPropertyValue("tzoffsetto")!.toString()).toBe("+01:00");
    expect(daylight.getFirstPropertyValue("tzoffsetto")!.toString()).toBe("+02:00");
    expect(String(daylight.getFirstPropertyValue("rrule"))).toContain("BYDAY=-1SU");
  });

  it("has the course's dates: 18:00 Berlin before and after the change to summer time", () => {
    const { events } = parsed;
    expect([...events.keys()].sort()).toEqual(
      [`coursedate-${dates.before}@wuff`, `coursedate-${dates.after}@wuff`, `coursedate-${dates.lastYear}@wuff`].sort(),
    );
    for (const [id, hourUtc, endHour, endMinute] of [
      [dates.before, 17, 19, 0],
      [dates.after, 16, 19, 30],
    ] as const) {
      const event = events.get(`coursedate-${id}@wuff`)!;
      expect(event.component.getFirstProperty("dtstart")!.getParameter("tzid")).toBe("Europe/Berlin");
      expect(event.startDate.zone?.tzid).toBe("Europe/Berlin");
      expect([event.startDate.hour, event.startDate.minute]).toEqual([18, 0]);
      expect([event.endDate.hour, event.endDate.minute]).toEqual([endHour, endMinute]);
      expect(event.startDate.isDate).toBe(false);
      // The parser's own time-zone arithmetic lands on the stored instant.
      expect(event.startDate.toJSDate().toISOString()).toBe(
        new Date(Date.UTC(NEXT_YEAR, 2, id === dates.before ? MONDAY_BEFORE : MONDAY_AFTER, hourUtc)).toISOString(),
      );
    }
    expect(parsed.text).toContain(`DTSTART;TZID=Europe/Berlin:${NEXT_YEAR}03${String(MONDAY_BEFORE).padStart(2, "0")}T180000\r\n`);
    expect(parsed.text).toContain(`DTSTART;TZID=Europe/Berlin:${NEXT_YEAR}03${String(MONDAY_AFTER).padStart(2, "0")}T180000\r\n`);
  });

  it("summary, location, description, sequence and last change survive the round trip (escaped and folded)", () => {
    const event = parsed.events.get(`coursedate-${dates.before}@wuff`)!;
    expect(event.summary).toBe(COURSE_NAME);
    expect(event.location).toBe("Hundeplatz Süd, Halle 2, Wiesenweg 7, 35390 Gießen");
    expect(event.description).toBe(`Trainer: Kian Tremmel\nCo-Trainer: Berta Bäumer\n${COMMENT}`);
    expect(event.sequence).toBe(2);
    expect(event.component.getFirstPropertyValue("last-modified")!.toString()).toBe("2026-11-20T09:15:00Z");
    expect(event.component.getFirstPropertyValue("dtstamp")!.toString()).toBe("2026-11-20T09:15:00Z");
    // Escaped on the wire, folded at 75 octets without breaking a character.
    expect(parsed.text).toContain("SUMMARY:Welpen\\; Spiel\\, Spaß & Übung – Gruppe \\\\A\r\n");
    const lines = parsed.text.split("\r\n").slice(0, -1);
    expect(lines.some((line) => line.startsWith(" "))).toBe(true);
    for (const line of lines) {
      expect(new TextEncoder().encode(line).length, line).toBeLessThanOrEqual(75);
      // No emoji (surrogate pair) cut in two by a fold.
      expect(line, line).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
    // A fresh date has SEQUENCE 0 and is stamped in UTC.
    expect(parsed.events.get(`coursedate-${dates.after}@wuff`)!.sequence).toBe(0);
    expect(parsed.text).toMatch(/DTSTAMP:\d{8}T\d{6}Z\r\n/);
    expect(parsed.text).not.toMatch(/DTSTAMP:\d{8}T\d{6}\r\n/);
  });

  it("reaches back 12 months: a date of 11 months ago is in, one of 13 months ago is not", () => {
    expect(parsed.events.has(`coursedate-${dates.lastYear}@wuff`)).toBe(true);
    expect(parsed.events.has(`coursedate-${dates.tooOld}@wuff`)).toBe(false);
  });
});

describe("a trainer's feed", () => {
  it("has the dates of the course they train and of the one they co-train, all-day dates as dates", async () => {
    const { calendar, events } = await parsedFeed(await tokenOf("TRAINER", kian));
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("Wuff: Kurse von Kian Tremmel");
    expect([...events.keys()].sort()).toEqual(
      [dates.before, dates.after, dates.lastYear, dates.coTrained, dates.allDay].map((id) => `coursedate-${id}@wuff`).sort(),
    );
    const coTrained = events.get(`coursedate-${dates.coTrained}@wuff`)!;
    expect(coTrained.summary).toBe(OTHER_COURSE);
    expect(coTrained.description).toBe("Trainer: Berta Bäumer\nCo-Trainer: Kian Tremmel");
    expect([coTrained.startDate.hour, coTrained.startDate.minute]).toEqual([10, 30]);
    const allDay = events.get(`coursedate-${dates.allDay}@wuff`)!;
    expect(allDay.startDate.isDate).toBe(true);
    expect(allDay.startDate.toString()).toBe(`${NEXT_YEAR}-04-12`);
    expect(allDay.endDate.toString()).toBe(`${NEXT_YEAR}-04-13`);
  });

  it("answers 404 once the person is no longer a trainer", async () => {
    const token = await tokenOf("TRAINER", kian);
    await db.update(schema.people).set({ isTrainer: false }).where(eq(schema.people.id, kian));
    expect((await feed(token)).status).toBe(404);
    await db.update(schema.people).set({ isTrainer: true }).where(eq(schema.people.id, kian));
    expect((await feed(token)).status).toBe(200);
  });
});

describe("tokens that open nothing", () => {
  it("renewal: a new address, the old one answers 404 at once", async () => {
    const old = await tokenOf("COURSE", welpen);
    expect((await feed(old)).status).toBe(200);
    const { response, html, token: renewed } = await makeLink("COURSE", welpen);
    expect(response.status).toBe(200);
    expect(html).toContain(`Neuer Kalender-Link für ${COURSE_NAME} ${NEXT_YEAR} erzeugt. Der alte Link gilt nicht mehr.`);
    const row = (await feedRows()).find((candidate) => candidate.kind === "COURSE" && candidate.subjectId === welpen)!;
    expect(row).toMatchObject({ rowVersion: 2, lastModifiedBy: "Anna Admin" });
    expect(renewed).not.toBe(old);
    const gone = await feed(old);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(await gone.text()).toBe("Diesen Kalender gibt es nicht (mehr). Bitte frage im Verein nach dem aktuellen Link.");
    expect((await feed(renewed)).status).toBe(200);
    // The trainer's feed is a feed of its own: untouched.
    expect((await feed(await tokenOf("TRAINER", kian))).status).toBe(200);
  });

  it("unknown, malformed, or without .ics: 404", async () => {
    const valid = (await tokenOf("COURSE", welpen))!;
    const flipped = valid.slice(0, -1) + (valid.endsWith("A") ? "B" : "A");
    for (const path of [
      `/feeds/${flipped}.ics`,
      "/feeds/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics",
      "/feeds/kurz.ics",
      `/feeds/${valid}`,
      `/feeds/${valid}.ical`,
      "/feeds/%00.ics",
      `/feeds/${valid}x.ics`,
    ]) {
      const response = await fetchApp(path);
      expect(response.status, path).toBe(404);
    }
  });

  it("a feed whose course is gone answers 404", async () => {
    const [course] = await db.insert(schema.courses).values({ name: "Kurzlebig", startYear: NEXT_YEAR }).returning({ id: schema.courses.id });
    const { token } = await makeLink("COURSE", course.id);
    expect((await feed(token)).status).toBe(200);
    await db.delete(schema.courses).where(eq(schema.courses.id, course.id));
    expect((await feed(token)).status).toBe(404);
  });
});
