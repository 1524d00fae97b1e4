/**
 * Probes of the outside systems for the test screen (/test): Browser Rendering and SMTP. Each is
 * cheap: no browser is launched, no mail is sent. (D1, R2 and the queue: app/models/health.server.ts;
 * the payment provider: app/services/payments.server.ts.)
 */
import puppeteer from "@cloudflare/puppeteer";
import { connect } from "cloudflare:sockets";
import type { Db } from "~/db/client.server";
import { getConfiguration } from "~/models/configuration.server";
import { checkHealth, type ProbeResult } from "~/models/health.server";
import { appEnv } from "./env.server";
import { probePaymentProvider } from "./payments.server";

const SMTP_TIMEOUT_MS = 5_000;

/**
 * Browser Rendering: asks the binding for its limits (free sessions, whether a new browser may be
 * started now) instead of launching one, which would cost a browser-minute.
 */
async function probeBrowser(env: Env): Promise<ProbeResult | null> {
  if (!env.BROWSER) return null;
  try {
    // The local binding (miniflare) answers its limits without activeSessions: the sessions list
    // is answered by both, so the count comes from there.
    const [limits, sessions] = await Promise.all([puppeteer.limits(env.BROWSER), puppeteer.sessions(env.BROWSER)]);
    const active = sessions.length;
    const waitSeconds = Math.ceil(limits.timeUntilNextAllowedBrowserAcquisition / 1000);
    return {
      ok: true,
      detail: `${active} von ${limits.maxConcurrentSessions} Browser-Sitzungen belegt${waitSeconds > 0 ? `, ein neuer Browser ist in ${waitSeconds} s möglich` : ""}`,
    };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** SMTP_HOST and SMTP_PORT (vars of the mail capability), or null when not configured. */
function smtpTarget(env: Env): { host: string; port: number } | null {
  const { SMTP_HOST: host, SMTP_PORT: port } = appEnv(env);
  return host ? { host, port } : null;
}

/** SMTP: opens a TCP connection, reads the server's 220 greeting and says QUIT. Sends no mail. */
export async function probeSmtp(env: Env): Promise<ProbeResult | null> {
  const target = smtpTarget(env);
  if (!target) return null;
  const socket = connect({ hostname: target.host, port: target.port });
  const reader = socket.readable.getReader();
  try {
    let text = "";
    const deadline = Date.now() + SMTP_TIMEOUT_MS;
    // A greeting may come in parts, and multi-line ("220-...") until a line "220 ...".
    while (!/^\d{3} .*\r?\n/m.test(text)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("keine Begrüßung des Mailservers innerhalb von 5 s");
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("keine Begrüßung des Mailservers innerhalb von 5 s")), left)),
      ]);
      if (chunk.done) throw new Error("Verbindung vom Mailserver geschlossen");
      text += new TextDecoder().decode(chunk.value);
    }
    const greeting = text.trim().split(/\r?\n/).at(-1) ?? "";
    if (!greeting.startsWith("220")) throw new Error(`unerwartete Antwort: ${greeting.slice(0, 120)}`);
    const writer = socket.writable.getWriter();
    await writer.write(new TextEncoder().encode("QUIT\r\n")).catch(() => {});
    writer.releaseLock();
    return { ok: true, detail: `${target.host}:${target.port} antwortet: ${greeting.slice(0, 120)}` };
  } catch (error) {
    return { ok: false, error: `${target.host}:${target.port}: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    reader.releaseLock();
    socket.close().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// The test screen's report

export type CheckState = "ok" | "gestört" | "nicht konfiguriert";
export type CheckLine = { part: string; state: CheckState; explanation: string; todo: string };

const OK_TODO = "Nichts zu tun.";

function line(
  part: string,
  result: ProbeResult | null,
  texts: { ok: string; broken: string; todo: string; unconfigured?: { explanation: string; todo: string } },
): CheckLine {
  if (!result) return { part, state: "nicht konfiguriert", explanation: texts.unconfigured?.explanation ?? "", todo: texts.unconfigured?.todo ?? "" };
  return result.ok
    ? { part, state: "ok", explanation: `${texts.ok} (${result.detail}).`, todo: OK_TODO }
    : { part, state: "gestört", explanation: `${texts.broken}: ${result.error}`, todo: texts.todo };
}

/**
 * Everything the installation needs, each really asked, in German for whoever checks that Wuff
 * works: part, state, what it means and what to do.
 */
export async function diagnoseInstallation(db: Db, env: Env): Promise<CheckLine[]> {
  const [health, browser, smtp, payments, configuration] = await Promise.all([
    checkHealth(db, env),
    probeBrowser(env),
    probeSmtp(env),
    probePaymentProvider(env),
    getConfiguration(db).catch(() => undefined),
  ]);
  const mollieOff =
    configuration && !configuration.mollieIntegration
      ? " „Mollie Integration“ ist in den Einstellungen ausgeschaltet: Für offene Posten werden keine Zahlungslinks erzeugt."
      : "";
  const paymentLine = line("Zahlungsanbieter (Mollie)", payments, {
    ok: "Mollie antwortet mit dem hinterlegten API-Schlüssel",
    broken: "Mollie ist nicht erreichbar oder lehnt den Schlüssel ab",
    todo: "MOLLIE_API_URL und den Schlüssel MOLLIE_API_KEY prüfen (Test-Schlüssel beginnen mit test_, echte mit live_).",
    unconfigured: {
      explanation: "Es ist kein Mollie-API-Schlüssel hinterlegt: Zahlungslinks sind nicht möglich.",
      todo: "Den Schlüssel als Secret MOLLIE_API_KEY hinterlegen (lokal in .dev.vars) und MOLLIE_API_URL setzen.",
    },
  });
  return [
    line("Datenbank (D1)", health.checks.d1, {
      ok: "Die Datenbank antwortet",
      broken: "Die Datenbank antwortet nicht",
      todo: "Die D1-Bindung DB in wrangler.toml prüfen und die Migrationen einspielen (wrangler d1 migrations apply DB).",
    }),
    line("Speicher für Rechnungs-PDFs (R2)", health.checks.r2, {
      ok: "Eine Probedatei wurde geschrieben, gelesen und gelöscht",
      broken: "Der Speicher ist nicht nutzbar",
      todo: "Den R2-Bucket (Bindung INVOICES) anlegen bzw. in wrangler.toml prüfen.",
    }),
    line("Warteschlange für Sammelaufgaben (Queue)", health.checks.queue, {
      ok: "Eine Probenachricht wurde gesendet",
      broken: "Die Warteschlange nimmt keine Nachrichten an",
      todo: "Die Queues wuff-jobs und wuff-jobs-dlq anlegen und die Bindung JOBS in wrangler.toml prüfen.",
    }),
    line("PDF-Erzeugung (Browser Rendering)", browser, {
      ok: "Browser Rendering ist verfügbar",
      broken: "Browser Rendering antwortet nicht",
      todo: "Die Bindung BROWSER prüfen (auf Cloudflare nur im Workers Paid Plan; lokal Chromium installieren: scripts/ensure-chromium.sh).",
      unconfigured: {
        explanation: "Es gibt keine Browser-Bindung: Rechnungs-PDFs können nicht erzeugt werden.",
        todo: 'In wrangler.toml [browser] binding = "BROWSER" eintragen.',
      },
    }),
    line("Mailversand (SMTP)", smtp, {
      ok: "Der Mailserver meldet sich",
      broken: "Der Mailserver ist nicht erreichbar",
      todo: "SMTP_HOST und SMTP_PORT prüfen und ob der Mailserver läuft (lokal: npm start startet den Mail-Fänger).",
      unconfigured: {
        explanation: "SMTP_HOST und SMTP_PORT sind nicht gesetzt: Es können keine Mails versandt werden.",
        todo: "SMTP_HOST und SMTP_PORT in wrangler.toml setzen (Zugangsdaten als Secrets).",
      },
    }),
    { ...paymentLine, explanation: `${paymentLine.explanation}${mollieOff}` },
  ];
}
