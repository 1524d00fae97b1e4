/**
 * Mollie (REST API v2) with plain fetch: payment links for open fees and the webhook that books
 * their payments. Base URL and key are configuration (MOLLIE_API_URL, secret MOLLIE_API_KEY):
 * locally the fake tests/local/mollie-fake.ts, in production https://api.mollie.com/v2.
 *
 * Tying a payment to its fee: the link's webhookUrl carries the fee id (or the id of a Mein Wuff
 * checkout of several items) and an HMAC of it
 * (MOLLIE_WEBHOOK_SECRET, else derived from SESSION_SECRET). Mollie calls that URL with the
 * payment id only; Wuff checks the signature, then fetches the payment from Mollie (never
 * trusting the request) and books it once (app/models/mollie-payments.server.ts).
 */
import type { Db } from "~/db/client.server";
import { formatDate, formatMoney, todayInBerlin } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { getConfiguration } from "~/models/configuration.server";
import { getFee, currentPaymentLink } from "~/models/fees.server";
import type { ProbeResult } from "~/models/health.server";
import { bookMolliePayment, storePaymentLink, type BookingOutcome } from "~/models/mollie-payments.server";
import { bookCheckoutPayment, storeCheckoutLink, type Checkout, type CheckoutBookingOutcome } from "~/models/portal-money.server";
import { toHex } from "~/lib/bytes";
import { appEnv } from "./env.server";

export const MOLLIE_NOT_CONFIGURED = "Mollie ist nicht konfiguriert, daher werden keine Zahlungslinks generiert";
export const FEE_ALREADY_PAID = "The fee has already been paid";
const WEBHOOK_PATH = "/api/public/mollie/webhook";
/** Mollie's limit for descriptions. */
const MAX_DESCRIPTION = 255;
const TIMEOUT_MS = 10_000;

type MollieClient = { apiUrl: string; apiKey: string };

/** The configured client, or null without key or URL. */
function mollieClient(env: Env): MollieClient | null {
  const { MOLLIE_API_KEY: apiKey, MOLLIE_API_URL: apiUrl } = appEnv(env);
  return apiKey && apiUrl ? { apiUrl, apiKey } : null;
}

/** A failed call, with a German message for the user (status 0: Mollie not reached). */
class MollieError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Cents as Mollie's amount value: 1250 -> "12.50" (exact, no floating point). */
export function toMollieValue(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** Mollie's amount value as cents, or null: "12.50" -> 1250. */
export function fromMollieValue(value: unknown): number | null {
  const match = typeof value === "string" ? /^(\d{1,9})\.(\d{2})$/.exec(value) : null;
  return match ? Number(match[1]) * 100 + Number(match[2]) : null;
}

type Answer = { status: number; body: Record<string, unknown> | null };

async function call(client: MollieClient, path: string, init: { method?: string; body?: unknown; idempotencyKey?: string } = {}): Promise<Answer> {
  const headers = new Headers({ Authorization: `Bearer ${client.apiKey}`, Accept: "application/hal+json, application/json" });
  if (init.body !== undefined) headers.set("Content-Type", "application/json");
  if (init.idempotencyKey) headers.set("Idempotency-Key", init.idempotencyKey);
  let response: Response;
  try {
    response = await fetch(`${client.apiUrl}${path}`, {
      method: init.method ?? "GET",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new MollieError(0, `Mollie ist nicht erreichbar (${client.apiUrl}): ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text();
  let body: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(text) as unknown;
    body = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : null;
  } catch {
    body = null;
  }
  return { status: response.status, body };
}

/** The German message for an error answer of Mollie. */
function failure({ status, body }: Answer): MollieError {
  const detail = typeof body?.detail === "string" ? body.detail : "";
  if (status === 401) return new MollieError(status, "Mollie lehnt den API-Schlüssel ab (HTTP 401): Bitte MOLLIE_API_KEY prüfen.");
  if (status === 422) return new MollieError(status, `Mollie lehnt die Angaben ab (HTTP 422)${detail ? `: ${detail}` : ""}.`);
  return new MollieError(status, `Mollie antwortet mit einem Fehler (HTTP ${status})${detail ? `: ${detail}` : ""}.`);
}

type PaymentLink = { id: string; url: string; amount: number; description: string };

/** POST /payment-links: a link for the amount (cents), EUR. */
async function createPaymentLink(
  client: MollieClient,
  input: { description: string; amount: number; webhookUrl?: string | null; redirectUrl?: string; idempotencyKey: string },
): Promise<PaymentLink> {
  const answer = await call(client, "/payment-links", {
    method: "POST",
    idempotencyKey: input.idempotencyKey,
    body: {
      description: input.description,
      amount: { currency: "EUR", value: toMollieValue(input.amount) },
      ...(input.webhookUrl ? { webhookUrl: input.webhookUrl } : {}),
      ...(input.redirectUrl ? { redirectUrl: input.redirectUrl } : {}),
    },
  });
  if (answer.status !== 201 && answer.status !== 200) throw failure(answer);
  const body = answer.body ?? {};
  const href = (body._links as { paymentLink?: { href?: unknown } } | undefined)?.paymentLink?.href;
  const amount = fromMollieValue((body.amount as { value?: unknown } | undefined)?.value);
  if (typeof body.id !== "string" || typeof href !== "string" || amount === null) {
    throw new MollieError(answer.status, "Mollie hat einen Zahlungslink ohne Adresse geliefert.");
  }
  return { id: body.id, url: href, amount, description: String(body.description ?? input.description) };
}

type MolliePayment = {
  id: string;
  status: string;
  /** Cents, or null for another currency. */
  amount: number | null;
  paidAt: string | null;
  webhookUrl: string | null;
};

/** GET /payments/{id}: the payment as Mollie knows it, or null when Mollie does not know it. */
async function getPayment(client: MollieClient, id: string): Promise<MolliePayment | null> {
  const answer = await call(client, `/payments/${encodeURIComponent(id)}`);
  if (answer.status === 404) return null;
  if (answer.status !== 200 || !answer.body) throw failure(answer);
  const body = answer.body;
  const amount = body.amount as { currency?: unknown; value?: unknown } | undefined;
  return {
    id: String(body.id),
    status: String(body.status),
    amount: amount?.currency === "EUR" ? fromMollieValue(amount.value) : null,
    paidAt: typeof body.paidAt === "string" ? body.paidAt : null,
    webhookUrl: typeof body.webhookUrl === "string" ? body.webhookUrl : null,
  };
}

/** Whether the provider answers with the configured key: one cheap GET (the newest payment link). */
export async function probePaymentProvider(env: Env): Promise<ProbeResult | null> {
  const client = mollieClient(env);
  if (!client) return null;
  try {
    const answer = await call(client, "/payment-links?limit=1");
    if (answer.status !== 200) throw failure(answer);
    const mode = client.apiKey.startsWith("live_") ? "Live-Modus" : "Testmodus";
    return { ok: true, detail: `${client.apiUrl} antwortet (${mode})` };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

// ---------------------------------------------------------------------------------------------
// The signed fee reference in the webhook URL

const encoder = new TextEncoder();

function webhookKey(env: Env): Promise<CryptoKey> {
  // Its own secret if set (rotating the session secret then leaves unpaid links working).
  const { MOLLIE_WEBHOOK_SECRET, SESSION_SECRET } = appEnv(env);
  const secret = MOLLIE_WEBHOOK_SECRET || `mollie-webhook:${SESSION_SECRET}`;
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** What a webhook URL pays: a fee (its payment link) or a checkout of Mein Wuff (several items). */
type PaidReference = { kind: "fee" | "checkout"; id: number };
const signedText = (reference: PaidReference) => `${reference.kind}:${reference.id}`;

async function signReference(env: Env, reference: PaidReference): Promise<string> {
  return toHex(await crypto.subtle.sign("HMAC", await webhookKey(env), encoder.encode(signedText(reference))));
}

/** Constant-time check of a reference's signature. */
async function verifyReference(env: Env, reference: PaidReference, signature: string): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  const bytes = new Uint8Array(signature.match(/../g)!.map((pair) => parseInt(pair, 16)));
  return crypto.subtle.verify("HMAC", await webhookKey(env), bytes, encoder.encode(signedText(reference)));
}

async function signedWebhookUrl(env: Env, reference: PaidReference): Promise<string> {
  const url = new URL(WEBHOOK_PATH, env.APP_URL);
  url.searchParams.set(reference.kind, String(reference.id));
  url.searchParams.set("sig", await signReference(env, reference));
  return url.toString();
}

export const webhookUrlFor = (env: Env, feeId: number) => signedWebhookUrl(env, { kind: "fee", id: feeId });

/** What a webhook URL names (its fee or checkout parameter), or null. */
function referenceOfUrl(value: string | URL): PaidReference | null {
  try {
    const params = new URL(value).searchParams;
    const fee = parseId(params.get("fee"));
    const checkout = parseId(params.get("checkout"));
    if (fee && !params.has("checkout")) return { kind: "fee", id: fee };
    if (checkout && !params.has("fee")) return { kind: "checkout", id: checkout };
    return null;
  } catch {
    return null;
  }
}

const sameReference = (a: PaidReference | null, b: PaidReference) => a !== null && a.kind === b.kind && a.id === b.id;

// ---------------------------------------------------------------------------------------------
// A fee's payment link (the Kontenblatt, the API, later the mails)

type FeeLink = { feeId: number; id: string; url: string; amount: number; description: string; created: boolean };
export type FeeLinkOutcome =
  { status: "ok"; link: FeeLink } | { status: "missing" } | { status: "refused"; message: string } | { status: "failed"; message: string };

/** 'Jahresbeitrag 2026 – Erika Muster': the fee and the person, within Mollie's limit. */
export function feeLinkDescription(fee: { text: string; personName: string | null }): string {
  const text = fee.personName ? `${fee.text} – ${fee.personName}` : fee.text;
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

async function shortHash(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(text))).slice(0, 16);
}

/** Whether Wuff makes payment links: 'Mollie Integration' on and a key configured; else why not. */
export async function paymentLinksRefusal(db: Db, env: Env): Promise<string | null> {
  const configuration = await getConfiguration(db);
  if (!configuration?.mollieIntegration) return MOLLIE_NOT_CONFIGURED;
  if (!mollieClient(env)) return `${MOLLIE_NOT_CONFIGURED} (MOLLIE_API_KEY fehlt).`;
  return null;
}

/**
 * The payment link of an open fee for its open amount: the stored one while it fits, else a new
 * one (stored on the fee). Refused when Mollie is off or the fee is paid. What mails call too.
 */
export async function paymentLinkForFee(context: { db: Db; env: Env }, feeId: number, options: { description?: string } = {}): Promise<FeeLinkOutcome> {
  const { db, env } = context;
  const refusal = await paymentLinksRefusal(db, env);
  if (refusal) return { status: "refused", message: refusal };
  const fee = await getFee(db, feeId);
  if (!fee) return { status: "missing" };
  if (fee.openAmount <= 0) return { status: "refused", message: FEE_ALREADY_PAID };
  const description = options.description?.trim() ? options.description.trim().slice(0, MAX_DESCRIPTION) : feeLinkDescription(fee);
  const stored = currentPaymentLink(fee);
  // The description only matters for a new link: a link that fits is never made twice.
  if (stored && fee.paymentLinkId) {
    return { status: "ok", link: { feeId, id: fee.paymentLinkId, url: stored, amount: fee.openAmount, description, created: false } };
  }
  try {
    const link = await createPaymentLink(mollieClient(env)!, {
      description,
      amount: fee.openAmount,
      webhookUrl: await webhookUrlFor(env, fee.id),
      // Two clicks (or a retry) for the same fee, version and amount get the same link.
      idempotencyKey: `wuff-fee-${fee.id}-v${fee.rowVersion}-${fee.openAmount}-${await shortHash(description)}`,
    });
    await storePaymentLink(db, fee.id, link);
    return { status: "ok", link: { feeId, ...link, created: true } };
  } catch (error) {
    if (error instanceof MollieError) return { status: "failed", message: error.message };
    throw error;
  }
}

/** Tasks → 'Zahlungsanbieter testen': a test link of 1,00 € without webhook, nothing stored. */
export async function createTestPaymentLink(db: Db, env: Env): Promise<{ ok: true; message: string; url: string } | { ok: false; message: string }> {
  const client = mollieClient(env);
  if (!client) return { ok: false, message: `${MOLLIE_NOT_CONFIGURED} (MOLLIE_API_KEY fehlt).` };
  const configuration = await getConfiguration(db);
  try {
    const link = await createPaymentLink(client, {
      description: "Wuff: Test des Zahlungsanbieters",
      amount: 100,
      idempotencyKey: `wuff-test-${crypto.randomUUID()}`,
    });
    const off = configuration?.mollieIntegration
      ? ""
      : " Hinweis: „Mollie Integration“ ist in den Einstellungen ausgeschaltet, für offene Posten werden keine Links erzeugt.";
    return { ok: true, url: link.url, message: `Zahlungsanbieter erreichbar: Test-Zahlungslink über 1,00 € erzeugt: ${link.url}${off}` };
  } catch (error) {
    return { ok: false, message: `Zahlungsanbieter gestört: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * The payment link of a Mein Wuff checkout (several open items): the stored one, else a new one
 * for its amount, whose webhook books it (bookCheckoutPayment) and which sends the payer back to
 * `returnUrl`. Refused when Mollie is off.
 */
export async function paymentLinkForCheckout(
  context: { db: Db; env: Env },
  checkout: Checkout,
  returnUrl: string,
): Promise<{ status: "ok"; url: string } | { status: "refused" | "failed"; message: string }> {
  const { db, env } = context;
  if (checkout.linkUrl) return { status: "ok", url: checkout.linkUrl };
  const refusal = await paymentLinksRefusal(db, env);
  if (refusal) return { status: "refused", message: refusal };
  try {
    const link = await createPaymentLink(mollieClient(env)!, {
      description: checkout.description,
      amount: checkout.amount,
      webhookUrl: await signedWebhookUrl(env, { kind: "checkout", id: checkout.id }),
      redirectUrl: returnUrl,
      // A retry of the same checkout gets the same link.
      idempotencyKey: `wuff-checkout-${checkout.id}`,
    });
    await storeCheckoutLink(db, checkout.id, link);
    return { status: "ok", url: link.url };
  } catch (error) {
    if (error instanceof MollieError) return { status: "failed", message: error.message };
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// The webhook

export type WebhookAnswer = { status: number; message: string; booking?: BookingOutcome | CheckoutBookingOutcome };

const PAYMENT_ID = /^tr_[A-Za-z0-9]{1,64}$/;

/**
 * POST /api/public/mollie/webhook?fee=..&sig=.. (or ?checkout=..&sig=.., a payment of Mein Wuff)
 * with Mollie's form body `id=tr_...`. Malformed (400) and unsigned (403) calls change nothing and
 * reach no one; an id Mollie does not know answers 200 (as Mollie expects: nothing to retry);
 * Mollie unreachable answers 503, so Mollie calls again later. A paid payment is booked once,
 * whatever the number of calls.
 */
export async function handleMollieWebhook(context: { db: Db; env: Env }, request: Request, form: FormData): Promise<WebhookAnswer> {
  const { db, env } = context;
  const id = form.get("id");
  const url = new URL(request.url);
  if (typeof id !== "string" || !PAYMENT_ID.test(id)) return { status: 400, message: "Ungültige Anfrage: Zahlungs-Id fehlt oder ist ungültig." };
  const reference = referenceOfUrl(url);
  if (!reference || !(await verifyReference(env, reference, url.searchParams.get("sig") ?? ""))) {
    return { status: 403, message: "Ungültige Signatur." };
  }
  const client = mollieClient(env);
  if (!client) return { status: 503, message: MOLLIE_NOT_CONFIGURED };
  let payment: MolliePayment | null;
  try {
    payment = await getPayment(client, id);
  } catch (error) {
    console.error("Mollie-Webhook: Zahlung nicht lesbar", id, error);
    return { status: 503, message: "Mollie ist gerade nicht erreichbar." };
  }
  if (!payment) return { status: 200, message: "Unbekannte Zahlung: nichts geändert." };
  // The payment's own webhook URL (as Mollie stores it) must name the same fee or checkout.
  if (payment.webhookUrl && !sameReference(referenceOfUrl(payment.webhookUrl), reference))
    return { status: 200, message: "Die Zahlung gehört zu einem anderen Posten: nichts geändert." };
  if (payment.status !== "paid") return { status: 200, message: `Zahlung ${payment.status}: nichts zu buchen.` };
  if (payment.amount === null || payment.amount <= 0) return { status: 200, message: "Zahlung in anderer Währung: nicht gebucht." };
  const paidOn = payment.paidAt && !Number.isNaN(Date.parse(payment.paidAt)) ? todayInBerlin(new Date(payment.paidAt)) : todayInBerlin();
  const comment = `${formatDate(paidOn)} Mollie ${payment.id} (${formatMoney(payment.amount)})`;
  const booking =
    reference.kind === "fee"
      ? await bookMolliePayment(db, { paymentId: payment.id, feeId: reference.id, amount: payment.amount, paidAt: payment.paidAt, paidOn, comment })
      : await bookCheckoutPayment(db, { paymentId: payment.id, checkoutId: reference.id, amount: payment.amount, paidOn, comment });
  if (booking.status === "missing") console.error("Mollie-Webhook: Bezahltes existiert nicht mehr", reference, payment.id);
  const message =
    booking.status === "booked"
      ? `Zahlung ${payment.id} gebucht.`
      : booking.status === "already"
        ? `Zahlung ${payment.id} war schon gebucht.`
        : "Der Posten existiert nicht mehr: nicht gebucht.";
  return { status: 200, message, booking };
}
