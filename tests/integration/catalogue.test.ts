/**
 * Kursangebot (issue 33 item 1): the public catalogue lists exactly the courses open for booking
 * (type booked online, not finished, fixed courses before their first date, open groups with a
 * date to come), the next first, with trainer, place, prices per tier, free places or
 * 'Warteliste' and the requirements; filters by type and weekday; one course's page with every
 * date by month; a German 404 for anything else; no login, a minute's copy, a rate limit.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { catalogueFilterOf, isOpenForBooking, monthsOf, placesText, requirementTexts } from "~/lib/catalogue";
import { addDaysToDate, berlinWeekdayOf, todayInBerlin } from "~/lib/format";
import { forgetCatalogue } from "~/services/catalogue.server";
import { cachedJson } from "~/services/edge-cache.server";
import { fetchApp } from "../support/app";
import { berlinDayAt } from "../support/dates";

const db = createDb(env.DB);
const today = todayInBerlin();
const STATUS = { CONFIRMED: 4, WAITLIST: 5 } as const;

/** 18:00 Berlin, `offset` days from today. */
const dayAt = berlinDayAt(today);
/** The ISO weekday of a day `offset` days from today, counted without the code under test. */
const weekdayIn = (offset: number) => {
  const day = new Date(`${addDaysToDate(today, offset)}T12:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
};
const html = async (path: string) => {
  const response = await fetchApp(path, { headers: { "CF-Connecting-IP": `198.51.100.${Math.floor(Math.random() * 250)}` } });
  return { status: response.status, text: (await response.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("\u00a0", " ") };
};

const ids = { puppies: 0, agility: 0, group: 0, desk: 0, started: 0, finished: 0 };

async function course(
  name: string,
  masterId: number,
  offsets: number[],
  options: Partial<typeof schema.courses.$inferInsert> = {},
  participants: number[] = [],
): Promise<number> {
  const [{ id }] = await db
    .insert(schema.courses)
    .values({
      name,
      startYear: 2026,
      statusCode: "PLANNED",
      courseMasterId: masterId,
      locationId: 1,
      trainerId: 1,
      maxDogs: 6,
      costFull: 12000,
      costReduced1: 9000,
      costReduced2: 7500,
      ...options,
    })
    .returning({ id: schema.courses.id });
  for (const offset of offsets) await db.insert(schema.courseDates).values({ courseId: id, startDateTime: dayAt(offset), endDateTime: dayAt(offset, 19) });
  for (const [index, statusId] of participants.entries()) {
    const [{ id: dogId }] = await db
      .insert(schema.dogs)
      .values({ ownerId: 2, commonName: `Hund ${name} ${index}` })
      .returning({ id: schema.dogs.id });
    await db.insert(schema.courseMemberships).values({ courseId: id, personId: 2, dogId, statusId, amount: 9000 });
  }
  return id;
}

beforeAll(async () => {
  await db
    .insert(schema.memberTypes)
    .values([
      { id: 1, code: "NONE", name: "Kein Mitglied", coursePriceTier: "FULL" },
      { id: 2, code: "FULL", name: "Mitglied", coursePriceTier: "REDUCED1" },
      { id: 3, code: "REDUCED", name: "Mitglied ermäßigt", coursePriceTier: "REDUCED1" },
    ])
    .onConflictDoNothing();
  await db
    .insert(schema.membershipStatuses)
    .values([
      { id: STATUS.CONFIRMED, code: "CONFIRMED", name: "Angemeldet", appliesTo: "COURSE", isFeeTrigger: true },
      { id: STATUS.WAITLIST, code: "WAITLIST", name: "Warteliste", appliesTo: "COURSE" },
    ])
    .onConflictDoNothing();
  await db.insert(schema.locations).values({ id: 1, name: "Hundeplatz Am Stadtwald" }).onConflictDoNothing();
  await db.insert(schema.people).values([
    { id: 1, firstName: "Tina", lastName: "Trainerin", memberTypeId: 1, isTrainer: true },
    { id: 2, firstName: "Paula", lastName: "Privat", email: "paula.privat@example.org", memberTypeId: 2 },
  ]);
  const [{ id: puppies }, { id: agility }, { id: group }, { id: desk }] = await db
    .insert(schema.courseMasters)
    .values([
      { name: "Welpen online", onlineBooking: true, minDogAgeWeeks: 8 },
      { name: "Agility online", onlineBooking: true, requiresRabies: true, requiresInsurance: true },
      { name: "Spielgruppe online", onlineBooking: true },
      { name: "Nur am Tresen", onlineBooking: false },
    ])
    .returning({ id: schema.courseMasters.id });
  await db.update(schema.courseMasters).set({ priorCourseMasterId: puppies }).where(eq(schema.courseMasters.id, agility));
  // Full: two places, both taken, and one more dog waiting.
  ids.puppies = await course("Welpen Dezember", puppies, [10, 17], { maxDogs: 2 }, [STATUS.CONFIRMED, STATUS.CONFIRMED, STATUS.WAITLIST]);
  ids.agility = await course("Agility Einsteiger Winter", agility, [3, 10, 17], {}, [STATUS.CONFIRMED, STATUS.WAITLIST]);
  // An open group that began a week ago: booked while it has a date to come.
  ids.group = await course("Spielgruppe Sonntag", group, [-7, 5, 12], {
    statusCode: "RUNNING",
    durationModel: "ONGOING",
    pricingModel: "PER_SESSION",
    costFull: 1500,
    costReduced1: 1000,
  });
  ids.desk = await course("Begleithunde Tresen", desk, [4]);
  // Fixed dates that began yesterday, and a finished course with a date left: neither is offered.
  ids.started = await course("Welpen begonnen", puppies, [-1, 6], { statusCode: "RUNNING" });
  ids.finished = await course("Welpen beendet", puppies, [8], { statusCode: "FINISHED" });
});

beforeEach(async () => {
  await forgetCatalogue();
});

describe("the rules", () => {
  const now = "2026-12-01T10:00:00.000Z";
  it.each([
    [{ onlineBooking: true, statusCode: "PLANNED", durationModel: "FIXED", firstStart: "2026-12-01T10:00:00.000Z", nextStart: null }, true],
    [
      { onlineBooking: true, statusCode: "RUNNING", durationModel: "FIXED", firstStart: "2026-12-01T09:59:59.999Z", nextStart: "2026-12-08T10:00:00.000Z" },
      false,
    ],
    [{ onlineBooking: false, statusCode: "PLANNED", durationModel: "FIXED", firstStart: "2026-12-09T10:00:00.000Z", nextStart: null }, false],
    [
      { onlineBooking: true, statusCode: "FINISHED", durationModel: "ONGOING", firstStart: "2026-11-01T10:00:00.000Z", nextStart: "2026-12-09T10:00:00.000Z" },
      false,
    ],
    [
      { onlineBooking: true, statusCode: "RUNNING", durationModel: "ONGOING", firstStart: "2026-11-01T10:00:00.000Z", nextStart: "2026-12-09T10:00:00.000Z" },
      true,
    ],
    [{ onlineBooking: true, statusCode: "RUNNING", durationModel: "ONGOING", firstStart: "2026-11-01T10:00:00.000Z", nextStart: null }, false],
    [{ onlineBooking: true, statusCode: "PLANNED", durationModel: "FIXED", firstStart: null, nextStart: null }, false],
  ])("open for booking: %j is %s", (course, open) => {
    expect(isOpenForBooking(course, now)).toBe(open);
  });

  it("weekdays are Berlin's: 23:30 UTC on a Saturday in winter and 22:30 UTC in summer are Sundays there", () => {
    expect(berlinWeekdayOf("2026-12-05T23:30:00.000Z")).toBe(7);
    expect(berlinWeekdayOf("2026-07-04T22:30:00.000Z")).toBe(7);
    expect(berlinWeekdayOf("2026-12-07T00:00:00.000Z")).toBe(1);
  });

  it("says places, requirements and months in German; filters in the URL are whole numbers or nothing", () => {
    expect([placesText(null), placesText(0), placesText(1), placesText(12)]).toEqual(["Plätze frei", "Warteliste", "1 Platz frei", "12 Plätze frei"]);
    expect(requirementTexts({ minDogAgeWeeks: 1, requiresRabies: true, requiresInsurance: true, priorCourseName: "Welpen" })).toEqual([
      "Hund am ersten Termin mindestens 1 Woche alt",
      "Tollwutimpfung gültig an allen Terminen",
      "Hundehaftpflichtversicherung gültig an allen Terminen",
      "Vorher besucht: Welpen",
    ]);
    expect(requirementTexts({ minDogAgeWeeks: null, requiresRabies: false, requiresInsurance: false, priorCourseName: null })).toEqual([]);
    // 31 December 23:30 UTC is New Year's Day in Berlin.
    const months = monthsOf([{ start: "2026-12-30T17:00:00.000Z" }, { start: "2026-12-31T23:30:00.000Z" }, { start: "2027-01-06T17:00:00.000Z" }]);
    expect(months.map((month) => [month.label, month.dates.length])).toEqual([
      ["Dezember 2026", 1],
      ["Januar 2027", 2],
    ]);
    expect(catalogueFilterOf(new URLSearchParams("typ=3&tag=7&seite=2"))).toEqual({ typeId: 3, weekday: 7, page: 2 });
    for (const garbage of ["typ=abc&tag=8&seite=x", "typ=-1&tag=0&seite=0", "typ=1e3&tag=2.5&seite=1.5", "typ=&tag=&seite=", "typ=99999999999999999999"])
      expect(catalogueFilterOf(new URLSearchParams(garbage))).toEqual({ typeId: null, weekday: null, page: 1 });
  });
});

describe("/kurse", () => {
  it("lists the courses open for booking, the next first, with what a visitor chooses by; no login needed", async () => {
    const { status, text } = await html("/kurse");
    expect(status).toBe(200);
    expect(text).toContain("<h1");
    expect(text).toContain("Kursangebot");
    const order = ["Agility Einsteiger Winter", "Spielgruppe Sonntag", "Welpen Dezember"].map((name) => text.indexOf(name));
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const hidden of ["Begleithunde Tresen", "Welpen begonnen", "Welpen beendet"]) expect(text).not.toContain(hidden);
    expect(text).toContain("3 Kurse");
    // Prices per tier, named by who pays them; per date for the open group.
    expect(text).toContain("Kein Mitglied: 120,00 €");
    expect(text).toContain("Mitglied und Mitglied ermäßigt: 90,00 €");
    expect(text).toContain("Preis je Termin");
    expect(text).toContain("Mitglied und Mitglied ermäßigt: 10,00 €");
    // Places: a dog waiting holds one (who books now queues behind it); a full course says 'Warteliste'.
    expect(text).toContain("4 Plätze frei");
    expect(text).toMatch(/Welpen Dezember<\/a><\/h2><span[^>]*>Warteliste<\/span>/);
    // Requirements, trainer, place.
    expect(text).toContain("Hund am ersten Termin mindestens 8 Wochen alt");
    expect(text).toContain("Tollwutimpfung gültig an allen Terminen");
    expect(text).toContain("Vorher besucht: Welpen online");
    expect(text).toContain("Tina Trainerin");
    expect(text).toContain("Hundeplatz Am Stadtwald");
    // Nothing personal: no participant, no e-mail address.
    expect(text).not.toContain("Paula");
    expect(text).not.toContain("example.org");
  });

  it("filters by course type and by a weekday of the dates to come; anything else in the URL is no filter", async () => {
    const [puppiesType] = await db.select({ id: schema.courseMasters.id }).from(schema.courseMasters).where(eq(schema.courseMasters.name, "Welpen online"));
    const byType = await html(`/kurse?typ=${puppiesType.id}`);
    expect(byType.text).toContain("Welpen Dezember");
    expect(byType.text).not.toContain("Agility Einsteiger Winter");
    const agilityDay = weekdayIn(3);
    const byDay = await html(`/kurse?tag=${agilityDay}`);
    expect(byDay.text).toContain("Agility Einsteiger Winter");
    // The open group meets 5 and 12 days from today: a weekday other than the Agility's.
    if (weekdayIn(5) !== agilityDay) expect(byDay.text).not.toContain("Spielgruppe Sonntag");
    const none = await html(`/kurse?typ=${puppiesType.id}&tag=${weekdayIn(11)}`);
    expect(none.text).toContain("Kein Kurs passt zu diesen Filtern.");
    for (const garbage of ["?typ=abc", "?tag=9", "?typ=%00&tag=-1", "?typ=999999999"]) {
      const response = await html(`/kurse${garbage}`);
      expect(response.status, garbage).toBe(200);
    }
  });

  it("shows one course with every date to come by month; a course not offered answers 404 in German", async () => {
    const { status, text } = await html(`/kurse/${ids.agility}`);
    expect(status).toBe(200);
    expect(text).toContain("Agility Einsteiger Winter");
    expect(text).toContain("18:00–19:00 Uhr");
    expect(text.match(/18:00–19:00 Uhr/g)!.length).toBeGreaterThanOrEqual(3);
    for (const id of [ids.desk, ids.started, ids.finished, 999_999]) {
      const closed = await html(`/kurse/${id}`);
      expect(closed.status, String(id)).toBe(404);
      expect(closed.text).toContain("Diesen Kurs gibt es im Kursangebot nicht (mehr).");
    }
    for (const garbage of ["abc", "1.5", "-1", "99999999999999999999"]) expect((await html(`/kurse/${garbage}`)).status, garbage).toBe(404);
  });

  it("keeps a minute's copy of the catalogue: a new course shows once the copy is dropped", async () => {
    expect((await html("/kurse")).text).not.toContain("Erste Hilfe Neu");
    const [{ id: master }] = await db
      .select({ id: schema.courseMasters.id })
      .from(schema.courseMasters)
      .where(eq(schema.courseMasters.name, "Spielgruppe online"));
    await course("Erste Hilfe Neu", master, [20]);
    expect((await html("/kurse")).text).not.toContain("Erste Hilfe Neu");
    await forgetCatalogue();
    expect((await html("/kurse")).text).toContain("Erste Hilfe Neu");
    // The copy is computed once while it lives.
    let computed = 0;
    const compute = async () => ++computed;
    expect([await cachedJson("test-key", 60, compute), await cachedJson("test-key", 60, compute)]).toEqual([1, 1]);
  });

  it("shows 20 courses a page, with links to the next and the previous page that keep the filters", async () => {
    const [{ id: type }] = await db
      .insert(schema.courseMasters)
      .values({ name: "Viele online", onlineBooking: true })
      .returning({ id: schema.courseMasters.id });
    for (let index = 0; index < 21; index++) await course(`Viele ${String(index).padStart(2, "0")}`, type, [30 + index]);
    const first = await html(`/kurse?typ=${type}`);
    expect(first.text).toContain("21 Kurse, Seite 1 von 2");
    expect(first.text.match(/<article/g)).toHaveLength(20);
    expect(first.text).toContain(`href="/kurse?typ=${type}&seite=2"`);
    expect(first.text).not.toContain("Vorherige Kurse");
    const second = await html(`/kurse?typ=${type}&seite=2`);
    expect(second.text).toContain("21 Kurse, Seite 2 von 2");
    expect(second.text.match(/<article/g)).toHaveLength(1);
    expect(second.text).toContain("Viele 20");
    expect(second.text).toContain(`href="/kurse?typ=${type}">Vorherige Kurse`);
    expect(second.text).not.toContain("Weitere Kurse");
    // A page beyond the last is the last.
    expect((await html(`/kurse?typ=${type}&seite=99`)).text).toContain("21 Kurse, Seite 2 von 2");
  });

  it("lists more courses than D1 binds parameters in one statement (100), each with its dates", async () => {
    const [{ id: type }] = await db
      .insert(schema.courseMasters)
      .values({ name: "Hundert online", onlineBooking: true })
      .returning({ id: schema.courseMasters.id });
    const names = Array.from({ length: 110 }, (_, index) => `Hundert ${String(index).padStart(3, "0")}`);
    const created = await db.batch(
      names.map((name) =>
        db
          .insert(schema.courses)
          .values({ name, startYear: 2026, statusCode: "PLANNED", courseMasterId: type, locationId: 1, maxDogs: 6, costFull: 5000 })
          .returning({ id: schema.courses.id }),
      ) as [never, ...never[]],
    );
    const courseIds = (created as { id: number }[][]).map(([row]) => row.id);
    await db.batch(
      courseIds.map((courseId, index) =>
        db.insert(schema.courseDates).values({ courseId, startDateTime: dayAt(40 + index), endDateTime: dayAt(40 + index, 19) }),
      ) as [never, ...never[]],
    );
    const page = await html(`/kurse?typ=${type}&seite=6`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("110 Kurse, Seite 6 von 6");
    expect(page.text).toContain("Hundert 109");
    // One course's page among them, with its date: the dates of every course open for booking were read.
    const one = await html(`/kurse/${courseIds[105]}`);
    expect(one.status).toBe(200);
    expect(one.text).toContain("18:00–19:00 Uhr");
  });

  it("is rate-limited per client like every public address", async () => {
    // An address of its own (TEST-NET-3). The limiter counts in fixed minutes: across one change of
    // minute at most 120 get through, so ask until the first 429.
    const ask = () => fetchApp("/kurse", { headers: { "CF-Connecting-IP": "203.0.113.77" } });
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let call = 0; call < 121 && !limited; call++) {
      const response = await ask();
      statuses.push(response.status);
      if (response.status === 429) limited = response;
    }
    expect(statuses.indexOf(429)).toBeGreaterThanOrEqual(60);
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    // Another client is not affected.
    expect((await fetchApp("/kurse", { headers: { "CF-Connecting-IP": "203.0.113.78" } })).status).toBe(200);
    expect(await limited!.text()).toContain("Zu viele Anfragen. Bitte in einer Minute erneut versuchen.");
  });
});
