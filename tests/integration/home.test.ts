/**
 * The home page (Startseite): what each panel reads (the model asked for a fixed instant, at the
 * edges of a Berlin day, of a week across the turn of the year and of the 30 days of the rabies
 * warning), and the page itself as each role gets it: which panels, in the HTML and in the loader's
 * data, links into their screens, and one round trip to D1 (none for a visitor without a session).
 */
import { env } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { addDaysToDate, berlinWallClockToInstant, formatMoney, todayInBerlin } from "~/lib/format";
import { HOME_PANEL_LIMIT, homePanels } from "~/models/home.server";
import { fetchApp } from "../support/app";
import { DEMO_USERS, loginCookie, type DemoUserName } from "../support/sessions";

const db = createDb(env.DB);
const today = todayInBerlin();
const STATUS = { CONFIRMED: 1, WAITLIST: 2, CANCELLED: 3 } as const;
const admin = DEMO_USERS.admin;

/** The home page's HTML as `who` gets it, without React's text separators. */
const home = async (who: DemoUserName) => (await (await fetchApp("/", { cookie: await loginCookie(who) })).text()).replaceAll("<!-- -->", "");
/** The single-fetch data of the home page (what a client navigation loads). */
const homeData = async (who: DemoUserName) => (await fetchApp("/_root.data", { cookie: await loginCookie(who) })).text();

/** 2026-03-29 00:30 in Berlin (summer time begins that night) is still the 28th in UTC. */
const BERLIN_JUST_AFTER_MIDNIGHT = new Date("2026-03-28T23:30:00.000Z");
/** 2027-01-01 00:30 in Berlin (a Friday): its week runs from Mon 28.12.2026 to Sun 03.01.2027. */
const NEW_YEAR = new Date("2026-12-31T23:30:00.000Z");

let ids: Record<string, number> = {};

/** Rows inserted a few at a time: D1 binds at most 100 variables per statement. */
async function insertAll<Row extends Record<string, unknown>>(insert: (rows: Row[]) => Promise<unknown>, rows: Row[]) {
  for (let start = 0; start < rows.length; start += 5) await insert(rows.slice(start, start + 5));
}

beforeAll(async () => {
  await db.insert(schema.membershipStatuses).values([
    { id: STATUS.CONFIRMED, code: "CONFIRMED", name: "Angemeldet", appliesTo: "COURSE", isFeeTrigger: false },
    { id: STATUS.WAITLIST, code: "WAITLIST", name: "Warteliste", appliesTo: "COURSE" },
    { id: STATUS.CANCELLED, code: "CANCELLED", name: "Abgemeldet", appliesTo: "COURSE" },
  ]);
  const [type] = await db.insert(schema.memberTypes).values({ code: "AKTIV", name: "Aktiv" }).returning({ id: schema.memberTypes.id });
  const person = (lastName: string, values: Partial<typeof schema.people.$inferInsert> = {}) => ({
    firstName: "Test",
    lastName,
    memberTypeId: type.id,
    ...values,
  });
  const people: { id: number; lastName: string }[] = [];
  await insertAll(
    async (rows) => people.push(...(await db.insert(schema.people).values(rows).returning({ id: schema.people.id, lastName: schema.people.lastName }))),
    [
      person("Halter"),
      // Birthdays around the turn of the year 2026/27 (week Mon 28.12. to Sun 03.01.).
      person("Silvester", { isMember: true, dateOfBirth: "1977-12-31" }),
      person("Neujahr", { isMember: true, dateOfBirth: "1980-01-01" }),
      person("Rund", { isMember: true, dateOfBirth: "1977-01-03" }),
      person("Vorwoche", { isMember: true, dateOfBirth: "1990-12-27" }),
      person("Folgewoche", { isMember: true, dateOfBirth: "2000-01-04" }),
      person("Gast", { isMember: false, dateOfBirth: "1985-12-30" }),
      person("Schaltjahr", { isMember: true, dateOfBirth: "2004-02-29" }),
      // This week's birthday for the page itself (the real today).
      person("Geburtstagskind", { isMember: true, dateOfBirth: `1970${today.slice(4)}` }),
    ],
  );
  ids = Object.fromEntries(people.map((row) => [row.lastName, row.id]));
  const owner = ids.Halter;

  const courses = await db
    .insert(schema.courses)
    .values([
      { name: "Welpenkurs Frühling", startYear: 2026, statusCode: "RUNNING", maxDogs: 2 },
      { name: "Agility Anfänger", startYear: 2026, statusCode: "RUNNING", maxDogs: 5 },
      { name: "Alter Kurs", startYear: 2025, statusCode: "FINISHED", maxDogs: 1 },
      { name: "Heutekurs", startYear: 2026, statusCode: "PLANNED", maxDogs: null },
    ])
    .returning({ id: schema.courses.id, name: schema.courses.name });
  for (const course of courses) ids[course.name] = course.id;

  const dogs = await db
    .insert(schema.dogs)
    .values([
      { ownerId: owner, commonName: "Abgelaufen", rabiesValidUntil: "2026-03-28" },
      { ownerId: owner, commonName: "Heuteablauf", rabiesValidUntil: "2026-03-29" },
      { ownerId: owner, commonName: "Dreissig", rabiesValidUntil: "2026-04-28" },
      { ownerId: owner, commonName: "Einunddreissig", rabiesValidUntil: "2026-04-29" },
      { ownerId: owner, commonName: "Ohnedatum", rabiesValidUntil: null },
      { ownerId: owner, commonName: "Abgemeldet", rabiesValidUntil: "2026-01-01" },
      { ownerId: owner, commonName: "Fertigkurs", rabiesValidUntil: "2026-01-01" },
      // Copied at booking: an old date; the dog's own date was renewed since (the later counts).
      { ownerId: owner, commonName: "Erneuert", rabiesValidUntil: "2027-06-01" },
      { ownerId: owner, commonName: "Wartend", rabiesValidUntil: "2026-04-01" },
    ])
    .returning({ id: schema.dogs.id, name: schema.dogs.commonName });
  for (const dog of dogs) ids[dog.name] = dog.id;

  const membership = (course: string, dog: string, statusId: number = STATUS.CONFIRMED, rabiesValidUntil: string | null = null) => ({
    courseId: ids[course],
    personId: owner,
    dogId: ids[dog],
    statusId,
    rabiesValidUntil,
  });
  await insertAll(
    (rows) => db.insert(schema.courseMemberships).values(rows),
    [
      // Welpenkurs: 3 dogs take part (one more waits) on 2 places: over capacity.
      membership("Welpenkurs Frühling", "Abgelaufen"),
      membership("Welpenkurs Frühling", "Heuteablauf"),
      membership("Welpenkurs Frühling", "Dreissig"),
      membership("Welpenkurs Frühling", "Wartend", STATUS.WAITLIST),
      // Agility: 4 of 5 places, one cancelled: not over capacity.
      membership("Agility Anfänger", "Einunddreissig"),
      membership("Agility Anfänger", "Ohnedatum"),
      membership("Agility Anfänger", "Abgelaufen"),
      membership("Agility Anfänger", "Erneuert", STATUS.CONFIRMED, "2026-02-01"),
      membership("Agility Anfänger", "Abgemeldet", STATUS.CANCELLED),
      // A finished course, over its one place: neither its dogs nor its places count.
      membership("Alter Kurs", "Fertigkurs"),
      membership("Alter Kurs", "Heuteablauf"),
    ],
  );

  const at = (day: string, hour: number, minute: number) => berlinWallClockToInstant(...(day.split("-").map(Number) as [number, number, number]), hour, minute);
  await db.insert(schema.courseDates).values([
    // Around the night 28./29.03.2026 (summer time begins at 02:00 on the 29th).
    { courseId: ids["Welpenkurs Frühling"], startDateTime: at("2026-03-28", 23, 30), endDateTime: at("2026-03-29", 0, 30) },
    { courseId: ids["Welpenkurs Frühling"], startDateTime: at("2026-03-29", 0, 0), endDateTime: at("2026-03-29", 1, 0) },
    { courseId: ids["Agility Anfänger"], startDateTime: at("2026-03-30", 23, 59), endDateTime: null },
    { courseId: ids["Agility Anfänger"], startDateTime: at("2026-03-31", 0, 0), endDateTime: at("2026-03-31", 1, 0) },
    // The page's own today and tomorrow.
    { courseId: ids.Heutekurs, startDateTime: at(today, 18, 0), endDateTime: at(today, 19, 0) },
    { courseId: ids["Agility Anfänger"], startDateTime: at(addDaysToDate(today, 1), 10, 15), endDateTime: at(addDaysToDate(today, 1), 11, 0) },
  ]);

  // Fees: open, due since yesterday, due today (not yet due), paid.
  await db.insert(schema.fees).values([
    { personId: owner, date: today, text: "Offen", amount: 123_456, openAmount: 123_456 },
    { personId: owner, date: today, text: "Fällig", amount: 2_001, openAmount: 1_001, dueDate: addDaysToDate(today, -1) },
    { personId: owner, date: today, text: "Heute fällig", amount: 500, openAmount: 500, dueDate: today },
    { personId: owner, date: today, text: "Bezahlt", amount: 9_999, openAmount: 0 },
  ]);
  await db.insert(schema.jobs).values([
    { type: "ANNUAL_FEES", status: "DONE", total: 3, done: 3, message: "Alter Lauf", startedOn: "2026-11-01T10:00:00.000Z", createdBy: "Anna Admin" },
    {
      type: "INVOICES",
      status: "DONE",
      total: 12,
      done: 12,
      message: "Fertig! 12 Rechnungen geschrieben",
      startedOn: "2026-11-20T10:00:00.000Z",
      createdBy: "Anna Admin",
    },
  ]);
});

describe("the panels (app/models/home.server.ts)", () => {
  it("today and tomorrow are Berlin days: just after midnight the UTC date is still yesterday's", async () => {
    const panels = await homePanels(db, admin, BERLIN_JUST_AFTER_MIDNIGHT);
    expect(panels.today).toBe("2026-03-29");
    // From 00:00 on the 29th (23:00 UTC on the 28th) to 23:59 on the 30th (summer time): not the 28th's 23:30, not the 31st's midnight.
    expect(panels.courseDates!.rows.map((date) => date.startDateTime)).toEqual(["2026-03-28T23:00:00.000Z", "2026-03-30T21:59:00.000Z"]);
    expect(panels.courseDates!.more).toBe(false);
  });

  it("courses over capacity: running, more dogs taking part than places (the waiting list and cancelled ones do not count)", async () => {
    const panels = await homePanels(db, admin, BERLIN_JUST_AFTER_MIDNIGHT);
    expect(panels.overCapacity!.rows).toEqual([{ id: ids["Welpenkurs Frühling"], name: "Welpenkurs Frühling", maxDogs: 2, actualNrOfDogs: 3 }]);
  });

  it("rabies: expired or running out within 30 days (today and the 30th day included), among dogs taking part in running courses", async () => {
    const panels = await homePanels(db, admin, BERLIN_JUST_AFTER_MIDNIGHT);
    expect(panels.rabies!.until).toBe("2026-04-28");
    expect(panels.rabies!.rows.map((dog) => [dog.dogName, dog.rabiesValidUntil, dog.courseNames])).toEqual([
      ["Abgelaufen", "2026-03-28", ["Agility Anfänger", "Welpenkurs Frühling"]],
      ["Heuteablauf", "2026-03-29", ["Welpenkurs Frühling"]],
      ["Dreissig", "2026-04-28", ["Welpenkurs Frühling"]],
    ]);
    // Not: the 31st day, no date, cancelled, only in a finished course, renewed since booking, on the waiting list.
    expect(panels.rabies!.rows[0]).toMatchObject({ dogId: ids.Abgelaufen, ownerName: "Test Halter" });
  });

  it("rabies: more dogs than rows, the last row's date shared by more: the soonest first, the same date by name (DIN 5007)", async () => {
    // Twelve more dogs in Agility Anfänger: nine expire on 01.04., three on 02.04.; with the three
    // above, the tenth row falls among the 01.04. dogs, which go by name (Ä as A, ß as ss).
    const names = ["Zorro", "Ärgerlich", "Bello", "Aaron", "Strauß", "Strauss", "Mücke", "Muck", "Quirl"];
    const later = ["Anton", "Berta", "Cäsar"];
    const added = await db
      .insert(schema.dogs)
      .values([
        ...names.map((commonName) => ({ ownerId: ids.Halter, commonName, rabiesValidUntil: "2026-04-01" })),
        ...later.map((commonName) => ({ ownerId: ids.Halter, commonName, rabiesValidUntil: "2026-04-02" })),
      ])
      .returning({ id: schema.dogs.id });
    await insertAll(
      (rows) => db.insert(schema.courseMemberships).values(rows),
      added.map((dog) => ({ courseId: ids["Agility Anfänger"], personId: ids.Halter, dogId: dog.id, statusId: STATUS.CONFIRMED })),
    );
    try {
      const panels = await homePanels(db, admin, BERLIN_JUST_AFTER_MIDNIGHT);
      expect(panels.rabies!.rows.map((dog) => dog.dogName)).toEqual([
        "Abgelaufen",
        "Heuteablauf",
        "Aaron",
        "Ärgerlich",
        "Bello",
        "Muck",
        "Mücke",
        "Quirl",
        // Strauss and Strauß have the same key: the earlier dog first.
        "Strauß",
        "Strauss",
      ]);
      expect(panels.rabies!.more).toBe(true);
    } finally {
      await db.delete(schema.courseMemberships).where(
        inArray(
          schema.courseMemberships.dogId,
          added.map((dog) => dog.id),
        ),
      );
      await db.delete(schema.dogs).where(
        inArray(
          schema.dogs.id,
          added.map((dog) => dog.id),
        ),
      );
    }
  });

  it("this week's birthdays from Monday to Sunday across the turn of the year, members only, with the age they turn", async () => {
    const panels = await homePanels(db, admin, NEW_YEAR);
    expect(panels.today).toBe("2027-01-01");
    expect(panels.birthdays!.days[0]).toBe("2026-12-28");
    expect(panels.birthdays!.days.at(-1)).toBe("2027-01-03");
    // (Geburtstagskind has the real today's birthday, which may fall into any week.)
    const rows = panels.birthdays!.rows.filter((person) => person.lastName !== "Geburtstagskind");
    expect(rows.map((person) => [person.lastName, person.next.date, person.next.age, person.next.round])).toEqual([
      ["Silvester", "2026-12-31", 49, false],
      ["Neujahr", "2027-01-01", 47, false],
      ["Rund", "2027-01-03", 50, true],
    ]);
  });

  it("someone born on 29 February has their birthday on the 28th in a year without one", async () => {
    // Sunday 28.02.2027 ends the week from Monday 22.02.
    const panels = await homePanels(db, admin, new Date("2027-02-25T12:00:00.000Z"));
    const rows = panels.birthdays!.rows.filter((person) => person.lastName !== "Geburtstagskind");
    expect(rows.map((person) => [person.lastName, person.next.date, person.next.age])).toEqual([["Schaltjahr", "2027-02-28", 23]]);
  });

  it("open and due fees: the Kontenblatt's rules, exact to the cent (due: open with a due date before today)", async () => {
    const panels = await homePanels(db, admin);
    expect(panels.fees).toEqual({ open: { count: 3, openAmount: 123_456 + 1_001 + 500 }, due: { count: 1, openAmount: 1_001 } });
    expect(panels.lastJob!.job).toMatchObject({ type: "INVOICES", message: "Fertig! 12 Rechnungen geschrieben" });
  });

  it("reads only the panels a role may see", async () => {
    const keys = async (who: DemoUserName) => Object.keys(await homePanels(db, DEMO_USERS[who])).sort();
    expect(await keys("staff")).toEqual(["courseDates", "overCapacity", "rabies", "today"]);
    expect(await keys("gdpr")).toEqual(["birthdays", "courseDates", "overCapacity", "rabies", "today"]);
    expect(await keys("finance")).toEqual(["birthdays", "courseDates", "fees", "overCapacity", "rabies", "today"]);
    expect(await keys("admin")).toEqual(["birthdays", "courseDates", "fees", "lastJob", "overCapacity", "rabies", "today"]);
  });
});

describe("the home page", () => {
  it("shows the admin every panel, each entry a link into its screen", async () => {
    const html = await home("admin");
    expect(html).toContain("Willkommen bei Wuff!");
    expect(html).not.toContain("Du bist noch nicht eingeloggt.");
    expect(html).toContain(">Kurstermine heute und morgen</h2>");
    expect(html).toMatch(new RegExp(`href="/courses\\?selectedCourseId=${ids.Heutekurs}"[^>]*>Heutekurs</a>`));
    expect(html).toContain("18:00–19:00");
    expect(html).toMatch(new RegExp(`href="/courses\\?selectedCourseId=${ids["Welpenkurs Frühling"]}"[^>]*>Welpenkurs Frühling</a>`));
    expect(html).toContain("3 Hunde bei 2 Plätzen");
    expect(html).toMatch(new RegExp(`href="/dogs/${ids.Abgelaufen}"[^>]*>Abgelaufen \\(Test Halter\\)</a>`));
    expect(html).toContain("abgelaufen am 28.03.2026");
    expect(html).toMatch(new RegExp(`href="/people/${ids.Geburtstagskind}"[^>]*>Test Geburtstagskind</a>`));
    expect(html).toContain(`>Offen: ${formatMoney(123_456 + 1_001 + 500)}</a>`);
    expect(html).toContain('href="/fees?state=open"');
    expect(html).toContain(`>Fällig: ${formatMoney(1_001)}</a>`);
    expect(html).toContain('href="/fees?state=due"');
    expect(html).toContain("3 offene Posten");
    expect(html).toMatch(/href="\/tasks"[^>]*>Rechnungen schreiben: fertig<\/a>/);
    expect(html).toContain("Fertig! 12 Rechnungen geschrieben");
  });

  it("staff get the course panels only: no birthdays, no sums, no last run, neither in the page nor in its data", async () => {
    const html = await home("staff");
    expect(html).toContain(">Kurstermine heute und morgen</h2>");
    expect(html).toContain(">Kurse über der Teilnehmerzahl</h2>");
    expect(html).toContain(">Tollwutimpfung läuft ab</h2>");
    for (const text of [
      "Geburtstage diese Woche",
      "Geburtstagskind",
      "Offene Posten",
      "/fees",
      "Letzter Lauf",
      "/tasks",
      "Rechnungen schreiben",
      "12 Rechnungen",
    ]) {
      expect(html, text).not.toContain(text);
    }
    const data = await homeData("staff");
    expect(data).toContain("Kurse über der Teilnehmerzahl");
    for (const text of ["Geburtstagskind", "Offen: ", "/fees", "Letzter Lauf", "/tasks", "12 Rechnungen", "openAmount", "123456"]) {
      expect(data, text).not.toContain(text);
    }
  });

  it("finance get the sums but not the last run (Tasks is ADMIN's); GDPR the birthdays but no sums", async () => {
    const finance = await homeData("finance");
    expect(finance).toContain("Offen: ");
    expect(finance).toContain("Geburtstagskind");
    expect(finance).not.toContain("Letzter Lauf");
    expect(finance).not.toContain("12 Rechnungen");
    const gdpr = await homeData("gdpr");
    expect(gdpr).toContain("Geburtstagskind");
    expect(gdpr).not.toContain("Offen: ");
    expect(gdpr).not.toContain("Letzter Lauf");
    const admin = await homeData("admin");
    expect(admin).toContain("Letzter Lauf");
    expect(admin).toContain("Offen: ");
  });

  it("reads every panel together with the session lookup: one round trip to D1", async () => {
    for (const who of ["admin", "staff"] as DemoUserName[]) {
      const response = await fetchApp("/", { cookie: await loginCookie(who) });
      expect(response.status).toBe(200);
      expect(response.headers.get("Server-Timing"), who).toContain('desc="1 D1-Abfragen"');
    }
  });

  it("a visitor without a session is greeted and nothing is read: no panels, no D1 query", async () => {
    const response = await fetchApp("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("Server-Timing")).toContain('desc="0 D1-Abfragen"');
    const html = (await response.text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Willkommen bei Wuff!");
    expect(html).toContain("Du bist noch nicht eingeloggt.");
    expect(html).not.toContain("Kurstermine heute und morgen");
    expect(html).not.toContain("Heutekurs");
  });

  it("once the session has ended, the signed cookie alone shows nothing", async () => {
    const cookie = await loginCookie("admin");
    await db.delete(schema.sessions);
    const html = (await (await fetchApp("/", { cookie })).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Du bist noch nicht eingeloggt.");
    expect(html).not.toContain("Heutekurs");
    expect(html).not.toContain("Offen: ");
  });

  it("says so in German when a panel is empty, and shows at most 10 rows with 'alle anzeigen'", async () => {
    await db.update(schema.jobs).set({ status: "FAILED" }).where(eq(schema.jobs.type, "INVOICES"));
    const before = await home("admin");
    expect(before).toMatch(/Rechnungen schreiben: fehlgeschlagen/);
    await db.delete(schema.courseDates);
    await db.delete(schema.jobs);
    // Eleven more courses over capacity: ten are shown, the rest behind 'alle anzeigen'.
    const more: { id: number }[] = [];
    const full = Array.from({ length: HOME_PANEL_LIMIT + 1 }, (_, index) => ({
      name: `Voll ${String(index).padStart(2, "0")}`,
      startYear: 2026,
      statusCode: "RUNNING" as const,
      maxDogs: 0,
    }));
    await insertAll(async (rows) => more.push(...(await db.insert(schema.courses).values(rows).returning({ id: schema.courses.id }))), full);
    await insertAll(
      (rows) => db.insert(schema.courseMemberships).values(rows),
      more.map((course) => ({ courseId: course.id, personId: ids.Halter, dogId: ids.Dreissig, statusId: STATUS.CONFIRMED })),
    );
    const html = await home("admin");
    expect(html).toContain("Heute und morgen keine Kurstermine");
    expect(html).toContain("Noch keine Läufe");
    const panel = /data-panel="overCapacity".*?<\/section>/s.exec(html)![0];
    expect(panel.match(/<li/g)).toHaveLength(HOME_PANEL_LIMIT);
    expect(panel).toContain(">Voll 00</a>");
    expect(panel).not.toContain("Welpenkurs Frühling");
    expect(panel).toMatch(/href="\/courses\?status=current&amp;year=all&amp;sort=-actualNrOfDogs"[^>]*>alle anzeigen<\/a>/);
  });
});
