/**
 * Tasks → Prüfungen: 'Server testen' (the health check) and 'Zahlungsanbieter testen' (a test
 * payment link at the configured provider, here the Mollie fake), ADMIN only, as form posts.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { createTestPaymentLink } from "~/services/payments.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

beforeAll(async () => {
  await loadDemoData();
});

describe("Tasks → Prüfungen", () => {
  it("'Server testen' answers with the health check's message", async () => {
    const response = await postForm("/tasks/checks", await loginCookie("admin"), { intent: "server" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/tasks");
    expect(toastOf(response)).toEqual({
      type: "success",
      message: "Wuff läuft: Datenbank, Speicher und Warteschlange arbeiten. Datenbank: ok, Speicher: ok, Warteschlange: ok.",
    });
  });

  it("'Zahlungsanbieter testen' makes a test link and shows it, or the German error", async () => {
    const response = await postForm("/tasks/checks", await loginCookie("admin"), { intent: "payment" });
    const toast = toastOf(response);
    expect(toast?.type).toBe("success");
    expect(toast?.message).toMatch(/^Zahlungsanbieter erreichbar: Test-Zahlungslink über 1,00 € erzeugt: http:\/\/127\.0\.0\.1:\d+\/payment\/[A-Za-z0-9]+/);
    const db = createDb(env.DB);
    expect(await createTestPaymentLink(db, { ...env, MOLLIE_API_KEY: "test_falsch000000000000000000000000000" })).toEqual({
      ok: false,
      message: "Zahlungsanbieter gestört: Mollie lehnt den API-Schlüssel ab (HTTP 401): Bitte MOLLIE_API_KEY prüfen.",
    });
    expect(await createTestPaymentLink(db, { ...env, MOLLIE_API_URL: "http://127.0.0.1:9/v2" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("Mollie ist nicht erreichbar"),
    });
    expect((await createTestPaymentLink(db, { ...env, MOLLIE_API_KEY: "" })).message).toContain("Mollie ist nicht konfiguriert");
  });

  it("is for ADMIN only and shows on the Tasks screen", async () => {
    for (const who of ["staff", "gdpr", "finance"] as const) {
      const response = await postForm("/tasks/checks", await loginCookie(who), { intent: "payment" });
      expect(response.headers.get("Location"), who).toBe("/");
      expect(toastOf(response)?.message, who).toContain("Zugriff verweigert");
    }
    const html = await (await fetchApp("/tasks", { cookie: await loginCookie("admin") })).text();
    expect(html).toContain("Server testen");
    expect(html).toContain("Zahlungsanbieter testen");
  });
});
