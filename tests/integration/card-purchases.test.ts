/**
 * Issue 34 item 2 in Mein Wuff: buying a 10er-Karte or an Abo (the evidence of what was accepted,
 * the sale as staff make it, the confirmation with the texts) and 'Verträge hier kündigen'
 * (§ 312k BGB): signed in an ordinary notice ends the chosen Abo at once, signed out or for cause
 * it waits for staff, who apply it on the screen 'Widerrufe'; each notice is confirmed by mail with
 * its time of receipt and the end.
 */
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { noticeEnd, withdrawalValue } from "~/lib/cards";
import { addDaysToDate, addMonthsToDate, formatDate, formatMoney, todayInBerlin } from "~/lib/format";
import { ACCEPT_TEXTS, PRODUCT_NOT_FOR_SALE } from "~/lib/portal";
import { TEXTS_CHANGED } from "~/models/online-bookings.server";
import { CARD_ALREADY_INVOICED } from "~/models/card-purchases.server";
import { NOTICE_UNKNOWN_SUBSCRIPTION } from "~/models/notice-declarations.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { mailsTo, useTestAccount } from "../support/mail-catcher";
import { portalSessionFor } from "../support/portal";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const today = todayInBerlin();
const REDUCED = 93;
const pageText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&");
const texts = { TERMS: 0, WITHDRAWAL: 0, PRIVACY: 0 };
const ids = { card: 0, abo: 0, hidden: 0, person: 0, other: 0 };
let testAccount: string;
let cookie: string;

const accepted = () => ({ termsId: texts.TERMS, withdrawalId: texts.WITHDRAWAL, privacyId: texts.PRIVACY, accept: true });
const cardsOf = (personId: number) => db.select().from(schema.cards).where(eq(schema.cards.personId, personId)).orderBy(schema.cards.id);
const noticesOf = (email: string) =>
  db.select().from(schema.noticeDeclarations).where(eq(schema.noticeDeclarations.email, email)).orderBy(schema.noticeDeclarations.id);

async function subscription(personId: number, name: string, validFrom: string, minTermMonths = 0) {
  const [{ id }] = await db
    .insert(schema.cards)
    .values({ personId, productId: ids.abo, kind: "SUBSCRIPTION", name, price: 4000, validFrom, period: "MONTHLY", minTermMonths, noticeMonths: 1 })
    .returning({ id: schema.cards.id });
  return id;
}

beforeAll(async () => {
  await db.insert(schema.configuration).values({ id: 1, hsvrmVereinName: "Hundefreunde Kartenkauf" }).onConflictDoNothing();
  testAccount = await useTestAccount("purchase");
  await db
    .insert(schema.memberTypes)
    .values({ id: REDUCED, code: "PURCHASE_MEMBER", name: "Mitglied (Kauf)", coursePriceTier: "REDUCED1" })
    .onConflictDoNothing();
  for (const kind of ["TERMS", "WITHDRAWAL", "PRIVACY"] as const) {
    const [{ id }] = await db
      .insert(schema.legalTexts)
      .values({ kind, version: 1, body: `Text ${kind}` })
      .onConflictDoUpdate({ target: [schema.legalTexts.kind, schema.legalTexts.version], set: { body: `Text ${kind}` } })
      .returning({ id: schema.legalTexts.id });
    texts[kind] = id;
  }
  const [{ id: master }] = await db.insert(schema.courseMasters).values({ name: "Social Walk (Kauf)" }).returning({ id: schema.courseMasters.id });
  const products = await db
    .insert(schema.cardProducts)
    .values([
      { name: "10er-Karte Social Walk", kind: "CARD", units: 10, validMonths: 6, priceFull: 15000, priceReduced1: 12000 },
      { name: "Walk-Abo", kind: "SUBSCRIPTION", period: "MONTHLY", minTermMonths: 3, noticeMonths: 1, priceFull: 5000, priceReduced1: 4000 },
      // No price for members: sold at the club only.
      { name: "Gästekarte", kind: "CARD", units: 5, validMonths: 3, priceFull: 6000, priceReduced1: 0 },
    ])
    .returning({ id: schema.cardProducts.id });
  [ids.card, ids.abo, ids.hidden] = products.map((product) => product.id);
  await db.insert(schema.cardProductScopes).values(products.map((product) => ({ productId: product.id, courseMasterId: master })));
  const [{ id: person }, { id: other }] = await db
    .insert(schema.people)
    .values([
      { firstName: "Karla", lastName: "Käuferin", email: "karla.kaeuferin@example.org", memberTypeId: REDUCED },
      { firstName: "Otto", lastName: "Anderer", email: "otto.anderer@example.org", memberTypeId: REDUCED },
    ])
    .returning({ id: schema.people.id });
  Object.assign(ids, { person, other });
  cookie = await portalSessionFor("karla.kaeuferin@example.org");
});

describe("Karte oder Abo kaufen", () => {
  it("offers the products with a price for the member type, at that price, with where they are valid", async () => {
    const response = await fetchApp("/mein/karten/kaufen", { cookie });
    expect(response.status).toBe(200);
    const page = await pageText(response);
    expect(page).toContain("10er-Karte Social Walk");
    expect(page).toContain(`: ${formatMoney(12000)}`);
    expect(page).toContain("10 Einheiten, 6 Monate gültig");
    expect(page).toContain(`Walk-Abo`);
    expect(page).toContain(`: ${formatMoney(4000)} je Monat`);
    expect(page).toContain("Mindestlaufzeit 3 Monate, kündbar mit 1 Monat Frist");
    expect(page).toContain("Gilt für: Social Walk (Kauf)");
    expect(page).not.toContain("Gästekarte");
    expect(page).toContain("Zahlungspflichtig kaufen");
  });

  it("refuses without the texts accepted, with texts changed meanwhile, and a product not for sale online: nothing is written", async () => {
    const missing = await postForm("/mein/karten/kaufen", cookie, { productId: ids.card, ...accepted(), accept: false });
    expect(missing.status).toBe(400);
    expect(await pageText(missing)).toContain(ACCEPT_TEXTS);
    const stale = await postForm("/mein/karten/kaufen", cookie, { productId: ids.card, ...accepted(), termsId: texts.TERMS + 1000 });
    expect(stale.status).toBe(409);
    expect(await pageText(stale)).toContain(TEXTS_CHANGED);
    const hidden = await postForm("/mein/karten/kaufen", cookie, { productId: ids.hidden, ...accepted() });
    expect(hidden.status).toBe(409);
    expect(await pageText(hidden)).toContain(PRODUCT_NOT_FOR_SALE);
    expect(await cardsOf(ids.person)).toEqual([]);
  });

  it("buys a card from today at the member's price: the card, its fee and the evidence in one batch, and the confirmation with the texts", async () => {
    const response = await postForm("/mein/karten/kaufen", cookie, { productId: ids.card, ...accepted(), earlyStart: true });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/mein/karten");
    const validUntil = addDaysToDate(addMonthsToDate(today, 6), -1);
    expect(toastOf(response)?.message).toBe(
      `Gekauft: 10er-Karte Social Walk, gültig vom ${formatDate(today)} bis ${formatDate(validUntil)}. Die Bestätigung kommt per E-Mail, die Rechnung gesondert.`,
    );
    const [card] = await cardsOf(ids.person);
    expect(card).toMatchObject({ kind: "CARD", units: 10, price: 12000, validFrom: today, validUntil, createdBy: "Karla Käuferin (Mein Wuff)" });
    const [purchase] = await db.select().from(schema.cardPurchases).where(eq(schema.cardPurchases.cardId, card.id));
    expect(purchase).toMatchObject({ termsTextId: texts.TERMS, withdrawalTextId: texts.WITHDRAWAL, privacyTextId: texts.PRIVACY, earlyStart: true });
    const fees = await db
      .select({ amount: schema.fees.amount, text: schema.fees.text })
      .from(schema.fees)
      .innerJoin(schema.cardFees, eq(schema.cardFees.feeId, schema.fees.id))
      .where(eq(schema.cardFees.cardId, card.id));
    expect(fees).toEqual([{ amount: 12000, text: expect.stringContaining("10er-Karte Social Walk") }]);
    const [mail] = (await mailsTo(testAccount)).filter((caught) => caught.subject === "Dein Kauf: 10er-Karte Social Walk");
    expect(mail.text).toContain(`für ${formatMoney(12000)}`);
    expect(mail.text).toContain("anteilig Wertersatz");
    expect(mail.attachments?.map((attachment) => attachment.filename).sort()).toEqual(["AGB-Fassung-1.txt", "Widerrufsbelehrung-Fassung-1.txt"]);
    const mine = await pageText(await fetchApp("/mein/karten", { cookie }));
    expect(mine).toContain("10 von 10 Einheiten");
  });
});

describe("Verträge hier kündigen", () => {
  it("is in every page's footer and open without an account", async () => {
    expect(await pageText(await fetchApp("/mein/widerruf"))).toContain('href="/mein/kuendigen"');
    const form = await fetchApp("/mein/kuendigen");
    expect(form.status).toBe(200);
    const page = await pageText(form);
    expect(page).toContain("Jetzt kündigen");
    expect(page).toContain("Zum nächstmöglichen Zeitpunkt");
  });

  it("signed in, ends the chosen Abo at once by an ordinary notice, confirms content, receipt and end, and lists it no more", async () => {
    const abo = await subscription(ids.person, "Walk-Abo", "2026-01-05");
    const page = await pageText(await fetchApp(`/mein/kuendigen?abo=${abo}`, { cookie }));
    const end = noticeEnd({ validFrom: "2026-01-05", minTermMonths: 0, noticeMonths: 1 }, { on: today, kind: "ORDINARY", wantedEnd: null });
    expect(page).toContain(`Frühestes Ende bei ordentlicher Kündigung heute: ${formatDate(end)}`);
    const response = await postForm("/mein/kuendigen", cookie, {
      name: "Karla Käuferin",
      email: "karla.kaeuferin@example.org",
      kind: "ORDINARY",
      subscription: abo,
      end: "earliest",
    });
    expect(response.status).toBe(200);
    const answer = await pageText(response);
    expect(answer).toContain(`Dein Vertrag endet am ${formatDate(end)}.`);
    expect(answer).toContain("Hiermit kündige ich ordentlich den folgenden Vertrag: Walk-Abo (Abo seit 05.01.2026)");
    const [card] = await db.select().from(schema.cards).where(eq(schema.cards.id, abo));
    expect(card).toMatchObject({ noticeReceivedOn: today, validUntil: end });
    const [notice] = (await noticesOf("karla.kaeuferin@example.org")).filter((row) => row.cardId === abo);
    expect(notice).toMatchObject({ status: "APPLIED", endOn: end, kind: "ORDINARY", wantedEnd: null });
    expect(notice.confirmationSentOn).not.toBeNull();
    const [mail] = (await mailsTo(testAccount)).filter(
      (caught) => caught.subject === "Eingangsbestätigung deiner Kündigung" && caught.text.includes("Walk-Abo"),
    );
    expect(mail.text).toContain(`Dein Vertrag endet damit am ${formatDate(end)}.`);
    expect(mail.text).toMatch(/Eingang deiner Kündigung am \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d Uhr/);
    // Noticed once: the Abo is no longer offered, and naming it again is refused.
    expect(await pageText(await fetchApp("/mein/kuendigen", { cookie }))).not.toContain("Abo seit 05.01.2026");
    const again = await postForm("/mein/kuendigen", cookie, {
      name: "Karla",
      email: "karla.kaeuferin@example.org",
      kind: "ORDINARY",
      subscription: abo,
      end: "earliest",
    });
    expect(again.status).toBe(409);
    expect(await pageText(again)).toContain(NOTICE_UNKNOWN_SUBSCRIPTION);
  });

  it("takes a later end wished, never one before the minimum term, and refuses a day in the past", async () => {
    const abo = await subscription(ids.person, "Walk-Abo lang", today, 3);
    const minimum = addDaysToDate(addMonthsToDate(today, 3), -1);
    const past = await postForm("/mein/kuendigen", cookie, {
      name: "Karla",
      email: "karla.kaeuferin@example.org",
      kind: "ORDINARY",
      subscription: abo,
      end: "date",
      wantedEnd: formatDate(addDaysToDate(today, -1)),
    });
    expect(past.status).toBe(400);
    expect(await pageText(past)).toContain("Der Tag liegt in der Vergangenheit.");
    const tooEarly = formatDate(addDaysToDate(today, 10));
    const response = await postForm("/mein/kuendigen", cookie, {
      name: "Karla",
      email: "karla.kaeuferin@example.org",
      kind: "ORDINARY",
      subscription: abo,
      end: "date",
      wantedEnd: tooEarly,
    });
    expect(response.status).toBe(200);
    expect(await pageText(response)).toContain(`Dein Vertrag endet am ${formatDate(minimum)}.`);
    const later = await subscription(ids.person, "Walk-Abo später", "2026-01-05");
    const wanted = addDaysToDate(today, 90);
    const laterResponse = await postForm("/mein/kuendigen", cookie, {
      name: "Karla",
      email: "karla.kaeuferin@example.org",
      kind: "ORDINARY",
      subscription: later,
      end: "date",
      wantedEnd: formatDate(wanted),
    });
    expect(await pageText(laterResponse)).toContain(`Dein Vertrag endet am ${formatDate(wanted)}.`);
  });

  it("signed in, a notice for cause waits for staff and changes nothing yet", async () => {
    const abo = await subscription(ids.person, "Walk-Abo Grund", "2026-02-01", 12);
    const missingReason = await postForm("/mein/kuendigen", cookie, {
      name: "Karla",
      email: "karla.kaeuferin@example.org",
      kind: "EXTRAORDINARY",
      subscription: abo,
      end: "earliest",
    });
    expect(missingReason.status).toBe(400);
    expect(await pageText(missingReason)).toContain("Bitte nenne den wichtigen Grund");
    const response = await postForm("/mein/kuendigen", cookie, {
      name: "Karla",
      email: "karla.kaeuferin@example.org",
      kind: "EXTRAORDINARY",
      reason: "Mein Hund ist krank und darf nicht mehr laufen.",
      subscription: abo,
      end: "earliest",
    });
    expect(response.status).toBe(200);
    expect(await pageText(response)).toContain("Sobald wir die Kündigung deinem Vertrag zugeordnet haben");
    const [card] = await db.select().from(schema.cards).where(eq(schema.cards.id, abo));
    expect(card.noticeReceivedOn).toBeNull();
    const [notice] = (await noticesOf("karla.kaeuferin@example.org")).filter((row) => row.cardId === abo);
    expect(notice).toMatchObject({ status: "OPEN", kind: "EXTRAORDINARY", endOn: null });
  });

  it("signed out, takes the notice in words for staff, who apply it to an Abo under its address: the end counts from the receipt and is mailed", async () => {
    const abo = await subscription(ids.other, "Walk-Abo Otto", "2026-03-01");
    const response = await postForm("/mein/kuendigen", "", {
      name: "Otto Anderer",
      email: " Otto.Anderer@example.org ",
      kind: "ORDINARY",
      contract: "Mein Walk-Abo seit März",
      end: "earliest",
    });
    expect(response.status).toBe(200);
    expect(await pageText(response)).toContain("Dein Vertrag endet zum gewünschten Zeitpunkt, frühestens zum nächstmöglichen.");
    const [notice] = await noticesOf("otto.anderer@example.org");
    expect(notice).toMatchObject({ status: "OPEN", cardId: null, contract: "Mein Walk-Abo seit März" });
    const staff = await loginCookie("admin");
    const screen = await pageText(await fetchApp("/withdrawals", { cookie: staff }));
    expect(screen).toContain("„Mein Walk-Abo seit März“");
    expect(screen).toContain("Walk-Abo Otto seit 01.03.2026");
    const applied = await postForm("/withdrawals", staff, { decision: "applyNotice", id: notice.id, rowVersion: notice.rowVersion, cardId: abo });
    expect(applied.status).toBe(302);
    const end = noticeEnd({ validFrom: "2026-03-01", minTermMonths: 0, noticeMonths: 1 }, { on: today, kind: "ORDINARY", wantedEnd: null });
    expect(toastOf(applied)?.message).toBe(
      `Kündigung angewendet: Das Abo endet am ${formatDate(end)}. Die Bestätigung geht per E-Mail an otto.anderer@example.org.`,
    );
    const [card] = await db.select().from(schema.cards).where(eq(schema.cards.id, abo));
    expect(card).toMatchObject({ noticeReceivedOn: today, validUntil: end });
    const [settled] = await db.select().from(schema.noticeDeclarations).where(eq(schema.noticeDeclarations.id, notice.id));
    expect(settled).toMatchObject({ status: "APPLIED", cardId: abo, endOn: end });
    const confirmations = (await mailsTo(testAccount)).filter(
      (caught) => caught.subject === "Eingangsbestätigung deiner Kündigung" && caught.text.includes("Otto"),
    );
    expect(confirmations.map((mail) => mail.text.includes(`Dein Vertrag endet damit am ${formatDate(end)}.`)).sort()).toEqual([false, true]);
    // Applied once: the same form again finds it settled.
    const twice = await postForm("/withdrawals", staff, { decision: "applyNotice", id: notice.id, rowVersion: notice.rowVersion, cardId: abo });
    expect(twice.status).toBe(409);
  });

  it("lets staff close a notice with a note, and refuses an Abo the notice cannot name", async () => {
    await postForm("/mein/kuendigen", "", { name: "Niemand", email: "niemand@example.org", kind: "ORDINARY", contract: "Irgendein Abo", end: "earliest" });
    const [notice] = await noticesOf("niemand@example.org");
    const staff = await loginCookie("admin");
    const otherAbo = await subscription(ids.other, "Fremdes Abo", "2026-03-01");
    const wrong = await postForm("/withdrawals", staff, { decision: "applyNotice", id: notice.id, rowVersion: notice.rowVersion, cardId: otherAbo });
    expect(wrong.status).toBe(409);
    expect((await db.select().from(schema.cards).where(eq(schema.cards.id, otherAbo)))[0].noticeReceivedOn).toBeNull();
    const noNote = await postForm("/withdrawals", staff, { decision: "closeNotice", id: notice.id, rowVersion: notice.rowVersion, note: " " });
    expect(noNote.status).toBe(400);
    const closed = await postForm("/withdrawals", staff, { decision: "closeNotice", id: notice.id, rowVersion: notice.rowVersion, note: "Kein Abo bei uns" });
    expect(toastOf(closed)?.message).toBe("Kündigung als erledigt vermerkt.");
    const [row] = await db
      .select()
      .from(schema.noticeDeclarations)
      .where(and(eq(schema.noticeDeclarations.id, notice.id), eq(schema.noticeDeclarations.status, "CLOSED")));
    expect(row.settleNote).toBe("Kein Abo bei uns");
  });
});

describe("Widerruf eines Kaufs (§ 355, § 357a Abs. 2 BGB)", () => {
  const card = { kind: "CARD" as const, price: 12000, units: 10, validFrom: "2026-11-01", period: null };
  const abo = { kind: "SUBSCRIPTION" as const, price: 3100, units: null, validFrom: "2026-12-01", period: "MONTHLY" as const };

  it("owes nothing without the early start asked for, else the share of what was used: units of a card, days of an Abo", () => {
    expect(withdrawalValue(card, { earlyStart: false, usedUnits: 3, withdrawnOn: "2026-11-10" })).toBe(0);
    expect(withdrawalValue(card, { earlyStart: true, usedUnits: 3, withdrawnOn: "2026-11-10" })).toBe(3600);
    expect(withdrawalValue(card, { earlyStart: true, usedUnits: 0, withdrawnOn: "2026-11-10" })).toBe(0);
    // 10 of December's 31 days.
    expect(withdrawalValue(abo, { earlyStart: true, usedUnits: 0, withdrawnOn: "2026-12-10" })).toBe(1000);
    expect(withdrawalValue(abo, { earlyStart: false, usedUnits: 0, withdrawnOn: "2026-12-10" })).toBe(0);
    expect(withdrawalValue(abo, { earlyStart: true, usedUnits: 0, withdrawnOn: "2026-11-30" })).toBe(0);
  });

  it("ends a card bought here within 14 days, cancels its fee through the journal, confirms by mail, and only once", async () => {
    const bought = await postForm("/mein/karten/kaufen", cookie, { productId: ids.card, ...accepted() });
    expect(bought.status).toBe(302);
    const card = (await cardsOf(ids.person)).at(-1)!;
    const page = await pageText(await fetchApp("/mein/karten", { cookie }));
    expect(page).toContain(`Widerrufen kannst du bis ${formatDate(addDaysToDate(today, 14))}`);
    const response = await postForm("/mein/karten", cookie, { intent: "withdraw", cardId: card.id });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toMatch(
      new RegExp(
        `^Dein Widerruf ist am \\d\\d\\.\\d\\d\\.\\d{4} \\d\\d:\\d\\d Uhr eingegangen: 10er-Karte Social Walk gilt nicht mehr\\. Die Gebühr ist über ${formatMoney(12000)} storniert\\.$`,
      ),
    );
    const [ended] = await db.select().from(schema.cards).where(eq(schema.cards.id, card.id));
    expect(ended.validUntil).toBe(today);
    // Its units are gone with it: no reminder, no tick takes them.
    const after = await pageText(await fetchApp("/mein/karten", { cookie }));
    expect(after).toContain("0 von 10 Einheiten");
    expect(after).toContain("widerrufen");
    const [purchase] = await db.select().from(schema.cardPurchases).where(eq(schema.cardPurchases.cardId, card.id));
    expect(purchase.withdrawnOn).not.toBeNull();
    const [fee] = await db
      .select({ openAmount: schema.fees.openAmount })
      .from(schema.fees)
      .innerJoin(schema.cardFees, eq(schema.cardFees.feeId, schema.fees.id))
      .where(eq(schema.cardFees.cardId, card.id));
    expect(fee.openAmount).toBe(0);
    const storno = await db
      .select({ amount: schema.payments.amount })
      .from(schema.payments)
      .where(eq(schema.payments.entryKey, `card-withdrawal:${card.id}:${await feeIdOf(card.id)}`));
    expect(storno).toEqual([{ amount: 12000 }]);
    const [mail] = (await mailsTo(testAccount)).filter((caught) => caught.subject === "Dein Widerruf: 10er-Karte Social Walk");
    expect(mail.text).toContain("Hiermit widerrufe ich den online geschlossenen Vertrag über 10er-Karte Social Walk");
    const again = await postForm("/mein/karten", cookie, { intent: "withdraw", cardId: card.id });
    expect(again.status).toBe(404);
  });

  it("refuses once the card is on an invoice (the club credits it), and another's card", async () => {
    await postForm("/mein/karten/kaufen", cookie, { productId: ids.card, ...accepted() });
    const card = (await cardsOf(ids.person)).at(-1)!;
    await db
      .update(schema.fees)
      .set({ isInvoiced: true })
      .where(eq(schema.fees.id, await feeIdOf(card.id)));
    const invoiced = await postForm("/mein/karten", cookie, { intent: "withdraw", cardId: card.id });
    expect(invoiced.status).toBe(409);
    expect(await pageText(invoiced)).toContain(CARD_ALREADY_INVOICED);
    const otherCookie = await portalSessionFor("otto.anderer@example.org");
    const foreign = await postForm("/mein/karten", otherCookie, { intent: "withdraw", cardId: card.id });
    expect(foreign.status).toBe(404);
    const [kept] = await db.select().from(schema.cardPurchases).where(eq(schema.cardPurchases.cardId, card.id));
    expect(kept.withdrawnOn).toBeNull();
  });
});

async function feeIdOf(cardId: number): Promise<number> {
  const [row] = await db.select({ feeId: schema.cardFees.feeId }).from(schema.cardFees).where(eq(schema.cardFees.cardId, cardId));
  return row.feeId;
}
