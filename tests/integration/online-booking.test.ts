/**
 * Booking a course in Mein Wuff (issue 33 item 2), by requests as a browser sends them: a signed
 * out visitor is sent to the sign-in and back; a person books for their dog at their member type's
 * price, with the participant, its fee and the accepted text versions written together and a
 * confirmation mail with the dates as ICS; a dog that does not meet the course's requirements, a
 * text published meanwhile, missing consent or someone else's dog change nothing; 20 people
 * booking the last 3 places at once give 3 places and 17 on the waiting list, in order. A place
 * freed in a full course is offered by the cron to the first on its list, mailed once, accepted on
 * the booking page (then a place with its fee), declined, or let lapse and passed on, once.
 */
import { env } from "cloudflare:test";
import { and, asc, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { todayInBerlin } from "~/lib/format";
import { ACCEPT_TEXTS, COURSE_BOOKED, COURSE_WAITLISTED, OFFER_DECLINED, returnPathOf } from "~/lib/portal";
import { ALREADY_BOOKED_ONLINE, OFFER_GONE, TEXTS_CHANGED } from "~/models/online-bookings.server";
import { fetchApp, fireCron as fireCronAt, postForm, toastOf } from "../support/app";
import { berlinDayAt } from "../support/dates";
import { mailsTo, attachmentOf, useTestAccount } from "../support/mail-catcher";
import { portalSessionFor } from "../support/portal";
import { loginCookie } from "../support/sessions";
import { moveOnWaitlist } from "~/models/waitlist.server";
import { NOT_WITHDRAWABLE } from "~/models/portal-courses.server";
import { STALLED_RUNS_CRON } from "~/jobs/index.server";

const db = createDb(env.DB);
const today = todayInBerlin();
const dayAt = berlinDayAt(today);
const STATUS = { CONFIRMED: 4, WAITLIST: 5, CANCELLED: 6 } as const;
const MEMBER_TYPE = { guest: 91, member: 92 } as const;

const pageText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&");
let testAccount: string;
const texts = { TERMS: 0, WITHDRAWAL: 0, PRIVACY: 0 };
const ids = { puppies: 0, agility: 0, last3: 0, paula: 0, bello: 0, youngster: 0, otto: 0, ottoDog: 0 };
let paulaCookie: string;

async function course(name: string, masterId: number, offsets: number[], maxDogs: number | null = 6) {
  const [{ id }] = await db
    .insert(schema.courses)
    .values({
      name,
      startYear: 2026,
      statusCode: "PLANNED",
      courseMasterId: masterId,
      locationId: 1,
      trainerId: 1,
      maxDogs,
      costFull: 12000,
      costReduced1: 9000,
    })
    .returning({ id: schema.courses.id });
  for (const offset of offsets) await db.insert(schema.courseDates).values({ courseId: id, startDateTime: dayAt(offset), endDateTime: dayAt(offset, 19) });
  return id;
}

async function person(firstName: string, email: string, memberTypeId: number = MEMBER_TYPE.member) {
  const [{ id }] = await db.insert(schema.people).values({ firstName, lastName: "Bucher", email, memberTypeId }).returning({ id: schema.people.id });
  return id;
}

async function dog(ownerId: number, commonName: string, values: Partial<typeof schema.dogs.$inferInsert> = {}) {
  const [{ id }] = await db
    .insert(schema.dogs)
    .values({ ownerId, commonName, dateOfBirth: "2024-01-01", rabiesValidUntil: "2030-01-01", insuranceValidUntil: "2030-01-01", ...values })
    .returning({ id: schema.dogs.id });
  return id;
}

const accepted = () => ({ termsId: texts.TERMS, withdrawalId: texts.WITHDRAWAL, privacyId: texts.PRIVACY, accept: true });
const bookingsOf = (courseId: number) =>
  db
    .select({
      id: schema.courseMemberships.id,
      personId: schema.courseMemberships.personId,
      statusId: schema.courseMemberships.statusId,
      feeId: schema.courseMemberships.feeId,
    })
    .from(schema.courseMemberships)
    .where(eq(schema.courseMemberships.courseId, courseId))
    .orderBy(asc(schema.courseMemberships.id));

beforeAll(async () => {
  await db.insert(schema.configuration).values({ id: 1, hsvrmVereinName: "Hundefreunde Buchung" }).onConflictDoNothing();
  testAccount = await useTestAccount("booking");
  await db.insert(schema.memberTypes).values([
    { id: MEMBER_TYPE.guest, code: "BOOKING_GUEST", name: "Gast (Buchung)", coursePriceTier: "FULL" },
    { id: MEMBER_TYPE.member, code: "BOOKING_MEMBER", name: "Mitglied (Buchung)", coursePriceTier: "REDUCED1" },
  ]);
  await db
    .insert(schema.membershipStatuses)
    .values([
      { id: STATUS.CONFIRMED, code: "CONFIRMED", name: "Angemeldet", appliesTo: "COURSE", isFeeTrigger: true },
      { id: STATUS.WAITLIST, code: "WAITLIST", name: "Warteliste", appliesTo: "COURSE" },
      { id: STATUS.CANCELLED, code: "CANCELLED", name: "Abgemeldet", appliesTo: "COURSE" },
    ])
    .onConflictDoNothing();
  await db.insert(schema.locations).values({ id: 1, name: "Hundeplatz Am Stadtwald" }).onConflictDoNothing();
  await db
    .insert(schema.people)
    .values({ id: 1, firstName: "Tina", lastName: "Trainerin", memberTypeId: MEMBER_TYPE.guest, isTrainer: true })
    .onConflictDoNothing();
  for (const kind of ["TERMS", "WITHDRAWAL", "PRIVACY"] as const) {
    const [{ id }] = await db
      .insert(schema.legalTexts)
      .values({ kind, version: 1, body: `Text ${kind}` })
      .onConflictDoUpdate({ target: [schema.legalTexts.kind, schema.legalTexts.version], set: { body: `Text ${kind}` } })
      .returning({ id: schema.legalTexts.id });
    texts[kind] = id;
  }
  const [{ id: puppies }, { id: agility }] = await db
    .insert(schema.courseMasters)
    .values([
      { name: "Welpen buchbar", onlineBooking: true, minDogAgeWeeks: 8 },
      { name: "Agility buchbar", onlineBooking: true, requiresRabies: true, requiresInsurance: true, withdrawalRight: true },
    ])
    .returning({ id: schema.courseMasters.id });
  ids.puppies = await course("Welpen Januar", puppies, [10, 17, 24]);
  ids.agility = await course("Agility Januar", agility, [12, 19]);
  ids.paula = await person("Paula", "paula.bucher@example.org");
  ids.bello = await dog(ids.paula, "Bello");
  // Born three weeks before the first date: too young for a course that asks eight weeks.
  ids.youngster = await dog(ids.paula, "Krümel", { dateOfBirth: today });
  ids.otto = await person("Otto", "otto.bucher@example.org", MEMBER_TYPE.guest);
  ids.ottoDog = await dog(ids.otto, "Rex");
  paulaCookie = await portalSessionFor("paula.bucher@example.org");
});

describe("the way in", () => {
  it("sends a signed-out visitor to the sign-in and keeps only this site's portal paths to come back to", async () => {
    const response = await fetchApp(`/mein/buchen/${ids.puppies}`);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/mein?weiter=${encodeURIComponent(`/mein/buchen/${ids.puppies}`)}`);
    expect(await pageText(await fetchApp(`/mein?weiter=/mein/buchen/${ids.puppies}`))).toContain(`name="weiter" value="/mein/buchen/${ids.puppies}"`);
    expect(
      [
        "/mein/buchen/12",
        "/kurse/3",
        "/mein/buchen/12?angebot=7",
        "//evil.example/mein",
        "https://evil.example",
        "/mein/buchen/12?angebot=//evil.example",
        "/mein/kurse#x",
      ].map(returnPathOf),
    ).toEqual(["/mein/buchen/12", "/kurse/3", "/mein/buchen/12?angebot=7", null, null, null, null]);
    // The offer from the mail of a freed place survives the sign-in.
    const offered = await fetchApp(`/mein/buchen/${ids.puppies}?angebot=5`);
    expect(offered.headers.get("Location")).toBe(`/mein?weiter=${encodeURIComponent(`/mein/buchen/${ids.puppies}?angebot=5`)}`);
  });

  it("leads a family through the choice of person to where it was going", async () => {
    const mother = await person("Mara", "familie.bucher@example.org");
    await person("Mia", "familie.bucher@example.org");
    const cookie = await portalSessionFor("familie.bucher@example.org");
    const signedIn = await fetchApp(`/mein?weiter=${encodeURIComponent("/mein/kurse")}`, { cookie });
    expect(signedIn.headers.get("Location")).toBe(`/mein/wer?weiter=${encodeURIComponent("/mein/kurse")}`);
    const direct = await fetchApp(`/mein/buchen/${ids.puppies}`, { cookie });
    expect(direct.headers.get("Location")).toBe(`/mein/wer?weiter=${encodeURIComponent(`/mein/buchen/${ids.puppies}`)}`);
    expect(await pageText(await fetchApp(`/mein/wer?weiter=${encodeURIComponent("/mein/kurse")}`, { cookie }))).toContain('name="weiter" value="/mein/kurse"');
    const chosen = await postForm("/mein/wer", cookie, { personId: mother, weiter: "/mein/kurse" });
    expect(chosen.headers.get("Location")).toBe("/mein/kurse");
    expect((await postForm("/mein/wer", cookie, { personId: mother, weiter: "https://evil.example" })).headers.get("Location")).toBe("/mein");
  });

  it("shows the course, the person's price, the dogs with what stops one, and the texts to accept", async () => {
    const text = await pageText(await fetchApp(`/mein/buchen/${ids.puppies}`, { cookie: paulaCookie }));
    expect(text).toContain("Welpen Januar buchen");
    expect(text).toContain("Dein Preis: 90,00");
    expect(text).toContain("Krümel ist am ersten Termin");
    expect(text).toContain("Allgemeine Geschäftsbedingungen (AGB), Fassung 1");
    expect(text).toContain("Zahlungspflichtig buchen");
    expect((await fetchApp("/mein/buchen/999999", { cookie: paulaCookie })).status).toBe(404);
  });
});

describe("booking", () => {
  it("writes the place, the fee at the member's price and the accepted versions together, and mails the dates as ICS", async () => {
    const before = (await mailsTo(testAccount)).length;
    const response = await postForm(`/mein/buchen/${ids.puppies}`, paulaCookie, { dog: ids.bello, mode: "book", ...accepted() });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe(COURSE_BOOKED("Welpen Januar", "Bello"));
    const [booked] = await bookingsOf(ids.puppies);
    expect(booked).toMatchObject({ personId: ids.paula, statusId: STATUS.CONFIRMED });
    const [fee] = await db.select().from(schema.fees).where(eq(schema.fees.courseMembershipId, booked.id));
    expect(fee).toMatchObject({
      id: booked.feeId,
      personId: ids.paula,
      amount: 9000,
      openAmount: 9000,
      kind: "COURSE",
      text: "Kursgebühr Welpen Januar (Bello)",
    });
    const [evidence] = await db.select().from(schema.onlineBookings).where(eq(schema.onlineBookings.courseMembershipId, booked.id));
    expect(evidence).toMatchObject({
      act: "BOOKED",
      termsTextId: texts.TERMS,
      withdrawalTextId: texts.WITHDRAWAL,
      privacyTextId: texts.PRIVACY,
      bookedFrom: "local",
      withdrawalRight: false,
    });
    const mails = (await mailsTo(testAccount)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain("Welpen Januar");
    const ics = new TextDecoder().decode(await attachmentOf(mails[0], mails[0].attachments![0].generatedFileName));
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(3);
    // The terms accepted travel with the confirmation (§ 312f Abs. 2 BGB).
    expect(mails[0].attachments!.map((file) => file.filename).sort()).toEqual(["AGB-Fassung-1.txt", "Widerrufsbelehrung-Fassung-1.txt", "termine.ics"]);
    // The same dog again: refused, nothing more written.
    const again = await postForm(`/mein/buchen/${ids.puppies}`, paulaCookie, { dog: ids.bello, mode: "book", ...accepted() });
    expect(again.status).toBe(409);
    expect(await pageText(again)).toContain(ALREADY_BOOKED_ONLINE);
    expect(await bookingsOf(ids.puppies)).toHaveLength(1);
  });

  it("books a new dog entered on the page, and refuses it where the course asks for papers", async () => {
    const response = await postForm(`/mein/buchen/${ids.puppies}`, paulaCookie, {
      dog: "new",
      dogName: "Fiete",
      breed: "Mischling",
      gender: "1",
      dateOfBirth: "01.03.2025",
      mode: "book",
      ...accepted(),
    });
    expect(response.status).toBe(302);
    const [fiete] = await db
      .select()
      .from(schema.dogs)
      .where(and(eq(schema.dogs.ownerId, ids.paula), eq(schema.dogs.commonName, "Fiete")));
    expect(fiete).toMatchObject({ breed: "Mischling", gender: 1, dateOfBirth: "2025-03-01" });
    expect((await bookingsOf(ids.puppies)).length).toBe(2);
    const refused = await postForm(`/mein/buchen/${ids.agility}`, paulaCookie, {
      dog: "new",
      dogName: "Lotte",
      dateOfBirth: "01.03.2025",
      mode: "book",
      ...accepted(),
    });
    expect(refused.status).toBe(409);
    expect(await pageText(refused)).toContain("Für Lotte ist keine gültige Tollwutimpfung nachgewiesen.");
    expect(await db.select().from(schema.dogs).where(eq(schema.dogs.commonName, "Lotte"))).toEqual([]);
  });

  it("changes nothing for a dog too young, missing consent, a text published meanwhile, or someone else's dog", async () => {
    const young = await postForm(`/mein/buchen/${ids.puppies}`, paulaCookie, { dog: ids.youngster, mode: "book", ...accepted() });
    expect(young.status).toBe(409);
    expect(await pageText(young)).toContain("Krümel ist am ersten Termin");
    expect((await bookingsOf(ids.puppies)).length).toBe(2);
    const attempts = [
      [{ dog: ids.bello, mode: "book", ...accepted(), accept: false }, 400, ACCEPT_TEXTS],
      [{ dog: ids.ottoDog, mode: "book", ...accepted() }, 409, "Diesen Hund gibt es bei dir nicht (mehr)."],
      [{ dog: ids.bello, mode: "book", ...accepted(), termsId: texts.TERMS + 1000 }, 409, TEXTS_CHANGED],
      [{ dog: "1 OR 1=1", mode: "book", ...accepted() }, 400, "Bitte wähle einen Hund"],
    ] as const;
    for (const [fields, status, message] of attempts) {
      const response = await postForm(`/mein/buchen/${ids.agility}`, paulaCookie, fields);
      expect(response.status, message).toBe(status);
      expect(await pageText(response)).toContain(message);
    }
    expect(await bookingsOf(ids.agility)).toEqual([]);
  });

  it("keeps the course type's right of withdrawal with the booking and the person's tier: full price for a non-member", async () => {
    const ottoCookie = await portalSessionFor("otto.bucher@example.org");
    expect((await postForm(`/mein/buchen/${ids.agility}`, ottoCookie, { dog: ids.ottoDog, mode: "book", ...accepted() })).status).toBe(302);
    const [booked] = await bookingsOf(ids.agility);
    const [fee] = await db.select().from(schema.fees).where(eq(schema.fees.id, booked.feeId!));
    expect(fee.amount).toBe(12000);
    const [evidence] = await db.select().from(schema.onlineBookings).where(eq(schema.onlineBookings.courseMembershipId, booked.id));
    expect(evidence.withdrawalRight).toBe(true);
  });
});

describe("the last places", () => {
  it("gives 20 people booking the last 3 places at once 3 places and 17 waiting, never more than the course holds", async () => {
    const [{ id: master }] = await db
      .insert(schema.courseMasters)
      .values({ name: "Rally buchbar", onlineBooking: true })
      .returning({ id: schema.courseMasters.id });
    ids.last3 = await course("Rally Februar", master, [20, 27], 5);
    const early = await person("Frida", "frida.bucher@example.org");
    for (const name of ["Alf", "Bobo"]) {
      await db
        .insert(schema.courseMemberships)
        .values({ courseId: ids.last3, personId: early, dogId: await dog(early, name), statusId: STATUS.CONFIRMED, amount: 9000 });
    }
    const bookers = [];
    for (let n = 1; n <= 20; n++) {
      const id = await person(`Person${n}`, `parallel${n}@example.org`);
      bookers.push({ cookie: await portalSessionFor(`parallel${n}@example.org`), dog: await dog(id, `Hund${n}`) });
    }
    const responses = await Promise.all(bookers.map(({ cookie, dog }) => postForm(`/mein/buchen/${ids.last3}`, cookie, { dog, mode: "book", ...accepted() })));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(302));
    const messages = responses.map((response) => toastOf(response)!.message);
    expect(messages.filter((message) => message.startsWith("Gebucht"))).toHaveLength(3);
    const waiting = messages.filter((message) => message.includes("der Warteliste"));
    expect(waiting).toHaveLength(17);
    const rows = (await bookingsOf(ids.last3)).slice(2);
    expect(rows.filter((row) => row.statusId === STATUS.CONFIRMED)).toHaveLength(3);
    expect(rows.filter((row) => row.statusId === STATUS.WAITLIST)).toHaveLength(17);
    // Only the places carry a fee; the waiting list is numbered 1 to 17.
    const fees = await db
      .select()
      .from(schema.fees)
      .where(
        inArray(
          schema.fees.courseMembershipId,
          rows.map((row) => row.id),
        ),
      );
    expect(fees).toHaveLength(3);
    expect(waiting.map((message) => Number(/Platz (\d+) der Warteliste/.exec(message)![1])).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 17 }, (_, index) => index + 1),
    );
    // Full now: the page offers the waiting list, and a booking lands there.
    const full = await pageText(await fetchApp(`/mein/buchen/${ids.last3}`, { cookie: paulaCookie }));
    expect(full).toContain("Auf die Warteliste setzen");
    const late = await postForm(`/mein/buchen/${ids.last3}`, paulaCookie, { dog: ids.bello, mode: "book", ...accepted() });
    expect(toastOf(late)?.message).toBe(COURSE_WAITLISTED("Rally Februar", "Bello", 18));
  });
});

/** The five-minute cron at `at`. */
const fireCron = (at: Date) => fireCronAt(STALLED_RUNS_CRON, at);

const offersOf = (courseId: number) =>
  db
    .select({
      id: schema.waitlistOffers.id,
      membershipId: schema.waitlistOffers.courseMembershipId,
      status: schema.waitlistOffers.status,
      expiresOn: schema.waitlistOffers.expiresOn,
    })
    .from(schema.waitlistOffers)
    .innerJoin(schema.courseMemberships, eq(schema.courseMemberships.id, schema.waitlistOffers.courseMembershipId))
    .where(eq(schema.courseMemberships.courseId, courseId))
    .orderBy(asc(schema.waitlistOffers.id));
const offerMails = async (courseName: string) => (await mailsTo(testAccount)).filter((mail) => mail.subject === `Ein Platz ist frei: ${courseName}`);

/** A course of one place, taken; then `waiting` people each with a dog booking onto its list. */
async function fullCourse(name: string, waiting: string[]) {
  const [{ id: master }] = await db
    .insert(schema.courseMasters)
    .values({ name: `Typ ${name}`, onlineBooking: true })
    .returning({ id: schema.courseMasters.id });
  const courseId = await course(name, master, [15, 22], 1);
  const holder = await person(`Halter ${name}`, `halter.${master}@example.org`);
  const [{ id: place }] = await db
    .insert(schema.courseMemberships)
    .values({ courseId, personId: holder, dogId: await dog(holder, `Platzhund ${name}`), statusId: STATUS.CONFIRMED, amount: 9000 })
    .returning({ id: schema.courseMemberships.id });
  const queue = [];
  for (const [index, firstName] of waiting.entries()) {
    const email = `${firstName.toLowerCase()}.${master}@example.org`;
    const id = await person(firstName, email);
    const cookie = await portalSessionFor(email);
    const dogId = await dog(id, `${firstName}s Hund`);
    const response = await postForm(`/mein/buchen/${courseId}`, cookie, { dog: dogId, mode: "book", ...accepted() });
    expect(toastOf(response)?.message).toBe(COURSE_WAITLISTED(name, `${firstName}s Hund`, index + 1));
    const [membership] = await db
      .select()
      .from(schema.courseMemberships)
      .where(and(eq(schema.courseMemberships.courseId, courseId), eq(schema.courseMemberships.dogId, dogId)));
    queue.push({ cookie, membershipId: membership.id, dogId, dogName: `${firstName}s Hund` });
  }
  return { courseId, place, queue };
}

const cancel = (membershipId: number) =>
  db.update(schema.courseMemberships).set({ statusId: STATUS.CANCELLED }).where(eq(schema.courseMemberships.id, membershipId));

describe("the waiting list", () => {
  it("offers a freed place to the first by the cron, mails it once, and the offer accepted books the place with its fee", async () => {
    const { courseId, place, queue } = await fullCourse("Obedience März", ["Anke", "Bernd"]);
    await fireCron(new Date());
    expect(await offersOf(courseId)).toEqual([]);
    await cancel(place);
    await fireCron(new Date());
    await fireCron(new Date());
    const [offer, ...more] = await offersOf(courseId);
    expect(more).toEqual([]);
    expect(offer).toMatchObject({ membershipId: queue[0].membershipId, status: "OFFERED" });
    const mails = await offerMails("Obedience März");
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`/mein/buchen/${courseId}?angebot=${offer.id}`);
    // The place is Anke's while the offer stands: the catalogue and a new booking see it taken.
    const page = await pageText(await fetchApp(`/mein/buchen/${courseId}?angebot=${offer.id}`, { cookie: queue[0].cookie }));
    expect(page).toContain("Anke");
    expect(page).toContain("ist ein Platz frei geworden");
    expect(await pageText(await fetchApp(`/mein/buchen/${courseId}?angebot=${offer.id}`, { cookie: queue[1].cookie }))).not.toContain(
      "ist ein Platz frei geworden",
    );
    const accept = { dog: queue[0].dogId, mode: "book", offerId: offer.id, ...accepted() };
    const taken = await postForm(`/mein/buchen/${courseId}`, queue[0].cookie, accept);
    expect(toastOf(taken)?.message).toBe(COURSE_BOOKED("Obedience März", queue[0].dogName));
    const [membership] = await db.select().from(schema.courseMemberships).where(eq(schema.courseMemberships.id, queue[0].membershipId));
    expect(membership).toMatchObject({ statusId: STATUS.CONFIRMED, waitlistRank: null, amount: 9000 });
    const [fee] = await db.select().from(schema.fees).where(eq(schema.fees.courseMembershipId, membership.id));
    expect(fee).toMatchObject({ id: membership.feeId, amount: 9000, openAmount: 9000 });
    const acts = await db
      .select({ act: schema.onlineBookings.act })
      .from(schema.onlineBookings)
      .where(eq(schema.onlineBookings.courseMembershipId, membership.id));
    expect(acts.map((row) => row.act)).toEqual(["WAITLISTED", "OFFER_ACCEPTED"]);
    expect((await offersOf(courseId))[0].status).toBe("ACCEPTED");
    // Twice, or someone else with the same offer: nothing more.
    for (const cookie of [queue[0].cookie, queue[1].cookie]) {
      const again = await postForm(`/mein/buchen/${courseId}`, cookie, accept);
      expect(again.status).toBe(409);
      expect(await pageText(again)).toContain(OFFER_GONE);
    }
    expect(await db.$count(schema.fees, eq(schema.fees.courseMembershipId, membership.id))).toBe(1);
  });

  it("lets an offer lapse after the hours Einstellungen name and passes it to the next when the cron runs, once", async () => {
    await db.update(schema.configuration).set({ waitlistOfferHours: 2 }).where(eq(schema.configuration.id, 1));
    const { courseId, place, queue } = await fullCourse("Rally April", ["Carla", "Dirk", "Emil"]);
    await cancel(place);
    const start = new Date();
    await fireCron(start);
    const [first] = await offersOf(courseId);
    expect(first.membershipId).toBe(queue[0].membershipId);
    expect(Date.parse(first.expiresOn) - start.getTime()).toBe(2 * 3_600_000);
    // Before its time: nothing changes.
    await fireCron(new Date(start.getTime() + 3_600_000));
    expect((await offersOf(courseId)).map((offer) => offer.status)).toEqual(["OFFERED"]);
    // After: Carla leaves the list, Dirk gets the offer and one mail, however often the cron runs.
    const later = new Date(start.getTime() + 2 * 3_600_000 + 60_000);
    await fireCron(later);
    await fireCron(new Date(later.getTime() + 300_000));
    const offers = await offersOf(courseId);
    expect(offers.map((offer) => [offer.membershipId, offer.status])).toEqual([
      [queue[0].membershipId, "LAPSED"],
      [queue[1].membershipId, "OFFERED"],
    ]);
    const [carla] = await db.select().from(schema.courseMemberships).where(eq(schema.courseMemberships.id, queue[0].membershipId));
    expect(carla).toMatchObject({ statusId: STATUS.CANCELLED, waitlistRank: null });
    expect(await offerMails("Rally April")).toHaveLength(2);
    // Dirk declines in Meine Kurse: Emil is next.
    const declined = await postForm("/mein/kurse", queue[1].cookie, { intent: "decline", offerId: offers[1].id });
    expect(toastOf(declined)?.message).toBe(OFFER_DECLINED);
    await fireCron(new Date(later.getTime() + 600_000));
    expect((await offersOf(courseId)).map((offer) => [offer.membershipId, offer.status])).toEqual([
      [queue[0].membershipId, "LAPSED"],
      [queue[1].membershipId, "DECLINED"],
      [queue[2].membershipId, "OFFERED"],
    ]);
    await db.update(schema.configuration).set({ waitlistOfferHours: 48 }).where(eq(schema.configuration.id, 1));
  });

  it("frees the place of an offer whose entry left the list otherwise, for the next at the cron's next run", async () => {
    const { courseId, place, queue } = await fullCourse("Obedience Juni", ["Ina", "Jan"]);
    await cancel(place);
    await fireCron(new Date());
    await cancel(queue[0].membershipId);
    await fireCron(new Date());
    expect((await offersOf(courseId)).map((offer) => [offer.membershipId, offer.status])).toEqual([
      [queue[0].membershipId, "WITHDRAWN"],
      [queue[1].membershipId, "OFFERED"],
    ]);
  });

  it("lets staff move people on the list; the list keeps its order as people join and leave", async () => {
    const { courseId, queue } = await fullCourse("Mantrailing Mai", ["Fritz", "Gisela", "Hanna"]);
    const order = async () =>
      (
        await db
          .select({ id: schema.courseMemberships.id, rank: schema.courseMemberships.waitlistRank })
          .from(schema.courseMemberships)
          .where(and(eq(schema.courseMemberships.courseId, courseId), eq(schema.courseMemberships.statusId, STATUS.WAITLIST)))
          .orderBy(asc(schema.courseMemberships.waitlistRank))
      ).map((row) => row.id);
    const [fritz, gisela, hanna] = queue.map((entry) => entry.membershipId);
    expect(await order()).toEqual([fritz, gisela, hanna]);
    expect(await moveOnWaitlist(db, hanna, "up", { name: "Test" })).toBe(true);
    expect(await order()).toEqual([fritz, hanna, gisela]);
    expect(await moveOnWaitlist(db, fritz, "up", { name: "Test" })).toBe(false);
    expect(await moveOnWaitlist(db, gisela, "down", { name: "Test" })).toBe(false);
    // Leaving clears the rank; coming back puts one at the end.
    await cancel(fritz);
    await db.update(schema.courseMemberships).set({ statusId: STATUS.WAITLIST }).where(eq(schema.courseMemberships.id, fritz));
    expect(await order()).toEqual([hanna, gisela, fritz]);
    // Staff see the list in the participants grid's dialog and move someone by its form.
    const cookie = await loginCookie("staff");
    const dialog = `/courses/${courseId}/coursememberships?dialog=courseMembership-waitlist&dialogId=${gisela}`;
    const html = await pageText(await fetchApp(dialog, { cookie }));
    expect(html).toContain("Warteliste für &#x27;Mantrailing Mai&#x27;");
    expect(html.indexOf("1. Hanna Bucher mit Hannas Hund")).toBeLessThan(html.indexOf("2. Gisela Bucher mit Giselas Hund"));
    const moved = await postForm(dialog, cookie, { intent: "courseMembership:waitlistMove", id: fritz, direction: "up" });
    expect(toastOf(moved)?.message).toBe("Auf der Warteliste einen Platz nach oben gesetzt");
    expect(await order()).toEqual([hanna, fritz, gisela]);
    const refused = await postForm(dialog, cookie, { intent: "courseMembership:waitlistMove", id: hanna, direction: "up" });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await pageText(refused)).toContain("schon ganz oben bzw. unten");
    expect(await order()).toEqual([hanna, fritz, gisela]);
    // The participant dialog names what the person did online, with the text versions.
    const edit = await pageText(await fetchApp(`/courses/${courseId}/coursememberships?dialog=courseMembership-edit&dialogId=${gisela}`, { cookie }));
    expect(edit).toMatch(
      /Online auf die Warteliste am \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d: AGB Fassung 1, Widerrufsbelehrung Fassung 1, Datenschutzhinweise Fassung 1 akzeptiert; Widerrufsrecht: nein/,
    );
  });
});

/** A text with the no-break space of its amounts as a plain one ('22,50 €'). */
const plain = (text: string | undefined) => text?.replaceAll("\u00a0", " ");

/** The participation of a dog in a course, as stored. */
const membershipOf = async (courseId: number, dogId: number) =>
  (
    await db
      .select()
      .from(schema.courseMemberships)
      .where(and(eq(schema.courseMemberships.courseId, courseId), eq(schema.courseMemberships.dogId, dogId)))
  )[0];

describe("ending a booking", () => {
  const journalOf = (feeId: number) =>
    db
      .select({ amount: schema.payments.amount, method: schema.payments.method, source: schema.payments.source, allocated: schema.paymentAllocations.amount })
      .from(schema.paymentAllocations)
      .innerJoin(schema.payments, eq(schema.payments.id, schema.paymentAllocations.paymentId))
      .where(eq(schema.paymentAllocations.feeId, feeId));

  it("cancels within the cut-off with the fee as the terms say, through the journal, and confirms by mail; after the cut-off nothing", async () => {
    const [puppies] = await db.select().from(schema.courses).where(eq(schema.courses.id, ids.puppies));
    await db.update(schema.courseMasters).set({ portalCancelDays: 3, portalCancelFeePercent: 25 }).where(eq(schema.courseMasters.id, puppies.courseMasterId!));
    const booked = await membershipOf(ids.puppies, ids.bello);
    const before = (await mailsTo(testAccount)).length;
    const response = await postForm("/mein/kurse", paulaCookie, { intent: "cancel", bookingId: booked.id, rowVersion: booked.rowVersion });
    expect(plain(toastOf(response)?.message)).toBe(
      "Deine Buchung für „Welpen Januar“ mit Bello ist storniert. Die Kursgebühr ist über 67,50 € storniert. Nach den Kursbedingungen bleiben 22,50 € zu zahlen.",
    );
    expect((await membershipOf(ids.puppies, ids.bello)).statusId).toBe(STATUS.CANCELLED);
    const [fee] = await db.select().from(schema.fees).where(eq(schema.fees.id, booked.feeId!));
    expect([fee.amount, fee.openAmount]).toEqual([9000, 2250]);
    expect(await journalOf(fee.id)).toEqual([{ amount: 6750, method: "OFFSET", source: "CORRECTION", allocated: 6750 }]);
    const acts = await db.select().from(schema.onlineBookings).where(eq(schema.onlineBookings.courseMembershipId, booked.id));
    expect(acts.map((act) => act.act)).toEqual(["BOOKED", "CANCELLED"]);
    const [mail] = (await mailsTo(testAccount)).slice(before);
    expect(mail.subject).toBe("Stornierung bestätigt: Welpen Januar mit Bello");
    expect(mail.text).toMatch(/ist am \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d Uhr bei .* eingegangen/);
    expect(plain(mail.text)).toContain("Nach den Kursbedingungen bleiben 22,50 € zu zahlen.");

    // A course beginning in two days, the cut-off three days before: refused, nothing booked.
    const soon = await course("Welpen sofort", puppies.courseMasterId!, [2, 9]);
    expect((await postForm(`/mein/buchen/${soon}`, paulaCookie, { dog: ids.bello, mode: "book", ...accepted() })).status).toBe(302);
    const late = await membershipOf(soon, ids.bello);
    const refused = await postForm("/mein/kurse", paulaCookie, { intent: "cancel", bookingId: late.id, rowVersion: late.rowVersion });
    expect(refused.status).toBe(409);
    expect(await pageText(refused)).toContain("Die Frist zum Stornieren in Mein Wuff ist abgelaufen");
    expect(await membershipOf(soon, ids.bello)).toEqual(late);
    expect(await journalOf(late.feeId!)).toEqual([]);
  });

  it("withdraws an online booking of a type with a right of withdrawal within 14 days: the fee cancelled in full, the receipt confirmed with its time", async () => {
    const ottoCookie = await portalSessionFor("otto.bucher@example.org");
    const booked = await membershipOf(ids.agility, ids.ottoDog);
    const page = await pageText(await fetchApp("/mein/kurse", { cookie: ottoCookie }));
    expect(page).toContain("Vertrag widerrufen");
    expect(page).toContain("Widerruf bestätigen");
    const before = (await mailsTo(testAccount)).length;
    const response = await postForm("/mein/kurse", ottoCookie, { intent: "withdraw", bookingId: booked.id, rowVersion: booked.rowVersion });
    expect(plain(toastOf(response)?.message)).toMatch(
      /^Dein Widerruf der Buchung „Agility Januar“ mit Rex ist am \d\d\.\d\d\.\d{4} \d\d:\d\d Uhr eingegangen\. Die Kursgebühr ist über 120,00 € storniert\. Die Bestätigung kommt per E-Mail\.$/,
    );
    const [fee] = await db.select().from(schema.fees).where(eq(schema.fees.id, booked.feeId!));
    expect(fee.openAmount).toBe(0);
    expect(await journalOf(fee.id)).toEqual([{ amount: 12000, method: "OFFSET", source: "CORRECTION", allocated: 12000 }]);
    const acts = await db.select().from(schema.onlineBookings).where(eq(schema.onlineBookings.courseMembershipId, booked.id));
    expect(acts.map((act) => act.act)).toEqual(["BOOKED", "WITHDRAWN"]);
    const [mail] = (await mailsTo(testAccount)).slice(before);
    expect(mail.subject).toBe("Eingangsbestätigung deines Widerrufs: Agility Januar");
    expect(mail.text).toMatch(/wir bestätigen den Eingang deines Widerrufs am \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d Uhr/);
    expect(mail.text).toContain("Hiermit widerrufe ich den online geschlossenen Vertrag über den Kurs „Agility Januar“ mit Rex.");
    // Once only; and a booking older than 14 days, or of a type without the right, has no button.
    const again = await postForm("/mein/kurse", ottoCookie, { intent: "withdraw", bookingId: booked.id, rowVersion: booked.rowVersion + 1 });
    expect(again.status).toBe(409);
    expect(await pageText(again)).toContain(NOT_WITHDRAWABLE);
    const rex2 = await dog(ids.otto, "Rexi");
    expect((await postForm(`/mein/buchen/${ids.agility}`, ottoCookie, { dog: rex2, mode: "book", ...accepted() })).status).toBe(302);
    const older = await membershipOf(ids.agility, rex2);
    await db
      .update(schema.onlineBookings)
      .set({ bookedOn: new Date(Date.now() - 15 * 86_400_000).toISOString() })
      .where(eq(schema.onlineBookings.courseMembershipId, older.id));
    const late = await postForm("/mein/kurse", ottoCookie, { intent: "withdraw", bookingId: older.id, rowVersion: older.rowVersion });
    expect(late.status).toBe(409);
    expect((await membershipOf(ids.agility, rex2)).statusId).toBe(STATUS.CONFIRMED);
    const paulas = await membershipOf(ids.puppies, ids.bello);
    expect((await postForm("/mein/kurse", paulaCookie, { intent: "withdraw", bookingId: paulas.id, rowVersion: paulas.rowVersion })).status).toBe(409);
  });
});

describe("withdrawing without an account (§ 356a BGB)", () => {
  const declarationsOf = (email: string) =>
    db.select().from(schema.withdrawalDeclarations).where(eq(schema.withdrawalDeclarations.email, email)).orderBy(asc(schema.withdrawalDeclarations.id));
  const declare = (fields: Record<string, string>) => postForm("/mein/widerruf", "", fields);

  it("takes a declaration from anyone, says when it was received and confirms it with its content by mail", async () => {
    const page = await pageText(await fetchApp("/kurse"));
    expect(page).toContain('href="/mein/widerruf"');
    const form = await pageText(await fetchApp("/mein/widerruf"));
    expect(form).toContain("Vertrag widerrufen");
    expect(form).toContain("Widerruf bestätigen");

    // Nothing given, or no address for the confirmation: German messages, nothing kept.
    const empty = await declare({ name: "", email: "keine-adresse", contract: "" });
    expect(empty.status).toBe(400);
    const refused = await pageText(empty);
    expect(refused).toContain("Bitte gib deinen Namen an.");
    expect(refused).toContain("Bitte gib eine gültige E-Mail-Adresse für die Bestätigung an.");
    expect(refused).toContain("Bitte gib an, welchen Vertrag du widerrufst");
    expect(await declarationsOf("keine-adresse")).toEqual([]);

    const before = (await mailsTo(testAccount)).length;
    const response = await declare({ name: "Lena Gast", email: " Lena.Gast@Example.org ", contract: "Agility Januar mit Fips, gebucht gestern" });
    expect(response.status).toBe(200);
    expect(await pageText(response)).toMatch(
      /Dein Widerruf ist am \d\d\.\d\d\.\d{4} \d\d:\d\d Uhr bei uns eingegangen\. Die Bestätigung mit seinem Inhalt geht an lena\.gast@example\.org\./,
    );
    const [stored] = await declarationsOf("lena.gast@example.org");
    expect(stored).toMatchObject({ name: "Lena Gast", contract: "Agility Januar mit Fips, gebucht gestern", status: "OPEN", receivedFrom: "local" });
    expect(stored.confirmationSentOn).not.toBeNull();
    const [mail] = (await mailsTo(testAccount)).slice(before);
    expect(mail.subject).toBe("Eingangsbestätigung deines Widerrufs");
    expect(mail.text).toMatch(/wir bestätigen den Eingang deines Widerrufs am \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d Uhr/);
    expect(mail.text).toContain(
      "„Hiermit widerrufe ich den folgenden Vertrag: Agility Januar mit Fips, gebucht gestern“ Erklärt von Lena Gast (lena.gast@example.org)",
    );
  });

  it("lets the treasurer apply it to the booking it names, timed by its receipt, or close it with a note; late ones are refused", async () => {
    const ottoCookie = await portalSessionFor("otto.bucher@example.org");
    const fips = await dog(ids.otto, "Fips");
    expect((await postForm(`/mein/buchen/${ids.agility}`, ottoCookie, { dog: fips, mode: "book", ...accepted() })).status).toBe(302);
    const booked = await membershipOf(ids.agility, fips);
    const declared = await declare({ name: "Otto Bucher", email: "otto.bucher@example.org", contract: "Agility Januar mit Fips" });
    expect(declared.status).toBe(200);
    const [declaration] = await declarationsOf("otto.bucher@example.org");

    // Staff without the treasurer's role are refused; the home page counts it for the treasurer.
    expect((await fetchApp("/withdrawals", { cookie: await loginCookie("staff") })).status).toBe(302);
    const finance = await loginCookie("finance");
    expect(await pageText(await fetchApp("/", { cookie: finance }))).toMatch(/\d+ Widerrufe? ohne Anmeldung zuzuordnen/);
    const screen = await pageText(await fetchApp("/withdrawals", { cookie: finance }));
    expect(screen).toContain("„Agility Januar mit Fips“");
    expect(screen).toContain("Widerruf anwenden");

    const applied = await postForm("/withdrawals", finance, {
      decision: "apply",
      id: declaration.id,
      rowVersion: declaration.rowVersion,
      membershipId: booked.id,
      membershipVersion: booked.rowVersion,
    });
    expect(plain(toastOf(applied)?.message)).toBe(
      "Widerruf angewendet: Die Buchung „Agility Januar“ mit Fips ist beendet. Die Kursgebühr ist über 120,00 € storniert.",
    );
    expect((await membershipOf(ids.agility, fips)).statusId).toBe(STATUS.CANCELLED);
    const [fee] = await db.select().from(schema.fees).where(eq(schema.fees.id, booked.feeId!));
    expect(fee.openAmount).toBe(0);
    const acts = await db.select().from(schema.onlineBookings).where(eq(schema.onlineBookings.courseMembershipId, booked.id));
    expect(acts.map((act) => [act.act, act.act === "WITHDRAWN" ? act.bookedOn : null])).toEqual([
      ["BOOKED", null],
      ["WITHDRAWN", declaration.receivedOn],
    ]);
    expect((await declarationsOf("otto.bucher@example.org"))[0]).toMatchObject({ status: "APPLIED", courseMembershipId: booked.id, settledBy: "Fritz Finanz" });
    // Twice: the declaration is settled, nothing more is cancelled.
    const twice = await postForm("/withdrawals", finance, {
      decision: "apply",
      id: declaration.id,
      rowVersion: declaration.rowVersion,
      membershipId: booked.id,
      membershipVersion: booked.rowVersion,
    });
    expect(twice.status).toBe(409);
    const journal = await db.select().from(schema.paymentAllocations).where(eq(schema.paymentAllocations.feeId, fee.id));
    expect(journal).toHaveLength(1);

    // A booking 15 days old when the declaration came: not withdrawable, refused, nothing changed.
    const lumpi = await dog(ids.otto, "Lumpi");
    expect((await postForm(`/mein/buchen/${ids.agility}`, ottoCookie, { dog: lumpi, mode: "book", ...accepted() })).status).toBe(302);
    const old = await membershipOf(ids.agility, lumpi);
    await db
      .update(schema.onlineBookings)
      .set({ bookedOn: new Date(Date.now() - 15 * 86_400_000).toISOString() })
      .where(eq(schema.onlineBookings.courseMembershipId, old.id));
    await declare({ name: "Otto Bucher", email: "otto.bucher@example.org", contract: "Agility mit Lumpi" });
    const late = (await declarationsOf("otto.bucher@example.org"))[1];
    expect(await pageText(await fetchApp("/withdrawals", { cookie: finance }))).toContain("nicht widerrufbar");
    const tooLate = await postForm("/withdrawals", finance, {
      decision: "apply",
      id: late.id,
      rowVersion: late.rowVersion,
      membershipId: old.id,
      membershipVersion: old.rowVersion,
    });
    expect(tooLate.status).toBe(409);
    expect(await pageText(tooLate)).toContain(NOT_WITHDRAWABLE);
    expect(await membershipOf(ids.agility, lumpi)).toEqual(old);
    // Closed without a booking: only with a note.
    const noNote = await postForm("/withdrawals", finance, { decision: "close", id: late.id, rowVersion: late.rowVersion, note: " " });
    expect(noNote.status).toBe(400);
    expect(await pageText(noNote)).toContain("Bitte kurz notieren, wie der Widerruf erledigt ist.");
    const closed = await postForm("/withdrawals", finance, {
      decision: "close",
      id: late.id,
      rowVersion: late.rowVersion,
      note: "Frist abgelaufen, per E-Mail erklärt",
    });
    expect(toastOf(closed)?.message).toBe("Widerruf als erledigt vermerkt.");
    expect((await declarationsOf("otto.bucher@example.org"))[1]).toMatchObject({ status: "CLOSED", settleNote: "Frist abgelaufen, per E-Mail erklärt" });
  });

  it("takes at most five declarations a day from one address", async () => {
    for (let count = 0; count < 5; count += 1) {
      expect((await declare({ name: "Viel Schreiber", email: "viel@example.org", contract: `Vertrag ${count}` })).status).toBe(200);
    }
    const sixth = await declare({ name: "Viel Schreiber", email: "viel@example.org", contract: "Vertrag 6" });
    expect(sixth.status).toBe(429);
    expect(await pageText(sixth)).toContain("Von dieser Adresse sind heute schon mehrere Widerrufe eingegangen.");
    expect(await declarationsOf("viel@example.org")).toHaveLength(5);
  });
});
