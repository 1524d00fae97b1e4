/**
 * The worker's environment, checked once before it does any work: the vars of wrangler.toml, the
 * secrets (.dev.vars locally, `wrangler secret put` on Cloudflare) and the bindings. workers/app.ts
 * checks it on the first request, queue batch and cron event of an isolate; a variable that is
 * missing or malformed stops the start with a message naming it (in the log and on the page)
 * instead of a failure somewhere later. The variables: docs/operations.md.
 *
 * Code that needs a setting reads it typed from appEnv(env): numbers as numbers, URLs and
 * strings trimmed.
 */
import { z } from "zod";

const MISSING = "fehlt / is missing";
const NOT_TEXT = "ist kein Text / is not text";

/** A string var or secret; `undefined` is reported as missing. */
const text = () => z.string({ error: (issue) => (issue.input === undefined ? MISSING : NOT_TEXT) }).trim();
const required = () => text().min(1, { error: "ist leer / is empty", abort: true });
const optional = () => text().optional().default("");

const isHttpUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
const httpUrl = () => required().refine(isHttpUrl, "ist keine http(s)-Adresse / is not an http(s) URL");

const integer = (min: number, max: number) =>
  required()
    .refine(
      (value) => /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max,
      `ist keine ganze Zahl von ${min} bis ${max} / is not an integer from ${min} to ${max}`,
    )
    .transform(Number);

/** 'Wuff Hundeschule <verein@wuff.example>' or 'verein@wuff.example'. */
const SENDER = /^(?:[^<>]*<[^<>\s]+@[^<>\s]+>|[^\s@<>]+@[^\s@<>]+)$/;

/** A binding of wrangler.toml: an object with the methods its kind has. */
const binding = <T>(kind: string, methods: string[]) =>
  z.custom<T>(
    (value) => typeof value === "object" && value !== null && methods.every((method) => typeof (value as Record<string, unknown>)[method] === "function"),
    { error: (issue) => (issue.input === undefined ? `fehlt / is missing (${kind})` : `ist keine Bindung ${kind} / is not a ${kind} binding`) },
  );

const envSchema = z.object({
  // Bindings
  DB: binding<D1Database>("D1", ["prepare", "batch"]),
  INVOICES: binding<R2Bucket>("R2", ["get", "put", "delete"]),
  PAPERS: binding<R2Bucket>("R2", ["get", "head", "put", "delete"]),
  JOBS: binding<Queue>("Queue", ["send", "sendBatch"]),
  BROWSER: binding<Fetcher>("Browser Rendering", ["fetch"]),
  // Vars ([vars] of wrangler.toml)
  /** "production" sends mails to their recipients; anything else only to the SMTP test account. */
  APP_ENV: required(),
  APP_URL: httpUrl(),
  OIDC_ISSUER: httpUrl(),
  OIDC_CLIENT_ID: required(),
  OIDC_ROLES_CLAIM: required(),
  IDLE_TIMEOUT_SECONDS: integer(1, 86_400),
  IDLE_COUNTDOWN_SECONDS: integer(1, 3_600),
  KEEPALIVE_PING_SECONDS: integer(1, 86_400),
  /** Empty: no payment links (the test screen says "nicht konfiguriert"). */
  MOLLIE_API_URL: optional()
    .refine((value) => value === "" || isHttpUrl(value), "ist keine http(s)-Adresse / is not an http(s) URL")
    .transform((value) => value.replace(/\/+$/, "")),
  /** Empty: no mail server (the test screen says "nicht konfiguriert"). */
  SMTP_HOST: optional(),
  SMTP_PORT: integer(1, 65_535),
  /** Empty: no SMTP login (maildev). */
  SMTP_USER: optional(),
  SMTP_SECURE: required()
    .toLowerCase()
    .pipe(z.enum(["false", "starttls", "tls"], { error: "ist nicht false, starttls oder tls / is not false, starttls or tls" })),
  /** "1": Server-Timing tells where a request's time goes (`npm run bench -- --phases` sets it). */
  PHASE_TIMING: optional(),
  MAIL_FROM: required().regex(SENDER, "ist keine Absenderadresse wie „Name <adresse@example.org>“ / is not a sender like 'Name <address@example.org>'"),
  // Secrets
  SESSION_SECRET: required().min(16, "ist kürzer als 16 Zeichen / is shorter than 16 characters"),
  OIDC_CLIENT_SECRET: required(),
  /** Empty: no payment links. */
  MOLLIE_API_KEY: optional(),
  /** Empty: derived from SESSION_SECRET. */
  MOLLIE_WEBHOOK_SECRET: optional(),
  SMTP_PASSWORD: optional(),
});

export type AppEnv = z.output<typeof envSchema>;

/** A missing or malformed variable, with the message naming every one of them. */
export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Wuff kann nicht starten, die Konfiguration ist fehlerhaft / Wuff cannot start, the configuration is invalid:\n${problems.map((problem) => `- ${problem}`).join("\n")}`,
    );
    this.name = "EnvError";
  }
}

/** The environment checked: its settings typed, or the variables that are wrong ('SESSION_SECRET fehlt / is missing'). */
export function checkEnv(env: unknown): { ok: true; env: AppEnv } | { ok: false; error: EnvError } {
  const result = envSchema.safeParse(env);
  if (result.success) return { ok: true, env: result.data };
  const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "env"} ${issue.message}`);
  return { ok: false, error: new EnvError(problems) };
}

// Per isolate: workerd hands every event the same env object, so it is parsed once.
const checked = new WeakMap<object, AppEnv>();

/** The settings of `env`, typed; throws EnvError naming the variables that are missing or malformed. */
export function appEnv(env: Env): AppEnv {
  let settings = checked.get(env);
  if (!settings) {
    const result = checkEnv(env);
    if (!result.ok) throw result.error;
    settings = result.env;
    checked.set(env, settings);
  }
  return settings;
}

/** The answer to every request while the environment is wrong: the message for the operator. */
export function envErrorResponse(error: EnvError): Response {
  return new Response(`${error.message}\n\nSiehe / see docs/operations.md.\n`, {
    status: 500,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Content-Security-Policy": "default-src 'none'" },
  });
}
