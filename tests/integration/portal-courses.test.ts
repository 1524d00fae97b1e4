/**
 * Mein Wuff, Meine Kurse (issue 32 item 5), by requests as a browser sends them: the person's own
 * bookings with next dates and attendance; cancelling within the course type's cut-off (before,
 * after, none configured), as staff cancel (status Abgemeldet, the fee untouched, the home page
 * names it); the person's own calendar feed (only their dates; renewed and deleted links stop at
 * once). Two families: nobody reads or cancels the other's booking by any id.
 */
import { env } from "cloudflare:test";
import { and, desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { addDaysToDate, todayInBerlin } from "~/lib/format";
import { BOOKING_CANCELLED, BOOKING_CHANGED, BOOKING_UNKNOWN, FEED_REVOKED } from "~/lib/portal";
import { cancelState, NOT_CANCELLABLE_HERE, COURSE_OVER } from "~/lib/portal-courses";
import { homePanels } from "~/models/home.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { portalSessionFor } from "../support/portal";
import { DEMO_USERS, loginCookie } from "../support/sessions";
import { berlinDayAt } from "../support/dates";

const db = createDb(env.DB);
const today = todayInBerlin();
const STATUS = { CONFIRMED: 4, WAITLIST: 5, CANCELLED: 6 } as const;
const INVOICED_FEE_LEFT = "Die Kursgebühr ist schon in Rechnung gestellt: Über eine Gutschrift entscheidet der Verein nach seinen Kursbedingungen.";

/** 18:00 Berlin, `offset` days from today. */
const dayAt = berlinDayAt(today);

let anna: number;
let bernd: number;
let berta: number;
let annaCookie: string;
let bertaCookie: string;
/** Anna's bookings (with Bello) and Berta's (with Rex). */
const booking = { started: 0, soon: 0, later: 0, noRule: 0, waitlist: 0, berta: 0 };
let laterFee: number;

const pageText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");
const statusOf = async (id: number) => (await db.select().from(schema.courseMemberships).where(eq(schema.courseMemberships.id, id)))[0];
const cancelPost = async (cookie: string, id: number, rowVersion?: number) =>
  postForm("/mein/kurse", cookie, { intent: "cancel", bookingId: id, rowVersion: rowVersion ?? (await statusOf(id)).rowVersion });

async function course(name: string, masterId: number | null, offsets: number[]) {
  const [{ id }] = await db
    .insert(schema.courses)
    .values({ name, startYear: Number(today.slice(0, 4)), statusCode: "RUNNING", courseMasterId: masterId, locationId: 1, trainerId: trainerId })
    .returning({ id: schema.courses.id });
  const dates: number[] = [];
  for (const offset of offsets) {
    const [row] = await db
      .insert(schema.courseDates)
      .values({ courseId: id, startDateTime: dayAt(offset), endDateTime: dayAt(offset, 19), comments: `Notiz ${name}` })
      .returning({ id: schema.courseDates.id });
    dates.push(row.id);
  }
  return { id, dates };
}

async function book(courseId: number, personId: number, dogId: number, statusId: number) {
  const [row] = await db
    .insert(schema.courseMemberships)
    .values({ courseId, personId, dogId, statusId, amount: 9000 })
    .returning({ id: schema.courseMemberships.id });
  return row.id;
}

let trainerId: number;

beforeAll(async () => {
  await db.insert(schema.memberTypes).values({ id: 1, code: "NONE", name: "Kein Mitglied" }).onConflictDoNothing();
  await db.insert(schema.configuration).values({ id: 1, hsvrmVereinName: "Hundefreunde Portal" }).onConflictDoNothing();
  await db
    .insert(schema.membershipStatuses)
    .values([
      { id: STATUS.CONFIRMED, code: "CONFIRMED", name: "Angemeldet", appliesTo: "COURSE", isFeeTrigger: true },
      { id: STATUS.WAITLIST, code: "WAITLIST", name: "Warteliste", appliesTo: "COURSE" },
      { id: STATUS.CANCELLED, code: "CANCELLED", name: "Abgemeldet", appliesTo: "COURSE" },
    ])
    .onConflictDoNothing();
  await db
    .insert(schema.locations)
    .values({ id: 1, name: "Hundeplatz Am Stadtwald", streetNumber: "Waldweg 12", zip: "35039", city: "Marburg" })
    .onConflictDoNothing();
  [{ id: anna }, { id: bernd }, { id: berta }, { id: trainerId }] = await db
    .insert(schema.people)
    .values([
      { firstName: "Anna", lastName: "Alpha", email: "anna.kurse@example.org", memberTypeId: 1 },
      { firstName: "Bernd", lastName: "Beta", email: "beta.kurse@example.org", memberTypeId: 1 },
      { firstName: "Berta", lastName: "Beta", email: "beta.kurse@example.org", memberTypeId: 1 },
      { firstName: "Tina", lastName: "Trainerin", memberTypeId: 1, isTrainer: true },
    ])
    .returning({ id: schema.people.id });
  const [{ id: bello }, { id: luna }, { id: rex }] = await db
    .insert(schema.dogs)
    .values([
      { ownerId: anna, commonName: "Bello" },
      { ownerId: anna, commonName: "Luna" },
      { ownerId: berta, commonName: "Rex" },
    ])
    .returning({ id: schema.dogs.id });
  const [{ id: sevenDays }, { id: noRule }] = await db
    .insert(schema.courseMasters)
    .values([
      { name: "Sieben Tage", portalCancelDays: 7 },
      { name: "Ohne Portal", portalCancelDays: null },
    ])
    .returning({ id: schema.courseMasters.id });
  const started = await course("Begonnen", sevenDays, [-7, -1, 6]);
  const soon = await course("Bald", sevenDays, [3, 10]);
  const later = await course("Später", sevenDays, [20, 27]);
  const none = await course("Ohne Regel", noRule, [30]);
  const bertas = await course("Nachbarkurs", sevenDays, [15]);
  booking.started = await book(started.id, anna, bello, STATUS.CONFIRMED);
  booking.soon = await book(soon.id, anna, bello, STATUS.CONFIRMED);
  booking.later = await book(later.id, anna, bello, STATUS.CONFIRMED);
  booking.noRule = await book(none.id, anna, bello, STATUS.CONFIRMED);
  booking.waitlist = await book(bertas.id, anna, luna, STATUS.WAITLIST);
  booking.berta = await book(bertas.id, berta, rex, STATUS.CONFIRMED);
  // Attended the first date of 'Begonnen', not the second: 1 von 2.
  await db.insert(schema.attendances).values([
    { courseDateId: started.dates[0], courseMembershipId: booking.started, present: true },
    { courseDateId: started.dates[1], courseMembershipId: booking.started, present: false },
  ]);
  // The course fee of 'Später', already invoiced: the cancellation must leave it alone.
  [{ id: laterFee }] = await db
    .insert(schema.fees)
    .values({
      personId: anna,
      date: today,
      text: "Kursgebühr Später (Bello)",
      amount: 9000,
      openAmount: 9000,
      sendInvoice: true,
      isInvoiced: true,
      courseMembershipId: booking.later,
      kind: "COURSE",
    })
    .returning({ id: schema.fees.id });
  await db.update(schema.courseMemberships).set({ feeId: laterFee }).where(eq(schema.courseMemberships.id, booking.later));
  annaCookie = await portalSessionFor("anna.kurse@example.org");
  bertaCookie = await portalSessionFor("beta.kurse@example.org", berta);
});

describe("the cut-off rule", () => {
  const now = new Date(`${today}T10:00:00.000Z`);
  const base = { statusCode: "CONFIRMED", courseStatusCode: "RUNNING", cancelDays: 7 };
  it("is open until the day `days` before the start, closed after, and never without a rule", () => {
    expect(cancelState({ ...base, courseStart: dayAt(7) }, today, now)).toEqual({ state: "open", until: today });
    expect(cancelState({ ...base, courseStart: dayAt(6) }, today, now)).toMatchObject({ state: "closed" });
    expect(cancelState({ ...base, cancelDays: null, courseStart: dayAt(60) }, today, now)).toEqual({ state: "closed", reason: NOT_CANCELLABLE_HERE });
    expect(cancelState({ ...base, courseStatusCode: "FINISHED", courseStart: dayAt(60) }, today, now)).toEqual({ state: "closed", reason: COURSE_OVER });
    expect(cancelState({ ...base, statusCode: "CANCELLED", courseStart: dayAt(60) }, today, now)).toEqual({ state: "cancelled" });
    expect(cancelState({ ...base, courseStart: null }, today, now)).toEqual({ state: "open", until: null });
  });
  it("with 0 days: the start day itself, but not once the course has begun", () => {
    const start = dayAt(0, 18);
    expect(cancelState({ ...base, cancelDays: 0, courseStart: start }, today, new Date(Date.parse(start) - 60_000))).toEqual({ state: "open", until: today });
    expect(cancelState({ ...base, cancelDays: 0, courseStart: start }, today, new Date(start))).toMatchObject({ state: "closed" });
  });
});

describe("Meine Kurse", () => {
  it("lists the person's own bookings with dog, next dates and attendance; nothing of the other family", async () => {
    const response = await fetchApp("/mein/kurse", { cookie: annaCookie });
    expect(response.status).toBe(200);
    const page = await pageText(response);
    for (const text of [
      "Begonnen mit Bello",
      "Bald mit Bello",
      "Später mit Bello",
      "Ohne Regel mit Bello",
      "Nachbarkurs mit Luna",
      "1 von 2 Terminen besucht",
    ]) {
      expect(page).toContain(text);
    }
    expect(page).toContain("Warteliste");
    expect(page).toContain("Hundeplatz Am Stadtwald");
    expect(page).toContain(`In Mein Wuff stornierbar bis ${addDaysToDate(today, 13).split("-").reverse().join(".")}`);
    expect(page).toContain(NOT_CANCELLABLE_HERE);
    for (const text of ["Rex", "Berta", "Trainerin", "Notiz"]) expect(page).not.toContain(text);
    // Bernd shares Berta's address but sees his own (none), not hers.
    const bernds = await pageText(await fetchApp("/mein/kurse", { cookie: await portalSessionFor("beta.kurse@example.org", bernd) }));
    expect(bernds).toContain("Du hast bei uns noch keinen Kurs gebucht.");
    expect(bernds).not.toContain("Rex");
    // Berta sees hers, not Anna's.
    const bertas = await pageText(await fetchApp("/mein/kurse", { cookie: bertaCookie }));
    expect(bertas).toContain("Nachbarkurs mit Rex");
    expect(bertas).not.toContain("Bello");
  });

  it("refuses after the cut-off and without a rule, in German; nothing changes", async () => {
    for (const id of [booking.soon, booking.started, booking.noRule]) {
      const before = await statusOf(id);
      const response = await cancelPost(annaCookie, id);
      expect(response.status).toBe(409);
      const page = await pageText(response);
      expect(page).toMatch(id === booking.noRule ? NOT_CANCELLABLE_HERE : /Die Frist zum Stornieren in Mein Wuff ist abgelaufen \(bis 7 Tage vor Kursbeginn/);
      expect(await statusOf(id)).toEqual(before);
    }
  });

  it("refuses a stale page and bad input in German; nothing changes", async () => {
    const before = await statusOf(booking.later);
    const stale = await cancelPost(annaCookie, booking.later, before.rowVersion + 5);
    expect(stale.status).toBe(409);
    expect(await pageText(stale)).toContain(BOOKING_CHANGED);
    for (const bookingId of ["abc", "-1", "0", "", "1e3"]) {
      const bad = await postForm("/mein/kurse", annaCookie, { intent: "cancel", bookingId, rowVersion: 1 });
      expect(bad.status, bookingId).toBe(400);
      expect(await pageText(bad)).toContain(BOOKING_UNKNOWN);
    }
    expect(await statusOf(booking.later)).toEqual(before);
  });

  it("cancels before the cut-off as staff do: Abgemeldet, an invoiced fee untouched, the home page names it", async () => {
    const feeBefore = (await db.select().from(schema.fees).where(eq(schema.fees.id, laterFee)))[0];
    const response = await cancelPost(annaCookie, booking.later);
    expect([response.status, response.headers.get("Location"), toastOf(response)?.message]).toEqual([
      302,
      "/mein/kurse",
      BOOKING_CANCELLED("Später", "Bello", INVOICED_FEE_LEFT),
    ]);
    const after = await statusOf(booking.later);
    expect([after.statusId, after.feeId, after.lastModifiedBy]).toEqual([STATUS.CANCELLED, laterFee, "Anna Alpha (Mein Wuff)"]);
    expect((await db.select().from(schema.fees).where(eq(schema.fees.id, laterFee)))[0]).toEqual(feeBefore);
    // The newest history row of the booking (the set-up's own link to the fee came first).
    const history = (
      await db
        .select()
        .from(schema.changeHistory)
        .where(and(eq(schema.changeHistory.tableName, "course_memberships"), eq(schema.changeHistory.recordId, booking.later)))
        .orderBy(desc(schema.changeHistory.id))
    )[0];
    expect(Object.keys(JSON.parse(history.changes!))).toEqual(["status_id"]);
    expect([history.changedBy, history.source]).toEqual(["Anna Alpha (Mein Wuff)", "Mein Wuff"]);
    const panels = await homePanels(db, DEMO_USERS.staff);
    const change = panels.portalChanges!.rows.find((row) => row.tableName === "course_memberships");
    expect(change).toMatchObject({ personId: anna, booking: { courseName: "Später", dogName: "Bello" }, bookingHasFee: true });
    const home = await pageText(await fetchApp("/", { cookie: await loginCookie("staff") }));
    expect(home).toContain("Kursbuchung storniert: Später (Bello), Kursgebühr prüfen (Gutschrift?)");
    // Once cancelled it stays so; the page says Abgemeldet and offers no second cancellation.
    const again = await cancelPost(annaCookie, booking.later);
    expect([again.status, await pageText(again)]).toEqual([409, expect.stringContaining("Diese Buchung ist bereits storniert.")]);
    expect(await pageText(await fetchApp("/mein/kurse", { cookie: annaCookie }))).toContain("Abgemeldet");
  });

  it("cancels a waiting-list booking too; no fee, no credit note asked for", async () => {
    const response = await cancelPost(annaCookie, booking.waitlist);
    expect(response.status).toBe(302);
    expect((await statusOf(booking.waitlist)).statusId).toBe(STATUS.CANCELLED);
  });
});

describe("two families: no portal route reaches the other's bookings", () => {
  it("answers 404 for the other family's booking and an unknown id; nothing changes", async () => {
    const before = await statusOf(booking.berta);
    for (const id of [booking.berta, 999_999]) {
      const response = await postForm("/mein/kurse", annaCookie, { intent: "cancel", bookingId: id, rowVersion: before.rowVersion });
      expect(response.status, String(id)).toBe(404);
    }
    expect(await statusOf(booking.berta)).toEqual(before);
    // Bernd, of Berta's family but acting for himself, cannot cancel hers either.
    const bernds = await portalSessionFor("beta.kurse@example.org", bernd);
    expect((await cancelPost(bernds, booking.berta)).status).toBe(404);
    expect(await statusOf(booking.berta)).toEqual(before);
  });

  it("staff sessions get no answer on /mein/kurse; portal sessions none on staff screens", async () => {
    const staff = await loginCookie("admin");
    const page = await fetchApp("/mein/kurse", { cookie: staff });
    expect([page.status, page.headers.get("Location")]).toEqual([302, "/mein"]);
    const post = await postForm("/mein/kurse", staff, { intent: "cancel", bookingId: booking.berta, rowVersion: 1 });
    expect([post.status, post.headers.get("Location")]).toEqual([302, "/mein"]);
    expect((await fetchApp("/mein/kurse")).status).toBe(302);
    for (const path of ["/courseMasters", "/coursememberships", "/calendarFeeds"]) {
      expect((await fetchApp(path, { cookie: annaCookie })).status, path).toBe(302);
    }
  });
});

describe("the person's calendar feed", () => {
  const feedToken = async (cookie: string) => {
    const response = await postForm("/mein/kurse", cookie, { intent: "feed-renew" });
    expect(response.status).toBe(200);
    return /\/feeds\/([A-Za-z0-9_-]{43})\.ics/.exec(await pageText(response))![1];
  };
  const feed = (token: string) => fetchApp(`/feeds/${token}.ics`, { headers: { "CF-Connecting-IP": `203.0.113.${Math.floor(Math.random() * 200)}` } });

  it("holds only the person's dates of courses they take part in: no other participant, trainer or staff note", async () => {
    const token = await feedToken(annaCookie);
    const response = await feed(token);
    expect([response.status, response.headers.get("Content-Type")]).toEqual([200, "text/calendar; charset=utf-8"]);
    const ics = await response.text();
    expect(ics).toContain("X-WR-CALNAME:Wuff: Meine Kurse");
    for (const text of ["SUMMARY:Begonnen (Bello)", "SUMMARY:Bald (Bello)", "SUMMARY:Ohne Regel (Bello)", "Hundeplatz Am Stadtwald"])
      expect(ics).toContain(text);
    // 'Später' and the waiting list were cancelled; Berta's course is none of Anna's.
    for (const text of ["Später", "Nachbarkurs", "Rex", "Berta", "Trainerin", "Notiz"]) expect(ics).not.toContain(text);
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(6);
    // The page shows since when; the token only once.
    const page = await pageText(await fetchApp("/mein/kurse", { cookie: annaCookie }));
    expect(page).toContain("Dein Kalender-Link ist aktiv seit");
    expect(page).not.toContain(token);
    expect((await db.select().from(schema.portalCalendarFeeds).where(eq(schema.portalCalendarFeeds.personId, anna)))[0].tokenHash).not.toBe(token);
  });

  it("a new link stops the old one; deleting stops it; another person's link shows only theirs", async () => {
    const old = await feedToken(annaCookie);
    const renewed = await feedToken(annaCookie);
    expect((await feed(old)).status).toBe(404);
    expect((await feed(renewed)).status).toBe(200);
    const revoked = await postForm("/mein/kurse", annaCookie, { intent: "feed-revoke" });
    expect([revoked.status, toastOf(revoked)?.message]).toEqual([302, FEED_REVOKED]);
    expect((await feed(renewed)).status).toBe(404);
    const bertas = await (await feed(await feedToken(bertaCookie))).text();
    expect(bertas).toContain("SUMMARY:Nachbarkurs (Rex)");
    expect(bertas).not.toContain("Bello");
    expect(bertas).not.toContain("Luna");
  });
});

describe("Kurs-Typen: the cut-off", () => {
  it("saves 'Stornierung in Mein Wuff bis … Tage vor Kursbeginn', refuses more than a year in German", async () => {
    const admin = await loginCookie("admin");
    const fields = { intent: "courseMaster:save", name: "Agility Portal", costFull: "80,00" };
    const tooLong = await postForm("/courseMasters?dialog=courseMaster-add", admin, { ...fields, portalCancelDays: "400" });
    expect(await pageText(tooLong)).toContain("Die Stornierungsfrist darf höchstens 365 sein");
    expect(await db.select().from(schema.courseMasters).where(eq(schema.courseMasters.name, "Agility Portal"))).toEqual([]);
    const saved = await postForm("/courseMasters?dialog=courseMaster-add", admin, { ...fields, portalCancelDays: "14" });
    expect(saved.status).toBe(302);
    expect((await db.select().from(schema.courseMasters).where(eq(schema.courseMasters.name, "Agility Portal")))[0].portalCancelDays).toBe(14);
    expect(await pageText(await fetchApp("/courseMasters", { cookie: admin }))).toContain("bis 14 Tage vor Kursbeginn");
  });
});
