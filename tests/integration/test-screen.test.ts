/**
 * The test screen (/test): every part of the installation really asked, reported in German. Here
 * D1, R2, the queue and the payment provider (the Mollie fake) work; SMTP is not configured in the
 * tests' worker, and is probed on its own against a TCP server that greets like an SMTP server.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { diagnoseInstallation, probeSmtp } from "~/services/diagnostics.server";
import { fetchApp } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

beforeAll(async () => {
  await loadDemoData();
});

describe("the test screen", () => {
  it("reports each part with its state, what it means and what to do", async () => {
    const lines = await diagnoseInstallation(createDb(env.DB), env);
    const byPart = Object.fromEntries(lines.map((line) => [line.part, line]));
    expect(Object.keys(byPart)).toEqual([
      "Datenbank (D1)",
      "Speicher für Rechnungs-PDFs (R2)",
      "Warteschlange für Sammelaufgaben (Queue)",
      "PDF-Erzeugung (Browser Rendering)",
      "Mailversand (SMTP)",
      "Zahlungsanbieter (Mollie)",
    ]);
    // SMTP: the tests' real maildev answers.
    for (const part of [
      "Datenbank (D1)",
      "Speicher für Rechnungs-PDFs (R2)",
      "Warteschlange für Sammelaufgaben (Queue)",
      "Mailversand (SMTP)",
      "Zahlungsanbieter (Mollie)",
    ]) {
      expect(byPart[part].state, part).toBe("ok");
      expect(byPart[part].todo).toBe("Nichts zu tun.");
    }
    expect(byPart["Zahlungsanbieter (Mollie)"].explanation).toContain("antwortet (Testmodus)");
    const withoutSmtp = await diagnoseInstallation(createDb(env.DB), { ...env, SMTP_HOST: "" });
    expect(withoutSmtp.find((line) => line.part === "Mailversand (SMTP)")).toMatchObject({
      state: "nicht konfiguriert",
      todo: expect.stringContaining("SMTP_HOST"),
    });
    // The local Browser Rendering (miniflare, Debian's Chromium) answers like Cloudflare's.
    expect(byPart["PDF-Erzeugung (Browser Rendering)"]).toMatchObject({
      state: "ok",
      explanation: expect.stringMatching(/\d+ von \d+ Browser-Sitzungen belegt/),
    });
  });

  it("says what to do when the payment provider refuses the key", async () => {
    const lines = await diagnoseInstallation(createDb(env.DB), { ...env, MOLLIE_API_KEY: "test_falsch000000000000000000000000000" });
    const mollie = lines.find((line) => line.part === "Zahlungsanbieter (Mollie)")!;
    expect(mollie.state).toBe("gestört");
    expect(mollie.explanation).toContain("HTTP 401");
    expect(mollie.todo).toContain("MOLLIE_API_KEY");
    const none = await diagnoseInstallation(createDb(env.DB), { ...env, MOLLIE_API_KEY: "" });
    expect(none.find((line) => line.part === "Zahlungsanbieter (Mollie)")!.state).toBe("nicht konfiguriert");
  });

  it("reads an SMTP server's 220 greeting, and says when nobody answers", async () => {
    const ok = await probeSmtp({ ...env, SMTP_HOST: "127.0.0.1", SMTP_PORT: env.TEST_SMTP_GREETER_PORT } as Env);
    expect(ok).toEqual({ ok: true, detail: expect.stringContaining("220 greeter.test ESMTP bereit") });
    const closed = await probeSmtp({ ...env, SMTP_HOST: "127.0.0.1", SMTP_PORT: "9" } as Env);
    expect(closed?.ok).toBe(false);
  });

  it("is a page for ADMIN, in German, without JavaScript; others are refused before any probe runs", async () => {
    for (const who of ["staff", "gdpr", "finance"] as const) {
      const refused = await fetchApp("/test", { cookie: await loginCookie(who) });
      expect(refused.status, who).toBe(302);
      expect(refused.headers.get("Location"), who).toBe("/");
    }
    const response = await fetchApp("/test", { cookie: await loginCookie("admin") });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<h1 class="text-2xl font-semibold text-wuff-800">Test</h1>');
    expect(html).toContain("Datenbank (D1)");
    expect(html).toContain("Was tun:");
    expect(html).toContain("Mailversand (SMTP)");
  });
});
