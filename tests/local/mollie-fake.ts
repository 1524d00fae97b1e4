/**
 * A local fake of Mollie's REST API v2, for `npm start` and the tests: Mollie itself cannot run
 * here. It answers the endpoints Wuff uses exactly in Mollie's shapes (HAL JSON, amounts as
 * {currency, value: "12.50"}, error bodies with status/title/detail/_links), so pointing Wuff at
 * the real Mollie is only a change of MOLLIE_API_URL and MOLLIE_API_KEY.
 *
 *   POST /v2/payment-links                 create (Idempotency-Key honoured; 422 for bad amounts)
 *   GET  /v2/payment-links?limit=N         list, newest first
 *   GET  /v2/payment-links/:id             get
 *   GET  /v2/payment-links/:id/payments    the payments made through the link
 *   GET  /v2/payments/:id                  get
 *   every /v2 call needs `Authorization: Bearer <key>` (401 in Mollie's shape otherwise)
 *
 * Outside /v2, what a customer (or a test) does on Mollie's side:
 *   GET  /payment/:token                   the link's checkout page (a button pays it)
 *   POST /_fake/payment-links/:id/pay      pays through the link: creates a payment tr_... (status
 *                                          `paid` unless {status} says otherwise, amount the link's
 *                                          unless {amount: "5.00"}) and, like Mollie, POSTs
 *                                          `id=tr_...` form-encoded to the link's webhookUrl;
 *                                          {notify: false} leaves the call to the caller and
 *                                          answers what it would have sent
 *   GET  /_fake/health                     200 once listening
 *
 *   MOLLIE_FAKE_PORT      port (default 8790)
 *   MOLLIE_FAKE_HOST      address to bind (default 127.0.0.1)
 *   MOLLIE_FAKE_API_KEYS  comma-separated keys it accepts (default: any well-formed test_ key)
 *   MOLLIE_FAKE_STATE     a JSON file to keep its state across restarts (default: memory only)
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";

type Amount = { currency: string; value: string };
type Link = { href: string; type: string };

type PaymentLinkRecord = {
  id: string;
  token: string;
  mode: "test" | "live";
  description: string;
  amount: Amount;
  redirectUrl: string | null;
  webhookUrl: string | null;
  reusable: boolean;
  createdAt: string;
  paidAt: string | null;
  expiresAt: string | null;
  paymentIds: string[];
};

type PaymentRecord = {
  id: string;
  mode: "test" | "live";
  description: string;
  amount: Amount;
  status: PaymentStatus;
  createdAt: string;
  paidAt: string | null;
  webhookUrl: string | null;
  redirectUrl: string | null;
  paymentLinkId: string;
};

const PAYMENT_STATUSES = ["open", "pending", "authorized", "paid", "canceled", "expired", "failed"] as const;
type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

type State = {
  paymentLinks: Record<string, PaymentLinkRecord>;
  payments: Record<string, PaymentRecord>;
  /** Idempotency-Key -> the request it was first used for and the answer given. */
  idempotency: Record<string, { fingerprint: string; status: number; body: unknown }>;
};

export type MollieFakeOptions = {
  port?: number;
  host?: string;
  /** Keys accepted as Bearer token; empty: any key of the form test_ + at least 30 letters/digits. */
  apiKeys?: string[];
  stateFile?: string;
};

export type MollieFake = { url: string; apiUrl: string; port: number; close(): Promise<void> };

const PROFILE_ID = "pfl_WuffFake01";
const DOCS = "https://docs.mollie.com";
const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function randomToken(length: number): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join("");
}

/** Mollie writes instants without milliseconds and with an explicit offset. */
const mollieTime = (date = new Date()) => date.toISOString().replace(/\.\d{3}Z$/, "+00:00");

const link = (href: string, type = "application/hal+json"): Link => ({ href, type });

function errorBody(status: number, title: string, detail: string, field?: string) {
  return { status, title, detail, ...(field ? { field } : {}), _links: { documentation: link(`${DOCS}/overview/handling-errors`, "text/html") } };
}

const UNAUTHORIZED = errorBody(401, "Unauthorized Request", "Missing authentication, or failed to authenticate");

function sendJson(response: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}) {
  response.writeHead(status, { "Content-Type": "application/hal+json", "Cache-Control": "no-store", ...extraHeaders });
  response.end(JSON.stringify(body));
}

function sendHtml(response: ServerResponse, status: number, html: string) {
  response.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  response.end(html);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** JSON, or a form (Mollie takes both; amount[value] style for forms). */
function parseBody(text: string, contentType: string | undefined): Record<string, unknown> | null {
  if (!text.trim()) return {};
  if ((contentType ?? "").includes("application/x-www-form-urlencoded")) {
    const form = new URLSearchParams(text);
    const body: Record<string, unknown> = {};
    for (const [key, value] of form) {
      const nested = /^(\w+)\[(\w+)\]$/.exec(key);
      if (nested) body[nested[1]] = { ...((body[nested[1]] as object) ?? {}), [nested[2]]: value };
      else body[key] = value;
    }
    return body;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A valid amount object, or the 422 Mollie answers. */
function checkAmount(value: unknown): { amount: Amount } | { error: ReturnType<typeof errorBody> } {
  if (!value || typeof value !== "object") return { error: errorBody(422, "Unprocessable Entity", "The amount is required for payment links", "amount") };
  const { currency, value: amountValue } = value as Record<string, unknown>;
  if (typeof currency !== "string" || !/^[A-Z]{3}$/.test(currency))
    return { error: errorBody(422, "Unprocessable Entity", "The amount contains an invalid currency", "amount.currency") };
  if (currency !== "EUR") return { error: errorBody(422, "Unprocessable Entity", `The currency '${currency}' is not supported`, "amount.currency") };
  if (typeof amountValue !== "string" || !/^\d{1,8}\.\d{2}$/.test(amountValue)) {
    return { error: errorBody(422, "Unprocessable Entity", "The amount contains an invalid value", "amount.value") };
  }
  if (Number(amountValue) < 0.01) return { error: errorBody(422, "Unprocessable Entity", "The amount is lower than minimum", "amount.value") };
  return { amount: { currency, value: amountValue } };
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

export function startMollieFake(options: MollieFakeOptions = {}): Promise<MollieFake> {
  const host = options.host ?? "127.0.0.1";
  const apiKeys = options.apiKeys?.filter(Boolean) ?? [];
  const state: State =
    options.stateFile && existsSync(options.stateFile)
      ? (JSON.parse(readFileSync(options.stateFile, "utf8")) as State)
      : { paymentLinks: {}, payments: {}, idempotency: {} };
  const save = () => {
    if (options.stateFile) writeFileSync(options.stateFile, JSON.stringify(state, null, 1));
  };

  /** The mode of a Bearer key it accepts, or null. */
  function modeOf(request: IncomingMessage): "test" | "live" | null {
    const match = /^Bearer\s+(\S+)$/.exec(request.headers.authorization ?? "");
    if (!match) return null;
    const key = match[1];
    if (apiKeys.length > 0 ? !apiKeys.includes(key) : !/^test_[A-Za-z0-9]{30,}$/.test(key)) return null;
    return key.startsWith("live_") ? "live" : "test";
  }

  function paymentLinkResource(origin: string, record: PaymentLinkRecord) {
    return {
      resource: "payment-link",
      id: record.id,
      mode: record.mode,
      description: record.description,
      amount: record.amount,
      minimumAmount: null,
      archived: false,
      redirectUrl: record.redirectUrl,
      webhookUrl: record.webhookUrl,
      profileId: PROFILE_ID,
      reusable: record.reusable,
      createdAt: record.createdAt,
      paidAt: record.paidAt,
      expiresAt: record.expiresAt,
      allowedMethods: null,
      _links: {
        self: link(`${origin}/v2/payment-links/${record.id}`),
        paymentLink: link(`${origin}/payment/${record.token}`, "text/html"),
        documentation: link(`${DOCS}/reference/get-payment-link`, "text/html"),
      },
    };
  }

  function paymentResource(origin: string, record: PaymentRecord) {
    const paid = record.status === "paid";
    const zero = { currency: record.amount.currency, value: "0.00" };
    return {
      resource: "payment",
      id: record.id,
      mode: record.mode,
      createdAt: record.createdAt,
      amount: record.amount,
      description: record.description,
      method: "creditcard",
      metadata: null,
      status: record.status,
      ...(paid ? { paidAt: record.paidAt, amountRefunded: zero, amountRemaining: record.amount, settlementAmount: record.amount } : {}),
      ...(record.status === "failed" ? { failedAt: record.createdAt } : {}),
      ...(record.status === "canceled" ? { canceledAt: record.createdAt } : {}),
      ...(record.status === "expired" ? { expiredAt: record.createdAt } : {}),
      isCancelable: false,
      locale: "de_DE",
      countryCode: "DE",
      profileId: PROFILE_ID,
      sequenceType: "oneoff",
      redirectUrl: record.redirectUrl,
      webhookUrl: record.webhookUrl,
      details: paid
        ? { cardNumber: "6787", cardHolder: "T. TEST", cardLabel: "Visa", cardCountryCode: "NL", cardSecurity: "normal", feeRegion: "intra-eu" }
        : null,
      _links: {
        self: link(`${origin}/v2/payments/${record.id}`),
        dashboard: link(`https://my.mollie.com/dashboard/org_fake/payments/${record.id}`, "text/html"),
        documentation: link(`${DOCS}/reference/get-payment`, "text/html"),
      },
    };
  }

  function list(origin: string, path: string, key: string, items: unknown[]) {
    return {
      count: items.length,
      _embedded: { [key]: items },
      _links: { self: link(`${origin}${path}`), previous: null, next: null, documentation: link(`${DOCS}/reference/list-payment-links`, "text/html") },
    };
  }

  /** Pays through a link, as a customer on Mollie's checkout page does, then calls the webhook. */
  async function pay(origin: string, record: PaymentLinkRecord, body: Record<string, unknown>) {
    const status = PAYMENT_STATUSES.includes(body.status as PaymentStatus) ? (body.status as PaymentStatus) : "paid";
    const amount = body.amount === undefined ? { amount: record.amount } : checkAmount({ currency: record.amount.currency, value: body.amount });
    if ("error" in amount) return { status: 422, body: amount.error };
    const now = mollieTime();
    const payment: PaymentRecord = {
      id: `tr_${randomToken(10)}`,
      mode: record.mode,
      description: record.description,
      amount: amount.amount,
      status,
      createdAt: now,
      paidAt: status === "paid" ? now : null,
      webhookUrl: record.webhookUrl,
      redirectUrl: record.redirectUrl,
      paymentLinkId: record.id,
    };
    state.payments[payment.id] = payment;
    record.paymentIds.push(payment.id);
    if (status === "paid" && !record.reusable) record.paidAt = now;
    save();
    const webhookBody = new URLSearchParams({ id: payment.id }).toString();
    let webhook: { url: string; body: string; status?: number; error?: string } | null = record.webhookUrl
      ? { url: record.webhookUrl, body: webhookBody }
      : null;
    if (webhook && body.notify !== false && body.notify !== "false") {
      try {
        const answer = await fetch(webhook.url, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: webhookBody,
          redirect: "manual",
        });
        webhook = { ...webhook, status: answer.status };
      } catch (error) {
        webhook = { ...webhook, error: String(error) };
      }
    }
    return { status: 201, body: { payment: paymentResource(origin, payment), webhook } };
  }

  async function handleApi(request: IncomingMessage, response: ServerResponse, url: URL, origin: string) {
    const mode = modeOf(request);
    if (!mode) return sendJson(response, 401, UNAUTHORIZED);
    const parts = url.pathname.split("/").filter(Boolean).slice(1);
    const method = request.method ?? "GET";

    if (parts[0] === "payment-links" && parts.length === 1 && method === "POST") {
      const text = await readBody(request);
      const key = request.headers["idempotency-key"];
      const idempotencyKey = typeof key === "string" && key ? key : null;
      const fingerprint = `${method} ${url.pathname} ${text}`;
      if (idempotencyKey && state.idempotency[idempotencyKey]) {
        const earlier = state.idempotency[idempotencyKey];
        if (earlier.fingerprint !== fingerprint) {
          return sendJson(response, 422, errorBody(422, "Unprocessable Entity", "The Idempotency-Key was already used for a different request"));
        }
        return sendJson(response, earlier.status, earlier.body, { "Idempotent-Replayed": "true" });
      }
      const body = parseBody(text, request.headers["content-type"]);
      if (!body) return sendJson(response, 400, errorBody(400, "Bad Request", "The request body is not valid JSON"));
      const answer = createPaymentLink(origin, mode, body);
      if (idempotencyKey) state.idempotency[idempotencyKey] = { fingerprint, status: answer.status, body: answer.body };
      save();
      return sendJson(response, answer.status, answer.body);
    }
    if (method !== "GET") return sendJson(response, 405, errorBody(405, "Method Not Allowed", `The method ${method} is not allowed here`));

    if (parts[0] === "payment-links" && parts.length === 1) {
      const limit = Math.min(250, Math.max(1, Number(url.searchParams.get("limit") ?? 50) || 50));
      const links = Object.values(state.paymentLinks)
        .filter((record) => record.mode === mode)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .slice(0, limit);
      return sendJson(
        response,
        200,
        list(
          origin,
          `${url.pathname}${url.search}`,
          "payment_links",
          links.map((record) => paymentLinkResource(origin, record)),
        ),
      );
    }
    if (parts[0] === "payment-links" && parts.length >= 2) {
      const record = state.paymentLinks[parts[1]];
      if (!record || record.mode !== mode) return sendJson(response, 404, errorBody(404, "Not Found", `No payment link exists with token ${parts[1]}.`));
      if (parts.length === 2) return sendJson(response, 200, paymentLinkResource(origin, record));
      if (parts.length === 3 && parts[2] === "payments") {
        const payments = record.paymentIds.map((id) => paymentResource(origin, state.payments[id]));
        return sendJson(response, 200, list(origin, url.pathname, "payments", payments));
      }
    }
    if (parts[0] === "payments" && parts.length === 2) {
      const record = state.payments[parts[1]];
      if (!record || record.mode !== mode) return sendJson(response, 404, errorBody(404, "Not Found", `No payment exists with token ${parts[1]}.`));
      return sendJson(response, 200, paymentResource(origin, record));
    }
    return sendJson(response, 404, errorBody(404, "Not Found", "The resource does not exist"));
  }

  function createPaymentLink(origin: string, mode: "test" | "live", body: Record<string, unknown>): { status: number; body: unknown } {
    const { description, redirectUrl, webhookUrl, expiresAt, reusable } = body;
    if (typeof description !== "string" || !description.trim())
      return { status: 422, body: errorBody(422, "Unprocessable Entity", "The description is required", "description") };
    if (description.length > 255) return { status: 422, body: errorBody(422, "Unprocessable Entity", "The description is too long", "description") };
    const amount = checkAmount(body.amount);
    if ("error" in amount) return { status: 422, body: amount.error };
    if (webhookUrl !== undefined && webhookUrl !== null && !isHttpUrl(webhookUrl)) {
      return { status: 422, body: errorBody(422, "Unprocessable Entity", "The webhook URL is invalid", "webhookUrl") };
    }
    if (redirectUrl !== undefined && redirectUrl !== null && !isHttpUrl(redirectUrl)) {
      return { status: 422, body: errorBody(422, "Unprocessable Entity", "The redirect URL is invalid", "redirectUrl") };
    }
    if (expiresAt !== undefined && expiresAt !== null && (typeof expiresAt !== "string" || Number.isNaN(Date.parse(expiresAt)))) {
      return { status: 422, body: errorBody(422, "Unprocessable Entity", "The expiry date is invalid", "expiresAt") };
    }
    const token = randomToken(21);
    const record: PaymentLinkRecord = {
      id: `pl_${token}`,
      token,
      mode,
      description,
      amount: amount.amount,
      redirectUrl: (redirectUrl as string | undefined) ?? null,
      webhookUrl: (webhookUrl as string | undefined) ?? null,
      reusable: reusable === true || reusable === "true",
      createdAt: mollieTime(),
      paidAt: null,
      expiresAt: expiresAt ? mollieTime(new Date(expiresAt as string)) : null,
      paymentIds: [],
    };
    state.paymentLinks[record.id] = record;
    return { status: 201, body: paymentLinkResource(origin, record) };
  }

  async function handleControl(request: IncomingMessage, response: ServerResponse, url: URL, origin: string) {
    const parts = url.pathname.split("/").filter(Boolean);
    if (parts[1] === "health") return sendJson(response, 200, { status: "ok" });
    if (parts[1] === "payment-links" && parts[3] === "pay" && request.method === "POST") {
      const record = state.paymentLinks[parts[2]];
      if (!record) return sendJson(response, 404, errorBody(404, "Not Found", `No payment link exists with token ${parts[2]}.`));
      const body = parseBody(await readBody(request), request.headers["content-type"]);
      if (!body) return sendJson(response, 400, errorBody(400, "Bad Request", "The request body is not valid JSON"));
      if (record.paidAt && !record.reusable) return sendJson(response, 409, errorBody(409, "Conflict", "The payment link has already been paid"));
      const answer = await pay(origin, record, body);
      // From the checkout page (a form post): back to the page, which now says it is paid.
      if (url.searchParams.get("from") === "checkout" && answer.status === 201) {
        response.writeHead(303, { Location: record.redirectUrl ?? `/payment/${record.token}` });
        return response.end();
      }
      return sendJson(response, answer.status, answer.body);
    }
    return sendJson(response, 404, errorBody(404, "Not Found", "The resource does not exist"));
  }

  function checkoutPage(response: ServerResponse, token: string) {
    const record = Object.values(state.paymentLinks).find((candidate) => candidate.token === token);
    if (!record) return sendHtml(response, 404, "<!doctype html><title>Nicht gefunden</title><p>Diesen Zahlungslink gibt es nicht.</p>");
    const amount = `${record.amount.value.replace(".", ",")} €`;
    const body = record.paidAt
      ? `<p>Bezahlt am ${escapeHtml(record.paidAt)}.</p>`
      : `<form method="post" action="/_fake/payment-links/${escapeHtml(record.id)}/pay?from=checkout"><button type="submit">${escapeHtml(amount)} bezahlen (Test)</button></form>`;
    sendHtml(
      response,
      200,
      `<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Zahlung – Mollie (lokal)</title></head>
<body style="font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem"><h1>${escapeHtml(record.description)}</h1><p>Betrag: ${escapeHtml(amount)}</p>${body}
<p style="color:#666;font-size:.8rem">Lokale Nachbildung von Mollie: Es fließt kein Geld.</p></body></html>`,
    );
  }

  const server: Server = createServer((request, response) => {
    const origin = `http://${request.headers.host ?? `${host}:${options.port ?? 8790}`}`;
    const url = new URL(request.url ?? "/", origin);
    const first = url.pathname.split("/").filter(Boolean)[0];
    const handle =
      first === "v2"
        ? handleApi(request, response, url, origin)
        : first === "_fake"
          ? handleControl(request, response, url, origin)
          : first === "payment" && request.method === "GET"
            ? Promise.resolve(checkoutPage(response, url.pathname.split("/")[2] ?? ""))
            : Promise.resolve(sendJson(response, 404, errorBody(404, "Not Found", "The resource does not exist")));
    handle.catch((error: unknown) => {
      console.error(error);
      if (!response.headersSent) sendJson(response, 500, errorBody(500, "Internal Server Error", String(error)));
    });
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8790, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : (options.port ?? 8790);
      const url = `http://${host}:${port}`;
      resolve({ url, apiUrl: `${url}/v2`, port, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

// Started as a program (npm start, the browser tests): listen until stopped.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const fake = await startMollieFake({
    port: Number(process.env.MOLLIE_FAKE_PORT ?? 8790),
    host: process.env.MOLLIE_FAKE_HOST ?? "127.0.0.1",
    apiKeys: (process.env.MOLLIE_FAKE_API_KEYS ?? "").split(",").map((key) => key.trim()),
    stateFile: process.env.MOLLIE_FAKE_STATE || undefined,
  });
  console.info(`Lokale Mollie-Nachbildung: ${fake.apiUrl}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void fake.close().then(() => process.exit(0)));
}
