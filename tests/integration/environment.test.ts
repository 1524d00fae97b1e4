import { createExecutionContext, createMessageBatch, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkEnv, EnvError } from "~/services/env.server";
import worker from "../../workers/app";

/** The test env without `name`, or with it set to `value`. */
function changed(name: string, value?: unknown): Env {
  const copy: Record<string, unknown> = { ...env };
  if (value === undefined) delete copy[name];
  else copy[name] = value;
  return copy as unknown as Env;
}

const problemsOf = (candidate: unknown) => {
  const result = checkEnv(candidate);
  if (result.ok) throw new Error("expected the environment to be refused");
  return result.error.problems;
};

afterEach(() => vi.restoreAllMocks());

describe("the environment check at the start", () => {
  it("passes the test environment, with its settings typed", () => {
    const result = checkEnv(env);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.env.SMTP_PORT).toBe(Number(env.SMTP_PORT));
    expect(result.env.IDLE_TIMEOUT_SECONDS).toBe(600);
    expect(result.env.SMTP_SECURE).toBe("false");
    expect(result.env.DB).toBe(env.DB);
  });

  it("names a missing secret, var or binding", () => {
    expect(problemsOf(changed("SESSION_SECRET"))).toEqual(["SESSION_SECRET fehlt / is missing"]);
    expect(problemsOf(changed("OIDC_CLIENT_ID"))).toEqual(["OIDC_CLIENT_ID fehlt / is missing"]);
    expect(problemsOf(changed("DB"))).toEqual(["DB fehlt / is missing (D1)"]);
    expect(problemsOf(changed("OIDC_CLIENT_SECRET", "  "))).toEqual(["OIDC_CLIENT_SECRET ist leer / is empty"]);
  });

  it("names a malformed variable, and every one that is wrong", () => {
    expect(problemsOf(changed("SMTP_PORT", "smtp"))).toEqual(["SMTP_PORT ist keine ganze Zahl von 1 bis 65535 / is not an integer from 1 to 65535"]);
    expect(problemsOf(changed("APP_URL", "localhost:8787"))).toEqual(["APP_URL ist keine http(s)-Adresse / is not an http(s) URL"]);
    expect(problemsOf(changed("SMTP_SECURE", "yes"))).toEqual(["SMTP_SECURE ist nicht false, starttls oder tls / is not false, starttls or tls"]);
    expect(problemsOf(changed("SESSION_SECRET", "kurz"))).toEqual(["SESSION_SECRET ist kürzer als 16 Zeichen / is shorter than 16 characters"]);
    expect(problemsOf(changed("INVOICES", "wuff-invoices"))).toEqual(["INVOICES ist keine Bindung R2 / is not a R2 binding"]);
    const both = { ...changed("MAIL_FROM", "Wuff"), IDLE_TIMEOUT_SECONDS: "0" };
    expect(problemsOf(both)).toEqual([
      "IDLE_TIMEOUT_SECONDS ist keine ganze Zahl von 1 bis 86400 / is not an integer from 1 to 86400",
      expect.stringMatching(/^MAIL_FROM ist keine Absenderadresse/),
    ]);
  });

  it("accepts what a club may leave empty: mail server, Mollie, SMTP login", () => {
    const optional = {
      ...env,
      SMTP_HOST: "",
      SMTP_USER: "",
      SMTP_PASSWORD: undefined,
      MOLLIE_API_URL: "",
      MOLLIE_API_KEY: undefined,
      MOLLIE_WEBHOOK_SECRET: undefined,
    };
    expect(checkEnv(optional).ok).toBe(true);
  });

  it("stops a request with a 500 naming the variable, in the page and in the log", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await worker.fetch(
      new Request("http://localhost/") as Request<unknown, IncomingRequestCfProperties>,
      changed("SESSION_SECRET"),
      createExecutionContext(),
    );
    expect(response.status).toBe(500);
    const page = await response.text();
    expect(page).toContain("Wuff kann nicht starten");
    expect(page).toContain("SESSION_SECRET fehlt / is missing");
    expect(log).toHaveBeenCalledWith(expect.stringContaining("SESSION_SECRET fehlt / is missing"));
  });

  it("stops a queue batch and a cron run the same way", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const broken = changed("SMTP_PORT", "abc");
    const batch = createMessageBatch("wuff-jobs", [
      { id: "probe", timestamp: new Date(), attempts: 1, body: { type: "health-probe", sentOn: "2026-11-22T10:00:00Z" } },
    ]);
    await expect(worker.queue(batch, broken)).rejects.toThrow(EnvError);
    await expect(
      worker.scheduled({ cron: "0 6 * * *", scheduledTime: Date.now(), noRetry: () => undefined }, broken, createExecutionContext()),
    ).rejects.toThrow(/SMTP_PORT/);
  });
});
