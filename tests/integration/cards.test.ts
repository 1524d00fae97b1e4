/**
 * 10er-Karten and subscriptions used up by attendance (issue 34), through the models the desk and
 * the handset use: a tick in an open group takes the units per attendance from the person's card,
 * the one that runs out first when there are two, a subscription before any card; un-ticking
 * gives them back; without a valid card the tick counts 'ohne Karte' until a card sold later
 * settles it. Under any sequence of sales, ticks and un-ticks a card's balance is its units minus
 * its uses plus its returns, never below zero, and never used outside its time.
 */
import { env } from "cloudflare:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { cardBalance, cardForAttendance, cardReport, cardValidUntil, subscriptionEnd, subscriptionPeriodsDue } from "~/lib/cards";
import { addDaysToDate, formatDate, formatMoney, todayInBerlin } from "~/lib/format";
import { setAttendance } from "~/models/attendances.server";
import { sendCardReminders } from "~/jobs/card-reminders.server";
import { refundableOf, refundCard } from "~/models/card-settlements.server";
import { attendanceWithoutCard, cardsOfPerson, sellCard } from "~/models/cards.server";
import { issueInvoice } from "~/models/invoices.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { newestJob, settled } from "../support/jobs";
import { mailsTo, useTestAccount } from "../support/mail-catcher";
import { portalSessionFor } from "../support/portal";
import { berlinDayAt } from "../support/dates";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const actor = { name: "Tina Trainerin" };
const today = todayInBerlin();
const dayAt = berlinDayAt(today);
const CONFIRMED = 4;
const GUEST = 81;
/** Dates of the open group: 60 days back to yesterday, every third day. */
const OFFSETS = Array.from({ length: 20 }, (_, index) => -60 + index * 3);
const ids = { master: 0, course: 0, fixedCourse: 0, tenCard: 0, doubleCard: 0, monthly: 0, otherCard: 0 };
const dateIds: number[] = [];

async function product(
  values: Partial<typeof schema.cardProducts.$inferInsert> & { name: string; kind: "CARD" | "SUBSCRIPTION" },
  scope: { courseMasterId?: number; courseId?: number },
) {
  const [{ id }] = await db.insert(schema.cardProducts).values(values).returning({ id: schema.cardProducts.id });
  await db.insert(schema.cardProductScopes).values({ productId: id, ...scope });
  return id;
}

/** A new customer with a dog in the open group: their membership's id and person's id. */
async function customer(name: string) {
  const [{ id: personId }] = await db
    .insert(schema.people)
    .values({ firstName: name, lastName: "Kartenkunde", memberTypeId: GUEST })
    .returning({ id: schema.people.id });
  const [{ id: dogId }] = await db
    .insert(schema.dogs)
    .values({ ownerId: personId, commonName: `Hund ${name}` })
    .returning({ id: schema.dogs.id });
  const [{ id: membershipId }] = await db
    .insert(schema.courseMemberships)
    .values({ courseId: ids.course, personId, dogId, statusId: CONFIRMED })
    .returning({ id: schema.courseMemberships.id });
  return { personId, membershipId };
}

const tick = (membershipId: number, dateIndex: number, present = true) =>
  setAttendance(db, { courseId: ids.course, courseDateId: dateIds[dateIndex], courseMembershipId: membershipId, present }, actor);

const balances = async (personId: number) => (await cardsOfPerson(db, personId)).map((card) => card.balance);

beforeAll(async () => {
  await db.insert(schema.memberTypes).values({ id: GUEST, code: "CARD_GUEST", name: "Gast (Karten)", coursePriceTier: "FULL" }).onConflictDoNothing();
  await db
    .insert(schema.membershipStatuses)
    .values({ id: CONFIRMED, code: "CONFIRMED", name: "Angemeldet", appliesTo: "COURSE", isFeeTrigger: true })
    .onConflictDoNothing();
  const [{ id: master }] = await db.insert(schema.courseMasters).values({ name: "Spielgruppe (Karte)" }).returning({ id: schema.courseMasters.id });
  ids.master = master;
  const [{ id: course }, { id: fixedCourse }] = await db
    .insert(schema.courses)
    .values([
      { name: "Spielgruppe Mittwoch", startYear: 2026, statusCode: "RUNNING", durationModel: "ONGOING", courseMasterId: master },
      { name: "Spielgruppe Kompakt", startYear: 2026, statusCode: "RUNNING", durationModel: "FIXED", courseMasterId: master },
    ])
    .returning({ id: schema.courses.id });
  ids.course = course;
  ids.fixedCourse = fixedCourse;
  for (const offset of OFFSETS) {
    const [{ id }] = await db
      .insert(schema.courseDates)
      .values({ courseId: course, startDateTime: dayAt(offset), endDateTime: dayAt(offset, 19) })
      .returning({ id: schema.courseDates.id });
    dateIds.push(id);
  }
  ids.tenCard = await product({ name: "10er-Karte Spielgruppe", kind: "CARD", units: 10, validMonths: 6, priceFull: 12000 }, { courseMasterId: master });
  ids.doubleCard = await product(
    { name: "Doppelstunden-Karte", kind: "CARD", units: 10, validMonths: 3, unitsPerAttendance: 2, priceFull: 20000 },
    { courseId: course },
  );
  ids.monthly = await product(
    { name: "Spielgruppen-Abo", kind: "SUBSCRIPTION", period: "MONTHLY", minTermMonths: 3, noticeMonths: 1, priceFull: 4000 },
    { courseMasterId: master },
  );
  // A card for another course type: never taken for this group.
  const [{ id: otherMaster }] = await db.insert(schema.courseMasters).values({ name: "Agility (Karte)" }).returning({ id: schema.courseMasters.id });
  ids.otherCard = await product({ name: "10er-Karte Agility", kind: "CARD", units: 10, validMonths: 6, priceFull: 15000 }, { courseMasterId: otherMaster });
});

describe("the rules", () => {
  it("keeps validity and notice periods as the BGB counts them", () => {
    expect(cardValidUntil("2026-11-30", 6)).toBe("2027-05-29");
    expect(cardValidUntil("2026-01-31", 1)).toBe("2026-02-27");
    // Notice on the 20th with one month ends on the 20th of the next month; not within the minimum term.
    expect(subscriptionEnd({ validFrom: "2026-01-01", minTermMonths: 3, noticeMonths: 1 }, "2026-11-20")).toBe("2026-12-20");
    expect(subscriptionEnd({ validFrom: "2026-10-01", minTermMonths: 3, noticeMonths: 1 }, "2026-10-20")).toBe("2026-12-31");
    expect(
      cardBalance(10, [
        { kind: "USE", units: 2 },
        { kind: "USE", units: 2 },
        { kind: "RETURN", units: 2 },
      ]),
    ).toBe(8);
  });
});

describe("using a card on the training field", () => {
  it("takes the units per attendance (2), gives them back on un-ticking, and never twice for one tick", async () => {
    const { personId, membershipId } = await customer("Doppel");
    const sold = await sellCard(db, { personId, productId: ids.doubleCard, validFrom: addDaysToDate(today, -30), price: 20000 }, actor);
    expect(sold).toMatchObject({ status: "sold", settled: 0 });
    const [fee] = await db
      .select()
      .from(schema.fees)
      .where(eq(schema.fees.id, sold.status === "sold" ? sold.feeId! : 0));
    expect([fee.amount, fee.openAmount, fee.personId]).toEqual([20000, 20000, personId]);
    expect(fee.text).toMatch(/^Doppelstunden-Karte, gültig \d\d\.\d\d\.2026 bis \d\d\.\d\d\.20\d\d$/);

    await tick(membershipId, 15);
    expect(await balances(personId)).toEqual([8]);
    await tick(membershipId, 15);
    expect(await balances(personId)).toEqual([8]);
    await tick(membershipId, 15, false);
    expect(await balances(personId)).toEqual([10]);
    await tick(membershipId, 15, false);
    await tick(membershipId, 15);
    expect(await balances(personId)).toEqual([8]);
    const uses = await db.select().from(schema.cardUses).orderBy(schema.cardUses.id);
    expect(uses.filter((use) => use.cardId === (sold.status === "sold" ? sold.cardId : 0)).map((use) => [use.kind, use.units])).toEqual([
      ["USE", 2],
      ["RETURN", 2],
      ["USE", 2],
    ]);
  });

  it("takes from the card that runs out first when two are valid, and from a subscription before any card", async () => {
    const { personId, membershipId } = await customer("Zwei");
    const later = await sellCard(db, { personId, productId: ids.tenCard, validFrom: addDaysToDate(today, -5), price: 12000 }, actor);
    const earlier = await sellCard(db, { personId, productId: ids.tenCard, validFrom: addDaysToDate(today, -50), price: 12000 }, actor);
    await tick(membershipId, 19);
    const cards = await cardsOfPerson(db, personId);
    const balanceOf = (outcome: typeof later) => cards.find((card) => outcome.status === "sold" && card.id === outcome.cardId)?.balance;
    expect([balanceOf(earlier), balanceOf(later)]).toEqual([9, 10]);
    // A date before the later card began: only the earlier one is valid then.
    await tick(membershipId, 5);
    expect((await cardsOfPerson(db, personId)).map((card) => card.balance).sort()).toEqual([10, 8].sort());

    const abo = await customer("Abo");
    await sellCard(db, { personId: abo.personId, productId: ids.tenCard, validFrom: addDaysToDate(today, -50), price: 12000 }, actor);
    await sellCard(db, { personId: abo.personId, productId: ids.monthly, validFrom: addDaysToDate(today, -50), price: 4000 }, actor);
    await tick(abo.membershipId, 19);
    const [subscription, card] = (await cardsOfPerson(db, abo.personId)).sort((a, b) => a.kind.localeCompare(b.kind)).reverse();
    expect([subscription.kind, subscription.uses, card.kind, card.balance]).toEqual(["SUBSCRIPTION", 1, "CARD", 10]);
  });

  it("counts a tick without a valid card 'ohne Karte', and a card sold afterwards settles it", async () => {
    const { personId, membershipId } = await customer("Ohne");
    await sellCard(db, { personId, productId: ids.otherCard, validFrom: addDaysToDate(today, -50), price: 15000 }, actor);
    expect(await tick(membershipId, 18)).toMatchObject({ status: "saved", present: true });
    const without = (await attendanceWithoutCard(db)).filter((row) => row.personId === personId);
    expect(without).toHaveLength(1);
    expect(without[0]).toMatchObject({ courseName: "Spielgruppe Mittwoch", day: addDaysToDate(today, OFFSETS[18]) });
    const sold = await sellCard(db, { personId, productId: ids.tenCard, validFrom: addDaysToDate(today, -10), price: 12000 }, actor);
    expect(sold).toMatchObject({ status: "sold", settled: 1 });
    expect((await attendanceWithoutCard(db)).filter((row) => row.personId === personId)).toEqual([]);
    expect((await cardsOfPerson(db, personId)).map((card) => [card.name, card.balance])).toEqual([
      ["10er-Karte Spielgruppe", 9],
      ["10er-Karte Agility", 10],
    ]);
  });

  it("refuses a product no longer sold, and counts nothing by card in a course with a fixed number of dates", async () => {
    await db.update(schema.cardProducts).set({ isOffered: false }).where(eq(schema.cardProducts.id, ids.otherCard));
    const { personId } = await customer("Alt");
    expect(await sellCard(db, { personId, productId: ids.otherCard, validFrom: today, price: 100 }, actor)).toEqual({
      status: "refused",
      message: "Dieses Produkt gibt es nicht oder es wird nicht mehr verkauft.",
    });
    await db.update(schema.cardProducts).set({ isOffered: true }).where(eq(schema.cardProducts.id, ids.otherCard));
    const [{ id: dogId }] = await db.insert(schema.dogs).values({ ownerId: personId, commonName: "Fix" }).returning({ id: schema.dogs.id });
    const [{ id: membershipId }] = await db
      .insert(schema.courseMemberships)
      .values({ courseId: ids.fixedCourse, personId, dogId, statusId: CONFIRMED })
      .returning({ id: schema.courseMemberships.id });
    const [{ id: dateId }] = await db
      .insert(schema.courseDates)
      .values({ courseId: ids.fixedCourse, startDateTime: dayAt(-2) })
      .returning({ id: schema.courseDates.id });
    await sellCard(db, { personId, productId: ids.tenCard, validFrom: addDaysToDate(today, -10), price: 12000 }, actor);
    await setAttendance(db, { courseId: ids.fixedCourse, courseDateId: dateId, courseMembershipId: membershipId, present: true }, actor);
    expect(await balances(personId)).toEqual([10]);
    expect((await attendanceWithoutCard(db)).filter((row) => row.personId === personId)).toEqual([]);
  });
});

describe("the screens", () => {
  /** A dialog's form post with repeated fields (the checkboxes of a list). */
  const post = (path: string, cookie: string, fields: [string, string | number][]) =>
    fetchApp(path, { method: "POST", cookie, body: new URLSearchParams(fields.map(([name, value]) => [name, String(value)])) });

  it("lets the ADMIN declare a product with its terms and where it is valid, with German messages for what the law or the form refuses", async () => {
    const admin = await loginCookie("admin");
    const base: [string, string | number][] = [
      ["intent", "cardProduct:save"],
      ["name", "5er-Karte Social Walk"],
      ["kind", "CARD"],
      ["priceFull", "55,00"],
      ["taxCase", "STANDARD"],
      ["isOffered", "on"],
    ];
    const noUnits = await post("/cardProducts", admin, [...base, ["courseMasterIds", ids.master]]);
    expect(noUnits.status).toBe(400);
    expect(await noUnits.text()).toContain("Bitte die Zahl der Einheiten angeben (1 bis 100)");
    const nowhere = await post("/cardProducts", admin, [...base, ["units", 5], ["validMonths", 3]]);
    expect(await nowhere.text()).toContain("Bitte mindestens einen Kurs-Typ oder eine Gruppe wählen, für die das Produkt gilt");
    const longNotice = await post("/cardProducts", admin, [
      ["intent", "cardProduct:save"],
      ["name", "Jahresabo"],
      ["kind", "SUBSCRIPTION"],
      ["period", "MONTHLY"],
      ["minTermMonths", 12],
      ["noticeMonths", 3],
      ["taxCase", "STANDARD"],
      ["courseIds", ids.course],
    ]);
    expect(longNotice.status).toBe(400);
    expect(await longNotice.text()).toContain("Kündigungsfrist");

    const created = await post("/cardProducts", admin, [...base, ["units", 5], ["validMonths", 3], ["courseMasterIds", ids.master], ["courseIds", ids.course]]);
    expect(toastOf(created)).toEqual({ type: "success", message: "Produkt wurde angelegt" });
    const [product] = await db.select().from(schema.cardProducts).where(eq(schema.cardProducts.name, "5er-Karte Social Walk"));
    expect(product).toMatchObject({ kind: "CARD", units: 5, validMonths: 3, priceFull: 5500, period: null, unitsPerAttendance: 1, isOffered: true });
    const scopes = await db.select().from(schema.cardProductScopes).where(eq(schema.cardProductScopes.productId, product.id));
    expect(scopes.map((scope) => [scope.courseMasterId, scope.courseId])).toEqual(
      expect.arrayContaining([
        [ids.master, null],
        [null, ids.course],
      ]),
    );
    const screen = await (await fetchApp("/cardProducts", { cookie: admin })).text();
    expect(screen).toContain("5 Einheiten, 3 Monate gültig");
    // Staff and FINANCE do not keep products.
    expect((await fetchApp("/cardProducts", { cookie: await loginCookie("finance") })).status).toBe(302);
  });

  it("lets FINANCE sell a card on the person's tab at the member type's price, and refuses deleting a product once sold", async () => {
    const finance = await loginCookie("finance");
    const { personId } = await customer("Verkauf");
    const sold = await post(`/people/${personId}/cards`, finance, [
      ["intent", "card:save"],
      ["personId", personId],
      ["productId", ids.tenCard],
      ["validFrom", formatDate(today)],
      ["price", ""],
    ]);
    expect(toastOf(sold)).toEqual({ type: "success", message: "10er-Karte Spielgruppe verkauft." });
    const [card] = await cardsOfPerson(db, personId);
    expect([card.name, card.balance, card.price, card.validFrom]).toEqual(["10er-Karte Spielgruppe", 10, 12000, today]);
    const tab = await (await fetchApp(`/people/${personId}/cards`, { cookie: finance })).text();
    expect(tab).toContain("10 von 10");
    expect((await fetchApp(`/people/${personId}/cards`, { cookie: await loginCookie("staff") })).status).not.toBe(200);
    const refused = await post("/cardProducts", await loginCookie("admin"), [
      ["intent", "cardProduct:delete"],
      ["id", ids.tenCard],
    ]);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Das Produkt kann nicht gelöscht werden: Es wurde");
  });
  it("shows the trainer's phone what each participant has left, and the home page the ticks 'ohne Karte' and cards running out", async () => {
    const withCard = await customer("Handy");
    const without = await customer("Handyohne");
    await sellCard(db, { personId: withCard.personId, productId: ids.tenCard, validFrom: addDaysToDate(today, -170), price: 12000 }, actor);
    await tick(withCard.membershipId, 19);
    await tick(without.membershipId, 19);
    const staff = await loginCookie("staff");
    const handset = (await (await fetchApp(`/coursesheetmobile?course=${ids.course}&date=${dateIds[19]}`, { cookie: staff })).text()).replaceAll(
      "<!-- -->",
      "",
    );
    expect(handset).toContain("Karte: 9 Einheiten übrig");
    expect(handset).toContain("Ohne gültige Karte (wird trotzdem gezählt)");

    const home = (await (await fetchApp("/", { cookie: await loginCookie("finance") })).text()).replaceAll("<!-- -->", "");
    expect(home).toContain("Karten &amp; Abos");
    expect(home).toContain("Handyohne Kartenkunde");
    // The card sold 170 days ago for 6 months runs out within 14 days.
    expect(home).toMatch(/Handy Kartenkunde: 10er-Karte Spielgruppe/);
    // Staff without FINANCE do not get the card (its entries open the Kontenblatt's side).
    expect(await (await fetchApp("/", { cookie: staff })).text()).not.toContain("Handyohne Kartenkunde");
  });
});

describe("subscription fees", () => {
  const feesOfCard = (cardId: number) =>
    db
      .select({ periodStart: schema.cardFees.periodStart, text: schema.fees.text, amount: schema.fees.amount, jobId: schema.cardFees.jobId })
      .from(schema.cardFees)
      .innerJoin(schema.fees, eq(schema.fees.id, schema.cardFees.feeId))
      .where(eq(schema.cardFees.cardId, cardId))
      .orderBy(schema.cardFees.periodStart);
  const postTask = async (fields: Record<string, string | number>) => postForm("/tasks", await loginCookie("admin"), fields);

  it("bills each period once per month, clipped to the end a notice sets, in the rule's order", () => {
    const abo = { validFrom: "2026-01-31", validUntil: null, period: "MONTHLY" as const, price: 4000 };
    expect(subscriptionPeriodsDue(abo, "2026-04-15")).toEqual([
      { start: "2026-01-31", end: "2026-02-27", amount: 4000 },
      { start: "2026-02-28", end: "2026-03-30", amount: 4000 },
      { start: "2026-03-31", end: "2026-04-29", amount: 4000 },
    ]);
    expect(subscriptionPeriodsDue(abo, "2026-04-15", new Set(["2026-01-31", "2026-02-28"]))).toHaveLength(1);
    // Ended on 15.03. by notice: the second period is paid for 16 of its 31 days, the third not at all.
    expect(subscriptionPeriodsDue({ ...abo, validUntil: "2026-03-15" }, "2026-12-31")).toEqual([
      { start: "2026-01-31", end: "2026-02-27", amount: 4000 },
      { start: "2026-02-28", end: "2026-03-15", amount: Math.round((4000 * 16) / 31) },
    ]);
    expect(subscriptionPeriodsDue({ ...abo, period: "QUARTERLY", price: 11000 }, "2026-12-31").map((period) => period.start)).toEqual([
      "2026-01-31",
      "2026-04-30",
      "2026-07-31",
      "2026-10-31",
    ]);
  });

  it("bills a subscription's first period at its sale, the later ones by the run, a run twice in a month once, and undoes the last run", async () => {
    const { personId } = await customer("Monatsabo");
    const sold = await sellCard(db, { personId, productId: ids.monthly, validFrom: addDaysToDate(today, -5), price: 4000 }, actor);
    if (sold.status !== "sold") throw new Error(JSON.stringify(sold));
    expect((await feesOfCard(sold.cardId)).map((fee) => [fee.periodStart, fee.amount, fee.jobId])).toEqual([[addDaysToDate(today, -5), 4000, null]]);

    // Sold before any run billed it: its periods of the last 70 days are due.
    const [{ id: cardId }] = await db
      .insert(schema.cards)
      .values({
        personId,
        productId: ids.monthly,
        kind: "SUBSCRIPTION",
        name: "Spielgruppen-Abo",
        price: 4000,
        validFrom: addDaysToDate(today, -70),
        period: "MONTHLY",
        minTermMonths: 3,
        noticeMonths: 1,
      })
      .returning({ id: schema.cards.id });
    const due = subscriptionPeriodsDue({ validFrom: addDaysToDate(today, -70), validUntil: null, period: "MONTHLY", price: 4000 }, today);
    expect(due.length).toBeGreaterThanOrEqual(3);

    expect((await postTask({ intent: "task:subscriptionFees" })).status).toBe(302);
    const first = await settled((await newestJob()).id);
    expect(first.status).toBe("DONE");
    const billed = await feesOfCard(cardId);
    expect(billed.map((fee) => [fee.periodStart, fee.amount, fee.jobId])).toEqual(due.map((period) => [period.start, 4000, first.id]));
    expect(billed[0].text).toBe(`Spielgruppen-Abo, ${formatDate(due[0].start)} bis ${formatDate(due[0].end)}`);
    expect(await feesOfCard(sold.cardId)).toHaveLength(1);

    // The same month again: nothing more.
    expect((await postTask({ intent: "task:subscriptionFees" })).status).toBe(302);
    const second = await settled((await newestJob()).id);
    expect(second.message).toBe("0 Abo-Beiträge eingestellt: Alle begonnenen Zeiträume sind schon abgerechnet");
    expect(await feesOfCard(cardId)).toHaveLength(due.length);

    // The undo takes the run's fees back (its own, none of the sale's); a new run bills them again.
    const undone = await postTask({ intent: "task:undoSubscriptions", id: first.id });
    expect(undone.status, (await undone.clone().text()).match(/role="alert"[^>]*>([^<]*)/)?.[1]).toBe(302);
    expect(toastOf(undone)?.message).toContain("Abo-Beiträge rückgängig gemacht");
    expect(await feesOfCard(cardId)).toEqual([]);
    expect(await feesOfCard(sold.cardId)).toHaveLength(1);
    await postTask({ intent: "task:subscriptionFees" });
    const third = await settled((await newestJob()).id);
    expect(await feesOfCard(cardId)).toHaveLength(due.length);
    // Once a fee of the run is invoiced, the run stays.
    await db.update(schema.fees).set({ isInvoiced: true }).where(eq(schema.fees.jobId, third.id));
    const refused = await postTask({ intent: "task:undoSubscriptions", id: third.id });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("schon abgerechnet, bezahlt oder eingezogen");
    expect(await feesOfCard(cardId)).toHaveLength(due.length);
  });

  it("ends a subscription whose notice arrived on the 20th at the end of the notice period, not before its minimum term", async () => {
    const { personId, membershipId } = await customer("Kündigung");
    const sold = await sellCard(db, { personId, productId: ids.monthly, validFrom: "2026-01-01", price: 4000 }, actor);
    if (sold.status !== "sold") throw new Error(JSON.stringify(sold));
    const cookie = await loginCookie("finance");
    const notice = (noticeOn: string) => postForm(`/people/${personId}/cards`, cookie, { intent: "card:notice", id: sold.cardId, noticeOn });
    const future = await notice(formatDate(addDaysToDate(today, 1)));
    expect(await future.text()).toContain("Eine Kündigung kann nicht in der Zukunft eingegangen sein.");
    const given = await notice("20.11.2026");
    expect(toastOf(given)?.message).toBe("Kündigung eingetragen: Das Abo endet am 20.12.2026.");
    const [card] = await db.select().from(schema.cards).where(eq(schema.cards.id, sold.cardId));
    expect([card.noticeReceivedOn, card.validUntil]).toEqual(["2026-11-20", "2026-12-20"]);
    expect(await (await notice("21.11.2026")).text()).toContain("Die Kündigung ist schon eingetragen");
    // Its last period is billed for its 20 days of 31; nothing after.
    expect(subscriptionPeriodsDue({ ...card, period: "MONTHLY" }, "2027-03-31").slice(-1)).toEqual([
      { start: "2026-12-01", end: "2026-12-20", amount: Math.round((4000 * 20) / 31) },
    ]);
    // A tick after the end is not under the subscription.
    if (OFFSETS.some((offset) => addDaysToDate(today, offset) > "2026-12-20")) {
      const after = OFFSETS.findIndex((offset) => addDaysToDate(today, offset) > "2026-12-20");
      await tick(membershipId, after);
      expect(await openUseOfDate(membershipId, after)).toBeUndefined();
    }
  });
});

describe("settling", () => {
  it("settles a tick 'ohne Karte' by a single visit charged or waived with a reason, once, and with German messages", async () => {
    const { personId, membershipId } = await customer("Einzel");
    await tick(membershipId, 16);
    await tick(membershipId, 17);
    const [first, second] = (await attendanceWithoutCard(db)).filter((row) => row.personId === personId);
    const cookie = await loginCookie("finance");
    const post = (fields: Record<string, string | number>) => postForm(`/people/${personId}/cards`, cookie, fields);
    // All of them on their own page (the home page shows the first ten), each with its way to settle.
    const listed = (await (await fetchApp("/cards/withoutCard", { cookie })).text()).replaceAll("&amp;", "&");
    expect(listed).toContain(`/people/${personId}/cards?dialog=attendanceSettlement-settle&dialogId=${first.attendanceId}`);
    expect((await fetchApp("/cards/withoutCard", { cookie: await loginCookie("staff") })).status).toBe(302);
    expect(await (await fetchApp(`/people/${personId}/cards?dialog=attendanceSettlement-settle&dialogId=${first.attendanceId}`, { cookie })).text()).toContain(
      "Teilnahme ohne Karte erledigen",
    );
    expect(await (await post({ intent: "attendanceSettlement:charge", id: first.attendanceId, amount: "" })).text()).toContain(
      "Bitte den Preis der Einzelstunde eingeben",
    );
    expect(await (await post({ intent: "attendanceSettlement:waive", id: second.attendanceId, note: "  " })).text()).toContain("Bitte einen Grund angeben");
    expect(toastOf(await post({ intent: "attendanceSettlement:charge", id: first.attendanceId, amount: "15,00" }))?.message).toBe(
      `Einzelstunde berechnet (${formatMoney(1500)}).`,
    );
    expect(toastOf(await post({ intent: "attendanceSettlement:waive", id: second.attendanceId, note: "Schnupperstunde" }))?.message).toBe(
      "Teilnahme ohne Karte erlassen.",
    );
    expect((await attendanceWithoutCard(db)).filter((row) => row.personId === personId)).toEqual([]);
    const again = await post({ intent: "attendanceSettlement:charge", id: first.attendanceId, amount: "15,00" });
    expect(await again.text()).toContain("Diese Teilnahme ist schon erledigt.");
    const charged = await db.select().from(schema.fees).where(eq(schema.fees.personId, personId));
    expect(charged.map((fee) => [fee.text, fee.amount, fee.sendInvoice])).toEqual([
      [`Einzelstunde Spielgruppe Mittwoch, ${formatDate(addDaysToDate(today, OFFSETS[16]))}`, 1500, true],
    ]);
    // A card sold later does not take a settled attendance over.
    const sold = await sellCard(db, { personId, productId: ids.tenCard, validFrom: addDaysToDate(today, -60), price: 12000 }, actor);
    expect(sold).toMatchObject({ status: "sold", settled: 0 });
  });

  it("refunds a card's unused units by a credit note on its sale's invoice, once, and the card is used up", async () => {
    const { personId, membershipId } = await customer("Erstattung");
    await db.update(schema.people).set({ streetNumber: "Weg 1", zip: "35390", city: "Gießen" }).where(eq(schema.people.id, personId));
    const sold = await sellCard(db, { personId, productId: ids.tenCard, validFrom: addDaysToDate(today, -60), price: 12000 }, actor);
    if (sold.status !== "sold" || !sold.feeId) throw new Error(JSON.stringify(sold));
    for (const date of [10, 11, 12]) await tick(membershipId, date);
    expect((await refundableOf(db, sold.cardId, today))?.refusal).toContain("noch nicht mit einer ausgestellten Rechnung abgerechnet");

    const [draft] = await db
      .insert(schema.invoiceHeaders)
      .values({ personId, date: today, amount: 12000, openAmount: 12000, createdBy: "Test", createdOn: new Date().toISOString() })
      .returning({ id: schema.invoiceHeaders.id });
    await db
      .insert(schema.invoiceRows)
      .values({ invoiceId: draft.id, lineNumber: 1, text: "10er-Karte", amount: 12000, feeId: sold.feeId, taxCase: "STANDARD" });
    await db.update(schema.fees).set({ isInvoiced: true }).where(eq(schema.fees.id, sold.feeId));
    const issued = await issueInvoice(db, draft.id, actor, today);
    expect(issued.status).toBe("issued");

    const cookie = await loginCookie("finance");
    expect(await (await fetchApp(`/people/${personId}/cards?dialog=card-refund&dialogId=${sold.cardId}`, { cookie })).text()).toMatch(
      /Erstattet werden 84,00\s€ per Gutschrift/u,
    );
    const formKey = crypto.randomUUID();
    const refund = () => postForm(`/people/${personId}/cards`, cookie, { intent: "card:refund", id: sold.cardId, formKey });
    expect(toastOf(await refund())?.message).toMatch(/^7 Einheiten erstattet: Gutschrift \d+ über 84,00\s€\.$/u);
    expect(toastOf(await refund())?.message).toBe("Die Erstattung ist schon ausgestellt.");
    const credit = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.correctsInvoiceId, draft.id));
    expect(credit.map((header) => [header.kind, header.amount, header.status])).toEqual([["CREDIT_NOTE", -8400, "ISSUED"]]);
    const [invoice] = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, draft.id));
    expect(invoice.openAmount).toBe(12000 - 8400);
    const [card] = await cardsOfPerson(db, personId);
    expect(card.balance).toBe(0);
    // Nothing left to take: the next tick is 'ohne Karte'.
    await tick(membershipId, 13);
    expect((await attendanceWithoutCard(db)).filter((row) => row.personId === personId)).toHaveLength(1);
    expect((await refundableOf(db, sold.cardId, today))?.refusal).toBe("Diese Karte wurde schon erstattet.");
  });
});

describe("reminder mails", () => {
  it("mails once when one attendance is left and once 14 days before a card with units left expires", async () => {
    // Mails outside production go to the test account of the settings (saved once here).
    await env.DB.prepare("INSERT OR IGNORE INTO configuration (id) VALUES (1)").run();
    const address = await useTestAccount("karten");
    const low = await customer("Fastleer");
    const expiring = await customer("Läuftab");
    await db
      .update(schema.people)
      .set({ email: "kunde@example.org" })
      .where(inArray(schema.people.id, [low.personId, expiring.personId]));
    await sellCard(db, { personId: low.personId, productId: ids.tenCard, validFrom: addDaysToDate(today, -60), price: 12000 }, actor);
    for (const date of [0, 1, 2, 3, 4, 5, 6, 7]) await tick(low.membershipId, date);
    // Six months from 170 days ago: it ends within the next 14 days.
    await sellCard(db, { personId: expiring.personId, productId: ids.tenCard, validFrom: addDaysToDate(today, -170), price: 12000 }, actor);

    expect(await sendCardReminders(env, db, actor)).toEqual({ sent: 1, failed: 0 });
    await tick(low.membershipId, 8);
    expect(await balances(low.personId)).toEqual([1]);
    expect(await sendCardReminders(env, db, actor)).toEqual({ sent: 1, failed: 0 });
    expect(await sendCardReminders(env, db, actor)).toEqual({ sent: 0, failed: 0 });
    const subjects = (await mailsTo(address)).map((mail) => mail.subject).sort();
    expect(subjects).toEqual([
      "Deine Karte läuft am " + formatDate(cardValidUntil(addDaysToDate(today, -170), 6)) + " ab",
      "Deine Karte reicht noch für einen Termin",
    ]);
    const [lowMail] = (await mailsTo(address)).filter((mail) => mail.subject.startsWith("Deine Karte reicht"));
    expect(lowMail.text).toContain("auf deiner Karte „10er-Karte Spielgruppe“ ist nur noch 1 Einheit übrig");
  });
});

describe("the monthly report", () => {
  const MONTHS = Array.from({ length: 12 }, (_, index) => `2026-${String(index + 1).padStart(2, "0")}`);
  const card = fc
    .record({
      units: fc.integer({ min: 1, max: 20 }),
      price: fc.integer({ min: 0, max: 50_000 }),
      soldDay: fc.integer({ min: 0, max: 150 }),
      months: fc.integer({ min: 1, max: 6 }),
      uses: fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 20 }),
      refund: fc.boolean(),
    })
    .map((drawn) => {
      const soldOn = addDaysToDate("2026-01-01", drawn.soldDay);
      const validUntil = cardValidUntil(soldOn, drawn.months);
      // Uses within the card's time, no more than its units.
      const days = drawn.uses
        .map((offset) => addDaysToDate(soldOn, offset))
        .filter((day) => day <= validUntil)
        .slice(0, drawn.units);
      const refundedUnits = drawn.refund ? drawn.units - days.length : 0;
      return { units: drawn.units, price: drawn.price, soldOn, validUntil, days, refundedUnits };
    });

  it("accounts for every unit sold: used, expired, refunded or still open, month by month, and their value adds up to the price to the cent", () => {
    fc.assert(
      fc.property(fc.array(card, { maxLength: 15 }), (drawn) => {
        const today = "2026-12-31";
        const cards = drawn.map((entry, index) => ({
          id: index + 1,
          units: entry.units,
          price: entry.price,
          soldOn: entry.soldOn,
          validUntil: entry.validUntil,
          refundedUnits: entry.refundedUnits,
          refundedOn: entry.refundedUnits > 0 ? (entry.days.at(-1) ?? entry.soldOn) : null,
        }));
        const uses = drawn.flatMap((entry, index) => entry.days.map((day) => ({ cardId: index + 1, month: day.slice(0, 7), units: 1 })));
        const months = cardReport(cards, uses, MONTHS, today);
        const sum = (key: "soldUnits" | "usedUnits" | "expiredUnits" | "refundedUnits" | "soldValue" | "usedValue" | "expiredValue" | "refundedValue") =>
          months.reduce((total, month) => total + month[key], 0);
        // All cards end within the year and today is its last day: nothing is still open.
        expect(sum("soldUnits")).toBe(sum("usedUnits") + sum("expiredUnits") + sum("refundedUnits"));
        expect(sum("soldValue")).toBe(drawn.reduce((total, entry) => total + entry.price, 0));
        // Each card's shares add up to its price to the cent.
        expect(sum("usedValue") + sum("expiredValue") + sum("refundedValue")).toBe(sum("soldValue"));
      }),
      { seed: 20261130, numRuns: 200 },
    );
  });

  it("shows ADMIN and FINANCE the year's months, and nobody else", async () => {
    const page = await fetchApp("/cards/report?year=2026", { cookie: await loginCookie("finance") });
    const html = (await page.text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Karten: Auswertung");
    expect(html).toContain("Summe 2026");
    expect((await fetchApp("/cards/report?year=abc", { cookie: await loginCookie("admin") })).status).toBe(200);
    expect((await fetchApp("/cards/report", { cookie: await loginCookie("staff") })).status).toBe(302);
  });
});

describe("Mein Wuff", () => {
  it("shows a customer their own cards with what is left and what each attendance took, and nobody else's", async () => {
    const own = await customer("Portal");
    const other = await customer("Fremd");
    const email = `karten-${crypto.randomUUID().slice(0, 8)}@example.org`;
    await db.update(schema.people).set({ email }).where(eq(schema.people.id, own.personId));
    await sellCard(db, { personId: own.personId, productId: ids.tenCard, validFrom: addDaysToDate(today, -60), price: 12000 }, actor);
    await sellCard(db, { personId: other.personId, productId: ids.doubleCard, validFrom: addDaysToDate(today, -60), price: 20000 }, actor);
    await tick(own.membershipId, 19);
    const response = await fetchApp("/mein/karten", { cookie: await portalSessionFor(email) });
    expect(response.status).toBe(200);
    const html = (await response.text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Meine Karten &amp; Abos");
    expect(html).toContain("9 von 10 Einheiten");
    expect(html).toContain(`${formatDate(addDaysToDate(today, OFFSETS[19]))}: Spielgruppe Mittwoch`);
    expect(html).not.toContain("Doppelstunden-Karte");
    // Signed out: the sign-in page instead.
    expect((await fetchApp("/mein/karten")).status).toBe(302);
  });
});

// Last: its customers leave many ticks 'ohne Karte', which the screens above must not see first.
const operation = fc.oneof(
  fc.record({
    kind: fc.constant("sell" as const),
    product: fc.constantFrom("tenCard", "doubleCard", "monthly", "otherCard"),
    startsDaysAgo: fc.integer({ min: 0, max: 200 }),
  }),
  fc.record({ kind: fc.constant("tick" as const), date: fc.nat(OFFSETS.length - 1) }),
  fc.record({ kind: fc.constant("untick" as const), date: fc.nat(OFFSETS.length - 1) }),
  fc.record({ kind: fc.constant("refund" as const), card: fc.nat(5) }),
);

/** The card's sale fee on an issued invoice (as the invoice run leaves it), so a refund can credit it. */
async function invoiceSaleOf(cardId: number) {
  const [sale] = await db
    .select({ feeId: schema.cardFees.feeId, personId: schema.fees.personId, amount: schema.fees.amount, invoiced: schema.fees.isInvoiced })
    .from(schema.cardFees)
    .innerJoin(schema.fees, eq(schema.fees.id, schema.cardFees.feeId))
    .where(and(eq(schema.cardFees.cardId, cardId), sql`${schema.cardFees.periodStart} IS NULL`));
  if (!sale || sale.invoiced) return;
  const [draft] = await db
    .insert(schema.invoiceHeaders)
    .values({ personId: sale.personId, date: today, amount: sale.amount, openAmount: sale.amount, createdBy: "Test", createdOn: new Date().toISOString() })
    .returning({ id: schema.invoiceHeaders.id });
  await db
    .insert(schema.invoiceRows)
    .values({ invoiceId: draft.id, lineNumber: 1, text: "Karte", amount: sale.amount, feeId: sale.feeId, taxCase: "STANDARD" });
  await db.update(schema.fees).set({ isInvoiced: true }).where(eq(schema.fees.id, sale.feeId));
  expect((await issueInvoice(db, draft.id, actor, today)).status).toBe("issued");
}

/** The products valid for the open group (the Agility card is not). */
const validHere = new Set(["10er-Karte Spielgruppe", "Doppelstunden-Karte", "Spielgruppen-Abo"]);

/** The open use of a participant's attendance on one of the group's dates, if any. */
async function openUseOfDate(membershipId: number, dateIndex: number) {
  const [row] = await db.all<{ cardId: number }>(sql`SELECT u.card_id AS cardId FROM card_uses u JOIN attendances a ON a.id = u.attendance_id
    WHERE a.course_membership_id = ${membershipId} AND a.course_date_id = ${dateIds[dateIndex]} AND u.kind = 'USE'
      AND NOT EXISTS (SELECT 1 FROM card_uses r WHERE r.reverses_id = u.id)`);
  return row;
}

/** A card's balance from its records: units − uses + returns − refunded. */
const balance0 = (card: { units: number | null }, uses: { kind: "USE" | "RETURN"; units: number }[], refunded: number) =>
  cardBalance(card.units ?? 0, uses) - refunded;

describe("any sequence of sales, ticks, un-ticks, expiries and refunds", () => {
  it("keeps every card's balance units − uses + returns − refunded, never below zero, never used outside its time, one open use per tick; the journal balances", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), async (operations) => {
        const { personId, membershipId } = await customer(`Lauf${++run}`);
        let sold = 0;
        for (const [index, op] of operations.entries()) {
          const step = `${index + 1}. ${JSON.stringify(op)}`;
          if (op.kind === "sell") {
            const outcome = await sellCard(
              db,
              { personId, productId: ids[op.product], validFrom: addDaysToDate(today, -op.startsDaysAgo), price: 1000 },
              actor,
            );
            expect(outcome.status, step).toBe("sold");
            sold += 1;
          } else if (op.kind === "untick") {
            expect((await tick(membershipId, op.date, false)).status, step).toBe("saved");
          } else if (op.kind === "refund") {
            const owned = (await cardsOfPerson(db, personId)).filter((card) => card.kind === "CARD");
            const card = owned[op.card % Math.max(1, owned.length)];
            if (!card) continue;
            await invoiceSaleOf(card.id);
            const before = await refundableOf(db, card.id, today);
            const outcome = await refundCard(db, card.id, crypto.randomUUID(), actor, today);
            if (before?.refusal) expect(outcome, step).toEqual({ status: "refused", message: before.refusal });
            else {
              expect(outcome, step).toMatchObject({ status: "refunded", units: before!.balance, amount: before!.amount });
              // The price less what the used units earned, to the cent.
              expect(before!.amount, step).toBe(card.price - Math.round((card.price * (card.units! - card.balance!)) / card.units!));
            }
          } else {
            // The rule in app/lib/cards.ts is the oracle: the tick takes from the card it picks.
            const day = addDaysToDate(today, OFFSETS[op.date]);
            const before = await openUseOfDate(membershipId, op.date);
            const candidates = (await cardsOfPerson(db, personId)).filter((card) => validHere.has(card.name));
            const expected = before ? before.cardId : (cardForAttendance(candidates, day)?.id ?? null);
            expect((await tick(membershipId, op.date)).status, step).toBe("saved");
            expect((await openUseOfDate(membershipId, op.date))?.cardId ?? null, `${step}: the card the rule picks`).toBe(expected);
          }
          const cards = await db.select().from(schema.cards).where(eq(schema.cards.personId, personId));
          const uses = cards.length
            ? await db
                .select()
                .from(schema.cardUses)
                .where(
                  inArray(
                    schema.cardUses.cardId,
                    cards.map((card) => card.id),
                  ),
                )
            : [];
          const listed = await cardsOfPerson(db, personId);
          const shown = new Map(listed.map((card) => [card.id, card.balance]));
          const refunds = await db.select().from(schema.cardRefunds);
          for (const card of cards) {
            const own = uses.filter((use) => use.cardId === card.id);
            const refunded = refunds.find((refund) => refund.cardId === card.id);
            const openUses = own.filter((use) => use.kind === "USE" && !own.some((other) => other.reversesId === use.id)).length;
            expect(listed.find((row) => row.id === card.id)?.uses, `${step}: uses counted`).toBe(openUses);
            if (card.kind === "CARD") {
              const balance = balance0(card, own, refunded?.units ?? 0);
              expect(shown.get(card.id), `${step}: balance derived`).toBe(balance);
              expect(balance, `${step}: never below zero`).toBeGreaterThanOrEqual(0);
            }
            if (refunded) {
              expect(balance0(card, own, refunded.units), `${step}: nothing left after a refund`).toBe(0);
              expect(refunded.refundedOn <= (card.validUntil ?? "9999-12-31"), `${step}: refunded before expiry`).toBe(true);
            }
            for (const use of own.filter((row) => row.kind === "USE")) {
              expect(use.usedOn >= card.validFrom && (card.validUntil === null || use.usedOn <= card.validUntil), `${step}: used within its time`).toBe(true);
            }
          }
          // Each present attendance has at most one open use, an absent one none; each tick takes from at most one card.
          const open = await db.all<{ attendance_id: number; present: number; open: number }>(sql`SELECT a.id AS attendance_id, a.present,
              (SELECT count(*) FROM card_uses u WHERE u.attendance_id = a.id AND u.kind = 'USE' AND NOT EXISTS (SELECT 1 FROM card_uses r WHERE r.reverses_id = u.id)) AS open
            FROM attendances a WHERE a.course_membership_id = ${membershipId}`);
          for (const row of open) expect(row.open, `${step}: open uses of attendance ${row.attendance_id}`).toBeLessThanOrEqual(row.present);
        }
        // The books: one fee per card sold (subscriptions are billed by their periodic run), each its price.
        const cardFees = await db
          .select({ amount: schema.fees.amount })
          .from(schema.cardFees)
          .innerJoin(schema.cards, eq(schema.cards.id, schema.cardFees.cardId))
          .innerJoin(schema.fees, eq(schema.fees.id, schema.cardFees.feeId))
          .where(and(eq(schema.cards.personId, personId), eq(schema.cards.kind, "CARD")));
        const soldCards = await db
          .select({ id: schema.cards.id })
          .from(schema.cards)
          .where(and(eq(schema.cards.personId, personId), eq(schema.cards.kind, "CARD")));
        expect(cardFees.map((fee) => fee.amount)).toEqual(soldCards.map(() => 1000));
        expect(soldCards.length).toBeLessThanOrEqual(sold);
        // The journal balances: each credit note is booked once as its negative amount, and each
        // invoice is open for its amount less its credit notes (nothing was paid).
        const [journal] = await db.all<{ booked: number | null; credited: number | null; open: number | null; billed: number | null }>(sql`SELECT
            (SELECT sum(amount) FROM payments WHERE person_id = ${personId}) AS booked,
            (SELECT sum(amount) FROM invoice_headers WHERE person_id = ${personId} AND kind = 'CREDIT_NOTE') AS credited,
            (SELECT sum(open_amount) FROM invoice_headers WHERE person_id = ${personId} AND kind = 'INVOICE') AS open,
            (SELECT sum(amount) FROM invoice_headers WHERE person_id = ${personId} AND kind = 'INVOICE') AS billed`);
        // (A credit note is a negative document; its journal entry settles the invoice: + its amount.)
        expect(journal.booked ?? 0).toBe(-(journal.credited ?? 0) || 0);
        expect(journal.open ?? 0).toBe((journal.billed ?? 0) + (journal.credited ?? 0));
        const refundedAmounts = await db
          .select({ amount: schema.cardRefunds.amount })
          .from(schema.cardRefunds)
          .innerJoin(schema.cards, eq(schema.cards.id, schema.cardRefunds.cardId))
          .where(eq(schema.cards.personId, personId));
        expect(-(journal.credited ?? 0) || 0).toBe(refundedAmounts.reduce((sum, refund) => sum + refund.amount, 0));
      }),
      { numRuns: 25, seed: 20261130 },
    );
  });
});
