import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";

const root = fileURLToPath(new URL("..", import.meta.url));

// Free ports for the whole run, all taken at once (scripts/free-ports.ts). Workers inherit the
// environment of the main process, so setting it here once keeps them all pointed at the same server.
const [appPort, idpPort, molliePort, smtpPort, maildevWebPort] = execFileSync(process.execPath, ["--import", "tsx", `${root}scripts/free-ports.ts`, "5"])
  .toString()
  .trim()
  .split(" ");
process.env.E2E_PORT ??= appPort;
process.env.E2E_IDP_PORT ??= idpPort;
process.env.E2E_MOLLIE_PORT ??= molliePort;
// The app's maildev (scripts/start.sh): the mail tests read what it caught from its API.
process.env.E2E_MAILDEV_SMTP_PORT ??= smtpPort;
process.env.E2E_MAILDEV_WEB_PORT ??= maildevWebPort;
const baseURL = `http://localhost:${process.env.E2E_PORT}`;

/** Debian's Chromium, never a downloaded browser (see TOOLCHAIN.md for the flags). */
const launchOptions = {
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
};

const BULK_RUNS = /tasks\.spec\.ts$/;
// The PDF run gives every invoice a PDF: after the Tasks runs, whose undo and history it would change.
const PDF_RUN = /pdf-run\.spec\.ts$/;

export default defineConfig({
  testDir: `${root}tests/e2e`,
  outputDir: `${root}tests/.artifacts/playwright`,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Guards against a hang, not speed checks: every wait ends as soon as the state is there. On a
  // machine shared with other work (load 20 to 30 on 2 cores) a long walk through a screen took more
  // than 60 s, and a toast after an undo more than Playwright's default 5 s to appear.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["json", { outputFile: `${root}tests/.artifacts/playwright.json` }]],
  use: { baseURL, locale: "de-DE", timezoneId: "Europe/Berlin", launchOptions, trace: "retain-on-failure" },
  // Bulk runs (tasks.spec.ts) change the whole club's books (every billable fee, the invoice
  // counter): they run after all other tests, one project after the other, so no other test sees
  // its data change under it.
  projects: [
    // Data no screen makes, written into D1 by a second process before anything else runs: while the
    // app serves requests, that process's lock made them fail (tests/e2e/test-data.setup.ts).
    { name: "Testdaten", testMatch: /\.setup\.ts$/ },
    { name: "mit JavaScript", use: { javaScriptEnabled: true }, testIgnore: [BULK_RUNS, PDF_RUN], dependencies: ["Testdaten"] },
    { name: "ohne JavaScript", use: { javaScriptEnabled: false }, testIgnore: [BULK_RUNS, PDF_RUN], dependencies: ["Testdaten"] },
    { name: "Tasks mit JavaScript", use: { javaScriptEnabled: true }, testMatch: BULK_RUNS, dependencies: ["mit JavaScript", "ohne JavaScript"] },
    { name: "Tasks ohne JavaScript", use: { javaScriptEnabled: false }, testMatch: BULK_RUNS, dependencies: ["Tasks mit JavaScript"] },
    { name: "PDF-Lauf mit JavaScript", use: { javaScriptEnabled: true }, testMatch: PDF_RUN, dependencies: ["Tasks ohne JavaScript"] },
    { name: "PDF-Lauf ohne JavaScript", use: { javaScriptEnabled: false }, testMatch: PDF_RUN, dependencies: ["PDF-Lauf mit JavaScript"] },
  ],
  // The app starts exactly as the README's start command starts it, on its own fresh state.
  webServer: {
    // The app's own output (wrangler, workerd, the local provider) goes to a file that test:repeat
    // keeps with a failed run: a worker that crashed mid-request ('Your worker restarted
    // mid-request', once in a run of 2026-11-27) is then explained there.
    command: `rm -rf tests/.artifacts/state && mkdir -p tests/.artifacts && bash scripts/start.sh 2>&1 | tee tests/.artifacts/web-server.log`,
    cwd: root,
    url: `${baseURL}/api/public/test`,
    env: {
      PORT: process.env.E2E_PORT,
      IDP_PORT: process.env.E2E_IDP_PORT,
      MAILDEV_SMTP_PORT: process.env.E2E_MAILDEV_SMTP_PORT,
      MAILDEV_WEB_PORT: process.env.E2E_MAILDEV_WEB_PORT,
      MOLLIE_FAKE_PORT: process.env.E2E_MOLLIE_PORT,
      WUFF_STATE_DIR: "tests/.artifacts/state",
    },
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
  },
});
