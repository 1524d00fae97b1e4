/**
 * Mollie payment links and the webhook, against the local fake of Mollie's API
 * (tests/local/mollie-fake.ts, started by the global setup on a free port): the worker reaches it
 * by fetch exactly as it would reach api.mollie.com. The fake cannot reach the worker under test
 * (workerd in vitest has no listening port), so the test delivers the webhook call the fake
 * answers it would have sent, and then once more: Mollie may call any number of times.
 * (The browser test tests/e2e/mollie.spec.ts runs the loop with the fake calling the app itself.)
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { formatMoney } from "~/lib/format";
import * as schema from "~/db/schema";
import { FEE_ALREADY_PAID, MOLLIE_NOT_CONFIGURED, fromMollieValue, paymentLinkForFee, toMollieValue, webhookUrlFor } from "~/services/payments.server";
import { fetchApp } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const fakeOrigin = env.MOLLIE_API_URL.replace(/\/v2$/, "");
let personId: number;
let finance: string;

beforeAll(async () => {
  await loadDemoData();
  [{ id: personId }] = await db.insert(schema.people).values({ firstName: "Mia", lastName: "Mollie", memberTypeId: 1 }).returning({ id: schema.people.id });
  finance = await loginCookie("finance");
});

beforeEach(async () => {
  await setMollieIntegration(true);
});

async function setMollieIntegration(on: boolean) {
  await db.update(schema.configuration).set({ mollieIntegration: on }).where(eq(schema.configuration.id, 1));
}

async function newFee(amount: number, openAmount = amount) {
  const [fee] = await db
    .insert(schema.fees)
    .values({ personId, date: "2026-11-01", dueDate: "2026-12-01", text: "Kursgebühr Welpen", amount, openAmount, sendInvoice: false, kind: "OTHER" })
    .returning({ id: schema.fees.id });
  return fee.id;
}

const feeOf = async (id: number) => (await db.select().from(schema.fees).where(eq(schema.fees.id, id)))[0];
const bookedPayments = (feeId: number) => db.select().from(schema.molliePayments).where(eq(schema.molliePayments.feeId, feeId));

/** The API call the Kontenblatt's page would make (same origin, JSON, a FINANCE session). */
function createLinkViaApi(body: unknown, { cookie = finance, origin = "http://localhost" }: { cookie?: string; origin?: string | null } = {}) {
  const headers = new Headers({ "Content-Type": "application/json" });
  if (origin) headers.set("Origin", origin);
  return fetchApp("/api/public/mollie/createpaymentlink", { method: "POST", cookie, headers, body: JSON.stringify(body) });
}

/** What a customer does on Mollie's page: pays through the link (the fake creates the payment). */
async function payThroughFake(linkId: string, body: Record<string, unknown> = {}) {
  const response = await fetch(`${fakeOrigin}/_fake/payment-links/${linkId}/pay`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ notify: false, ...body }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { payment: { id: string; status: string }; webhook: { url: string; body: string } };
}

/** Mollie's call of the webhook, delivered to the worker. */
function deliverWebhook(webhook: { url: string; body: string }) {
  const url = new URL(webhook.url);
  return fetchApp(`${url.pathname}${url.search}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: webhook.body });
}

describe("the fake answers like Mollie's API v2", () => {
  const auth = { Authorization: `Bearer ${env.MOLLIE_API_KEY}`, "Content-Type": "application/json" };

  it("refuses a missing or wrong key with Mollie's 401 body", async () => {
    for (const headers of [{}, { Authorization: "Bearer test_falsch0000000000000000000000000000" }] as Record<string, string>[]) {
      const response = await fetch(`${env.MOLLIE_API_URL}/payment-links?limit=1`, { headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ status: 401, title: "Unauthorized Request", _links: { documentation: { type: "text/html" } } });
    }
  });

  it("creates a complete payment link, refuses bad amounts with 422 and honours the Idempotency-Key", async () => {
    const body = JSON.stringify({ description: "Probe", amount: { currency: "EUR", value: "12.50" } });
    const first = await fetch(`${env.MOLLIE_API_URL}/payment-links`, { method: "POST", headers: { ...auth, "Idempotency-Key": "probe-1" }, body });
    expect(first.status).toBe(201);
    const link = (await first.json()) as Record<string, unknown>;
    expect(link).toMatchObject({
      resource: "payment-link",
      mode: "test",
      description: "Probe",
      amount: { currency: "EUR", value: "12.50" },
      paidAt: null,
      archived: false,
    });
    expect(link.id).toMatch(/^pl_[A-Za-z0-9]+$/);
    expect(link.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    expect(link._links).toMatchObject({ self: { type: "application/hal+json" }, paymentLink: { type: "text/html" } });
    const again = await fetch(`${env.MOLLIE_API_URL}/payment-links`, { method: "POST", headers: { ...auth, "Idempotency-Key": "probe-1" }, body });
    expect(((await again.json()) as { id: string }).id).toBe(link.id);
    for (const value of ["12.5", "0.00", "-1.00", 12.5, "1,00"]) {
      const bad = await fetch(`${env.MOLLIE_API_URL}/payment-links`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ description: "Probe", amount: { currency: "EUR", value } }),
      });
      expect(bad.status, String(value)).toBe(422);
      expect(await bad.json()).toMatchObject({ status: 422, title: "Unprocessable Entity", field: expect.stringMatching(/^amount/) });
    }
    const fetched = await fetch(`${env.MOLLIE_API_URL}/payment-links/${link.id}`, { headers: auth });
    expect(await fetched.json()).toMatchObject({ id: link.id, amount: { value: "12.50" } });
    expect((await fetch(`${env.MOLLIE_API_URL}/payments/tr_gibtesnicht`, { headers: auth })).status).toBe(404);
  });
});

describe("amounts between cents and Mollie's values", () => {
  it("converts exactly", () => {
    expect([0, 1, 99, 100, 1250, 99_999_999].map(toMollieValue)).toEqual(["0.00", "0.01", "0.99", "1.00", "12.50", "999999.99"]);
    expect(["12.50", "0.01", "1.5", "12", "-1.00", 12.5].map(fromMollieValue)).toEqual([1250, 1, null, null, null, null]);
  });
});

describe("a fee's payment link", () => {
  it("is refused while 'Mollie Integration' is off, and for a paid fee", async () => {
    const feeId = await newFee(2_000);
    await setMollieIntegration(false);
    expect(await paymentLinkForFee({ db, env }, feeId)).toEqual({ status: "refused", message: MOLLIE_NOT_CONFIGURED });
    await setMollieIntegration(true);
    const paid = await newFee(2_000, 0);
    expect(await paymentLinkForFee({ db, env }, paid)).toEqual({ status: "refused", message: FEE_ALREADY_PAID });
    expect((await feeOf(feeId)).paymentLinkId).toBeNull();
  });

  it("is made for the open amount, stored on the fee and not made twice", async () => {
    const feeId = await newFee(4_000, 2_550);
    const first = await paymentLinkForFee({ db, env }, feeId);
    expect(first.status).toBe("ok");
    if (first.status !== "ok") return;
    expect(first.link).toMatchObject({ amount: 2_550, created: true, description: "Kursgebühr Welpen – Mia Mollie" });
    expect(first.link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/payment\/[A-Za-z0-9]+$/);
    const stored = await feeOf(feeId);
    expect(stored).toMatchObject({ paymentLinkId: first.link.id, paymentLinkUrl: first.link.url, paymentLinkAmount: 2_550, rowVersion: 1 });
    const second = await paymentLinkForFee({ db, env }, feeId);
    expect(second).toMatchObject({ status: "ok", link: { id: first.link.id, created: false } });
    // Mollie has the link with the amount and a webhook URL that names the fee, signed.
    const atMollie = (await (
      await fetch(`${env.MOLLIE_API_URL}/payment-links/${first.link.id}`, { headers: { Authorization: `Bearer ${env.MOLLIE_API_KEY}` } })
    ).json()) as Record<string, unknown>;
    expect(atMollie).toMatchObject({ amount: { currency: "EUR", value: "25.50" }, webhookUrl: await webhookUrlFor(env, feeId) });
  });

  it("POST /api/public/mollie/createpaymentlink answers {data: {description, ...}} for ADMIN and FINANCE from Wuff's own pages only", async () => {
    const feeId = await newFee(1_990);
    const before = await feeOf(feeId);
    expect((await createLinkViaApi({ feeId, amount: 19.9, currency: "EUR" }, { cookie: "" })).status).toBe(401);
    for (const who of ["staff", "gdpr"] as const) {
      expect((await createLinkViaApi({ feeId, amount: 19.9, currency: "EUR" }, { cookie: await loginCookie(who) })).status, who).toBe(403);
    }
    expect((await createLinkViaApi({ feeId, amount: 19.9 }, { origin: "https://evil.example" })).status).toBe(403);
    expect((await createLinkViaApi({ feeId, amount: 19.9 }, { origin: null })).status).toBe(403);
    const wrongAmount = await createLinkViaApi({ feeId, amount: 5, currency: "EUR" });
    expect(wrongAmount.status).toBe(400);
    expect(((await wrongAmount.json()) as { message: string }).message).toContain(formatMoney(1_990));
    for (const body of [{}, { feeId: "x" }, { feeId, currency: "USD" }, "kein Objekt"])
      expect((await createLinkViaApi(body)).status, JSON.stringify(body)).toBe(400);
    expect((await createLinkViaApi({ feeId: 999_999, amount: 1 })).status).toBe(404);
    expect(await feeOf(feeId)).toEqual(before);

    const response = await createLinkViaApi(
      { feeId, amount: 19.9, description: "Kursgebühr für Mia", currency: "EUR" },
      { cookie: await loginCookie("admin") },
    );
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: Record<string, unknown> };
    expect(data).toMatchObject({ feeId, description: "Kursgebühr für Mia", amount: { currency: "EUR", value: "19.90" }, created: true });
    expect((await feeOf(feeId)).paymentLinkUrl).toBe(data.paymentLink);

    await setMollieIntegration(false);
    const off = await createLinkViaApi({ feeId: await newFee(500), amount: 5 });
    expect(off.status).toBe(409);
    expect(await off.json()).toEqual({ message: MOLLIE_NOT_CONFIGURED });
  });
});

describe("the Kontenblatt's dialog 'Zahlungslink erzeugen' (a form post, as without JavaScript)", () => {
  it("makes the link and opens again with it; refuses with the spec's messages", async () => {
    const feeId = await newFee(1_250);
    const dialog = `/fees?dialog=paymentLink-create&dialogId=${feeId}`;
    const post = () => fetchApp(dialog, { method: "POST", cookie: finance, body: new URLSearchParams({ intent: "paymentLink:create", id: String(feeId) }) });
    const opened = await (await fetchApp(dialog, { cookie: finance })).text();
    expect(opened).toContain("Zahlungslink erzeugen");
    expect(opened).toContain("Kursgebühr Welpen – Mia Mollie");

    const response = await post();
    expect(response.status).toBe(302);
    const location = response.headers.get("Location")!;
    expect(location).toContain("dialog=paymentLink-create");
    const fee = await feeOf(feeId);
    expect(fee.paymentLinkUrl).toMatch(/\/payment\//);
    const shown = await (await fetchApp(location, { cookie: finance })).text();
    expect(shown).toContain("Zahlungslink wurde erzeugt.");
    expect(shown).toContain(`value="${fee.paymentLinkUrl}"`);
    // The Kontenblatt shows it in its column, as a link.
    const grid = await (await fetchApp(`/people/${personId}/fees`, { cookie: finance })).text();
    expect(grid).toContain(`href="${fee.paymentLinkUrl}"`);

    await setMollieIntegration(false);
    const other = await newFee(700);
    expect(await (await fetchApp(`/fees?dialog=paymentLink-create&dialogId=${other}`, { cookie: finance })).text()).toContain(MOLLIE_NOT_CONFIGURED);
    const refused = await fetchApp("/fees", {
      method: "POST",
      cookie: finance,
      body: new URLSearchParams({ intent: "paymentLink:create", id: String(other) }),
    });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(MOLLIE_NOT_CONFIGURED);
    await setMollieIntegration(true);
    const paid = await newFee(700, 0);
    expect(await (await fetchApp(`/fees?dialog=paymentLink-create&dialogId=${paid}`, { cookie: finance })).text()).toContain(FEE_ALREADY_PAID);
    expect((await feeOf(other)).paymentLinkId).toBeNull();
  });
});

describe("the webhook", () => {
  it("runs the loop: link created, paid at Mollie, webhook called twice, the fee paid once", async () => {
    const feeId = await newFee(3_500);
    const created = await createLinkViaApi({ feeId, amount: "35.00", currency: "EUR" });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { id: string } };
    const { payment, webhook } = await payThroughFake(data.id);
    expect(payment.status).toBe("paid");
    expect(webhook.body).toBe(`id=${payment.id}`);
    const before = await feeOf(feeId);

    for (const call of [1, 2]) {
      const response = await deliverWebhook(webhook);
      expect(response.status, `call ${call}`).toBe(200);
    }
    const after = await feeOf(feeId);
    expect(after.openAmount).toBe(0);
    expect(after.dueDate).toBeNull();
    expect(after.paymentReference).toBe(payment.id);
    expect(after.paymentComments?.match(/Mollie tr_/g)).toHaveLength(1);
    expect(after.paymentComments).toMatch(new RegExp(`^\\d{2}\\.\\d{2}\\.\\d{4} Mollie ${payment.id} \\(${formatMoney(3_500)}\\)$`));
    expect(after.rowVersion).toBe(before.rowVersion + 1);
    expect(after.lastModifiedBy).toBe("Mollie");
    expect(await bookedPayments(feeId)).toHaveLength(1);
    // Paid: no new link.
    expect(await paymentLinkForFee({ db, env }, feeId)).toEqual({ status: "refused", message: FEE_ALREADY_PAID });
  });

  it("books a smaller payment as part of the open amount, and never goes below 0", async () => {
    const feeId = await newFee(5_000);
    const first = await paymentLinkForFee({ db, env }, feeId);
    if (first.status !== "ok") throw new Error(first.status);
    const part = await payThroughFake(first.link.id, { amount: "20.00" });
    await deliverWebhook(part.webhook);
    expect(await feeOf(feeId)).toMatchObject({ openAmount: 3_000, dueDate: "2026-12-01" });
    // A new link for what is left; paying more than that leaves 0, not less.
    const rest = await paymentLinkForFee({ db, env }, feeId);
    if (rest.status !== "ok") throw new Error(rest.status);
    expect(rest.link).toMatchObject({ amount: 3_000, created: true });
    const more = await payThroughFake(rest.link.id, { amount: "40.00" });
    await deliverWebhook(more.webhook);
    await deliverWebhook(more.webhook);
    const fee = await feeOf(feeId);
    expect(fee.openAmount).toBe(0);
    expect(fee.paymentComments?.split("; ")).toHaveLength(2);
    expect((await bookedPayments(feeId)).map((booked) => booked.applied).sort()).toEqual([2_000, 3_000]);
  });

  it("changes nothing for payments that are not paid, unknown ids, malformed bodies, bad signatures or another fee's payment", async () => {
    const feeId = await newFee(1_000);
    const other = await newFee(1_000);
    const link = await paymentLinkForFee({ db, env }, feeId);
    const otherLink = await paymentLinkForFee({ db, env }, other);
    if (link.status !== "ok" || otherLink.status !== "ok") throw new Error("no link");
    const failed = await payThroughFake(link.link.id, { status: "failed" });
    const before = await feeOf(feeId);
    const signed = new URL(failed.webhook.url);
    const post = (search: string, body: BodyInit, contentType = "application/x-www-form-urlencoded") =>
      fetchApp(`${signed.pathname}${search}`, { method: "POST", headers: { "Content-Type": contentType }, body });

    expect((await deliverWebhook(failed.webhook)).status).toBe(200);
    expect((await post(signed.search, "id=tr_gibtesnicht1")).status).toBe(200);
    for (const body of ["", "id=", "id=pl_123", "id=tr_" + "x".repeat(80), "id=tr_a%27%3B--", "foo=bar"])
      expect((await post(signed.search, body)).status, body).toBe(400);
    expect((await post(signed.search, JSON.stringify({ id: "tr_abc" }), "application/json")).status).toBe(400);
    expect((await post(`?fee=${feeId}&sig=${"0".repeat(64)}`, failed.webhook.body)).status).toBe(403);
    expect((await post(`?fee=${feeId}`, failed.webhook.body)).status).toBe(403);
    expect((await post("", failed.webhook.body)).status).toBe(403);
    expect((await fetchApp(signed.pathname)).status).toBe(405);
    // A genuine paid payment of the other fee, sent to this fee's (signed) webhook URL.
    const paidOther = await payThroughFake(otherLink.link.id);
    expect((await deliverWebhook({ url: failed.webhook.url, body: paidOther.webhook.body })).status).toBe(200);

    expect(await feeOf(feeId)).toEqual(before);
    expect(await bookedPayments(feeId)).toHaveLength(0);
    // The other fee's payment still books on its own webhook.
    await deliverWebhook(paidOther.webhook);
    expect((await feeOf(other)).openAmount).toBe(0);
  });
});
