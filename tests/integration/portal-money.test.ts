/**
 * Mein Wuff, my money (issue 32 item 4), by requests as a browser and Mollie send them: a person
 * sees their own open items, invoices (PDF), payments and credit only; pays several items at once
 * through one Mollie link (the local fake), booked once through the payment journal whatever the
 * number of webhook calls; gives a SEPA mandate that counts only after the mailed link, replaces
 * the active one, is stored as a PDF and is what the next Lastschriftlauf collects with. Two
 * families: nobody reaches the other's invoices, mandates or items by any id.
 */
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { maskIban } from "~/lib/banking";
import { formatMoney, todayInBerlin } from "~/lib/format";
import { MANDATE_CONFIRMED, MANDATE_LINK_SENT, MANDATE_LINK_UNUSABLE, PAYMENT_THANKS_PAID, PAYMENT_THANKS_PENDING } from "~/lib/portal";
import { peopleToCollect } from "~/models/direct-debits.server";
import { bookCheckoutPayment, ITEM_NOT_PAYABLE, NOTHING_CHOSEN } from "~/models/portal-money.server";
import { personCredit } from "~/models/payments.server";
import { storeMandatePdf } from "~/services/mandate-pdfs.server";
import { fetchApp, toastOf } from "../support/app";
import { mailsTo, tinyPdf, useTestAccount } from "../support/mail-catcher";
import { portalSessionFor } from "../support/portal";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const fakeOrigin = env.MOLLIE_API_URL.replace(/\/v2$/, "");
let testAccount: string;
let anna: number;
let berta: number;
let annaCookie: string;
let bertaCookie: string;
let annaInvoice: number;
let annaDraft: number;
let bertaInvoice: number;
let annaFee: number;
let annaSecondFee: number;
let bertaFee: number;

const pageText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "").replaceAll("&quot;", '"');
const post = (path: string, cookie: string, fields: [string, string][]) => fetchApp(path, { method: "POST", cookie, body: new URLSearchParams(fields) });

async function issuedInvoice(personId: number, invoiceNumber: number, amount: number, pdfFilePath: string | null) {
  const [row] = await db
    .insert(schema.invoiceHeaders)
    .values({
      personId,
      invoiceNumber,
      status: "ISSUED",
      issuedOn: "2026-10-01T10:00:00.000Z",
      issuedBy: "Test",
      date: "2026-10-01",
      dueDate: "2026-10-15",
      amount,
      openAmount: amount,
      pdfFilePath,
    })
    .returning({ id: schema.invoiceHeaders.id });
  return row.id;
}

async function openFee(personId: number, text: string, amount: number) {
  const [row] = await db
    .insert(schema.fees)
    .values({ personId, date: "2026-11-01", dueDate: "2026-12-01", text, amount, openAmount: amount, sendInvoice: false, kind: "OTHER" })
    .returning({ id: schema.fees.id });
  return row.id;
}

beforeAll(async () => {
  await db.insert(schema.memberTypes).values({ id: 1, code: "NONE", name: "Kein Mitglied" }).onConflictDoNothing();
  await db.insert(schema.configuration).values({ id: 1 }).onConflictDoNothing();
  await db
    .update(schema.configuration)
    .set({
      clubName: "Hundefreunde Geld e.V.",
      clubStreet: "Am Platz 1",
      clubZip: "35037",
      clubCity: "Marburg",
      iban: "DE02120300000000202051",
      bankAccountHolder: "Hundefreunde Geld e.V.",
      creditorId: "DE98ZZZ09999999999",
      mandateText: "Ich ermächtige die Hundefreunde Geld e.V., Zahlungen von meinem Konto mittels Lastschrift einzuziehen.",
      mollieIntegration: true,
    })
    .where(eq(schema.configuration.id, 1));
  testAccount = await useTestAccount("portal-money");
  [{ id: anna }, { id: berta }] = await db
    .insert(schema.people)
    .values([
      { firstName: "Anna", lastName: "Geld", email: "anna.geld@example.org", streetNumber: "Weg 2", zip: "35037", city: "Marburg", memberTypeId: 1 },
      { firstName: "Berta", lastName: "Geld", email: "berta.geld@example.org", memberTypeId: 1 },
    ])
    .returning({ id: schema.people.id });
  await env.INVOICES.put("Rechnung_990001_Geld_2026.pdf", tinyPdf("Rechnung 990001"));
  annaInvoice = await issuedInvoice(anna, 990001, 5000, "Rechnung_990001_Geld_2026.pdf");
  bertaInvoice = await issuedInvoice(berta, 990002, 7000, "Rechnung_990002_Geld_2026.pdf");
  [{ id: annaDraft }] = await db
    .insert(schema.invoiceHeaders)
    .values({ personId: anna, status: "DRAFT", date: "2026-11-01", amount: 100, openAmount: 100 })
    .returning({ id: schema.invoiceHeaders.id });
  annaFee = await openFee(anna, "Kursgebühr Welpen", 3000);
  annaSecondFee = await openFee(anna, "Prüfungsgebühr", 1500);
  bertaFee = await openFee(berta, "Kursgebühr Berta", 2500);
  annaCookie = await portalSessionFor("anna.geld@example.org");
  bertaCookie = await portalSessionFor("berta.geld@example.org");
});

const checkoutsOf = (personId: number) => db.select().from(schema.portalCheckouts).where(eq(schema.portalCheckouts.personId, personId));
const openOf = async (table: typeof schema.fees | typeof schema.invoiceHeaders, id: number) =>
  (await db.select({ open: table.openAmount }).from(table).where(eq(table.id, id)))[0].open;

/** What a customer does on Mollie's page: pays through the link; the fake answers the webhook call it would send. */
async function payThroughFake(linkId: string) {
  const response = await fetch(`${fakeOrigin}/_fake/payment-links/${linkId}/pay`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ notify: false }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { payment: { id: string }; webhook: { url: string; body: string } };
}

function deliverWebhook(webhook: { url: string; body: string }) {
  const url = new URL(webhook.url);
  return fetchApp(`${url.pathname}${url.search}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: webhook.body });
}

describe("Meine Zahlungen: what is open, invoiced and paid", () => {
  it("shows the person's own open items, invoices and payments only", async () => {
    const page = await pageText(await fetchApp("/mein/zahlungen", { cookie: annaCookie }));
    expect(page).toContain("Meine Zahlungen");
    expect(page).toContain("Rechnung 990001");
    expect(page).toContain("Kursgebühr Welpen");
    expect(page).toContain(`Offen: <strong>${formatMoney(9500)}</strong>`);
    expect(page).toContain("Verwendungszweck „ReNr 990001“");
    expect(page).toContain("IBAN DE02 1203 0000 0000 2020 51");
    expect(page).not.toContain("990002");
    expect(page).not.toContain("Kursgebühr Berta");
    // A draft is no invoice yet: neither listed nor payable.
    expect(page).not.toContain(`value="R${annaDraft}"`);
  });

  it("gives the PDF of an own issued invoice only; anyone else's, a draft or no id answer 404 alike", async () => {
    const own = await fetchApp(`/mein/rechnungen/${annaInvoice}`, { cookie: annaCookie });
    expect([own.status, own.headers.get("Content-Type"), own.headers.get("Content-Disposition")?.startsWith("attachment")]).toEqual([
      200,
      "application/pdf",
      true,
    ]);
    expect(new TextDecoder().decode((await own.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    for (const [path, cookie] of [
      [`/mein/rechnungen/${bertaInvoice}`, annaCookie],
      [`/mein/rechnungen/${annaInvoice}`, bertaCookie],
      [`/mein/rechnungen/${annaDraft}`, annaCookie],
      ["/mein/rechnungen/abc", annaCookie],
    ] as const) {
      const refused = await fetchApp(path, { cookie });
      expect([path, refused.status]).toEqual([path, 404]);
      await refused.body?.cancel();
    }
  });

  it("answers no staff session and no visitor", async () => {
    for (const cookie of [await loginCookie("admin"), undefined]) {
      for (const path of ["/mein/zahlungen", `/mein/rechnungen/${annaInvoice}`]) {
        const response = await fetchApp(path, { cookie });
        expect([path, response.status, response.headers.get("Location")]).toEqual([path, 302, "/mein"]);
      }
    }
  });
});

describe("paying several open items online", () => {
  it("refuses nothing chosen, someone else's item and malformed keys, and changes nothing", async () => {
    const before = (await checkoutsOf(anna)).length;
    for (const [items, message] of [
      [[], NOTHING_CHOSEN],
      [[`R${bertaInvoice}`], ITEM_NOT_PAYABLE],
      [[`P${bertaFee}`], ITEM_NOT_PAYABLE],
      [[`P${annaFee}`, `R${annaDraft}`], ITEM_NOT_PAYABLE],
      [["X1"], ITEM_NOT_PAYABLE],
      [["R0"], ITEM_NOT_PAYABLE],
    ] as const) {
      const refused = await post("/mein/zahlungen", annaCookie, [["intent", "pay"], ...items.map((key): [string, string] => ["item", key])]);
      expect(refused.status).toBe(400);
      expect(await pageText(refused)).toContain(message);
    }
    expect((await checkoutsOf(anna)).length).toBe(before);
  });

  it("pays an invoice and a fee through one link, booked once through the journal however often Mollie calls", async () => {
    const chosen: [string, string][] = [
      ["intent", "pay"],
      ["item", `R${annaInvoice}`],
      ["item", `P${annaFee}`],
    ];
    const sent = await post("/mein/zahlungen", annaCookie, chosen);
    expect(sent.status).toBe(302);
    const linkUrl = sent.headers.get("Location")!;
    expect(linkUrl.startsWith(fakeOrigin)).toBe(true);
    // Sent twice (a double click, the back button): the same checkout and link.
    const again = await post("/mein/zahlungen", annaCookie, chosen);
    expect(again.headers.get("Location")).toBe(linkUrl);
    const [checkout] = await checkoutsOf(anna);
    expect([checkout.amount, checkout.linkUrl, checkout.paymentId]).toEqual([8000, linkUrl, null]);
    const waiting = await pageText(await fetchApp(`/mein/zahlungen?zahlung=${checkout.id}`, { cookie: annaCookie }));
    expect(waiting).toContain(PAYMENT_THANKS_PENDING);

    const { payment, webhook } = await payThroughFake(checkout.linkId!);
    expect(new URL(webhook.url).searchParams.get("checkout")).toBe(String(checkout.id));
    for (const expected of ["gebucht.", "war schon gebucht."]) {
      const answer = await deliverWebhook(webhook);
      expect([answer.status, await answer.text()]).toEqual([200, `Zahlung ${payment.id} ${expected}`]);
    }
    expect([await openOf(schema.invoiceHeaders, annaInvoice), await openOf(schema.fees, annaFee), await openOf(schema.fees, annaSecondFee)]).toEqual([
      0, 0, 1500,
    ]);
    const entries = await db
      .select()
      .from(schema.payments)
      .where(eq(schema.payments.entryKey, `mollie:${payment.id}`));
    expect(entries.map((entry) => [entry.personId, entry.amount, entry.method])).toEqual([[anna, 8000, "MOLLIE"]]);
    const allocations = await db.select().from(schema.paymentAllocations).where(eq(schema.paymentAllocations.paymentId, entries[0].id));
    expect(allocations.map((a) => [a.invoiceId, a.feeId, a.amount]).sort()).toEqual(
      [
        [annaInvoice, null, 5000],
        [null, annaFee, 3000],
      ].sort(),
    );
    const paid = await pageText(await fetchApp(`/mein/zahlungen?zahlung=${checkout.id}`, { cookie: annaCookie }));
    expect(paid).toContain(PAYMENT_THANKS_PAID(formatMoney(8000)));
    // Berta cannot see Anna's checkout by its id.
    expect(await pageText(await fetchApp(`/mein/zahlungen?zahlung=${checkout.id}`, { cookie: bertaCookie }))).not.toContain("Danke!");
  });

  it("books what an item no longer needs as the person's credit", async () => {
    const sent = await post("/mein/zahlungen", annaCookie, [
      ["intent", "pay"],
      ["item", `P${annaSecondFee}`],
    ]);
    expect(sent.status).toBe(302);
    const [checkout] = (await checkoutsOf(anna)).filter((row) => row.paymentId === null);
    const booked = await bookCheckoutPayment(db, {
      paymentId: "tr_moreThanOpen1",
      checkoutId: checkout.id,
      amount: 2000,
      paidOn: "2026-11-27",
      comment: "Test",
    });
    expect(booked).toEqual({ status: "booked", applied: 1500, credit: 500 });
    expect(await openOf(schema.fees, annaSecondFee)).toBe(0);
    expect(await personCredit(db, anna)).toBe(500);
    expect(
      await bookCheckoutPayment(db, { paymentId: "tr_moreThanOpen1", checkoutId: checkout.id, amount: 2000, paidOn: "2026-11-27", comment: "Test" }),
    ).toEqual({
      status: "already",
    });
    expect(await pageText(await fetchApp("/mein/zahlungen", { cookie: annaCookie }))).toContain(`Dein Guthaben: ${formatMoney(500)}`);
  });

  it("refuses a webhook call whose signature names another checkout", async () => {
    const [checkout] = await checkoutsOf(anna);
    const forged = await fetchApp(`/api/public/mollie/webhook?checkout=${checkout.id + 1}&sig=${"0".repeat(64)}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "id=tr_forged1",
    });
    expect(forged.status).toBe(403);
  });
});

describe("a SEPA mandate given online", () => {
  const mandateFields = (fields: Record<string, string>): [string, string][] => Object.entries({ intent: "mandate", ...fields });

  it("refuses a wrong IBAN and a missing consent in German, and asks nothing", async () => {
    const wrongIban = await post("/mein/zahlungen", annaCookie, mandateFields({ accountHolder: "Anna Geld", iban: "DE02120300000000202052", agree: "on" }));
    expect(wrongIban.status).toBe(400);
    expect(await pageText(wrongIban)).toContain("Die IBAN ist ungültig (Prüfsumme falsch)");
    const noConsent = await post("/mein/zahlungen", annaCookie, mandateFields({ accountHolder: "Anna Geld", iban: "DE02120300000000202051" }));
    expect(noConsent.status).toBe(400);
    expect(await pageText(noConsent)).toContain("Bitte bestätige, dass du das Mandat erteilst");
    expect(await db.$count(schema.portalMandateRequests, eq(schema.portalMandateRequests.personId, anna))).toBe(0);
  });

  it("counts only after the mailed link, replaces the active mandate, is stored as a PDF and is collected with next", async () => {
    const [old] = await db
      .insert(schema.sepaMandates)
      .values({ personId: anna, accountHolder: "Anna Geld", iban: "DE89370400440532013000", reference: `WUFF-${anna}-1`, mandateDate: "2025-01-01" })
      .returning({ id: schema.sepaMandates.id });
    const asked = await post("/mein/zahlungen", annaCookie, mandateFields({ accountHolder: "Anna Geld", iban: "de02 1203 0000 0000 2020 51", agree: "on" }));
    expect(asked.status).toBe(200);
    expect(await pageText(asked)).toContain(MANDATE_LINK_SENT("anna.geld@example.org"));
    expect(await db.$count(schema.sepaMandates, eq(schema.sepaMandates.personId, anna))).toBe(1);
    const [mail] = (await mailsTo(testAccount)).filter((caught) => caught.headers["x-wuff-intended-to"] === "anna.geld@example.org");
    expect(mail.subject).toMatch(/^Bitte bestätige dein Lastschriftmandat bei /);
    expect(mail.text).toContain(`für das Konto ${maskIban("DE02120300000000202051")}`);
    expect(mail.text).not.toContain("DE02120300000000202051");
    const path = /\/mein\/lastschrift\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0];
    expect(await pageText(await fetchApp(path))).toContain("Mandat bestätigen");
    const confirmed = await fetchApp(path, { method: "POST", body: new URLSearchParams() });
    const reference = `WUFF-${anna}-2`;
    expect([confirmed.status, toastOf(confirmed)?.message]).toEqual([302, MANDATE_CONFIRMED(reference)]);
    const again = await fetchApp(path, { method: "POST", body: new URLSearchParams() });
    expect([again.status, (await pageText(again)).includes(MANDATE_LINK_UNUSABLE)]).toEqual([400, true]);

    const mandates = await db.select().from(schema.sepaMandates).where(eq(schema.sepaMandates.personId, anna));
    expect(mandates.map((m) => [m.reference, m.isActive, m.source, m.iban])).toEqual([
      [`WUFF-${anna}-1`, false, "STAFF", "DE89370400440532013000"],
      [reference, true, "PORTAL", "DE02120300000000202051"],
    ]);
    const fresh = mandates[1];
    expect([fresh.mandateDate, fresh.createdBy]).toEqual([todayInBerlin(), "Anna Geld (Mein Wuff)"]);
    expect(mandates[0].id).toBe(old.id);

    await storeMandatePdf(env, db, fresh.id);
    const [stored] = await db.select().from(schema.sepaMandates).where(eq(schema.sepaMandates.id, fresh.id));
    expect(stored.documentKey).toBe(`mandates/${reference}.pdf`);
    const own = await fetchApp(`/mein/mandate/${fresh.id}`, { cookie: annaCookie });
    expect([own.status, own.headers.get("Content-Type")]).toEqual([200, "application/pdf"]);
    expect(new TextDecoder().decode((await own.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    for (const [path2, cookie] of [
      [`/mein/mandate/${fresh.id}`, bertaCookie],
      [`/mein/mandate/${old.id}`, annaCookie],
    ] as const) {
      const refused = await fetchApp(path2, { cookie });
      expect([path2, refused.status]).toEqual([path2, 404]);
      await refused.body?.cancel();
    }
    const page = await pageText(await fetchApp("/mein/zahlungen", { cookie: annaCookie }));
    expect(page).toContain(`Mandat ${reference} vom`);
    expect(page).not.toContain("DE02120300000000202051");

    // The next Lastschriftlauf collects Anna's direct fees with it.
    await openFee(anna, "Jahresbeitrag 2027", 6000);
    expect(await peopleToCollect(db, todayInBerlin())).toContain(anna);
    const [request] = await db
      .select()
      .from(schema.portalMandateRequests)
      .where(and(eq(schema.portalMandateRequests.personId, anna)));
    expect(request.mandateId).toBe(fresh.id);
  });
});
