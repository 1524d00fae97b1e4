import { fileURLToPath } from "node:url";
import { buildD1Template, serveD1TemplateScript } from "./support/d1-template";
import { validateSepaXml } from "./support/xsd-validator";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { MOLLIE_TEST_KEY } from "./integration/global-setup";
import { freePorts } from "../scripts/free-ports";

const root = fileURLToPath(new URL("..", import.meta.url));

// Integration tests run inside workerd with the worker of wrangler.toml (which serves the built
// Remix app: run `npm run build` first) and a real local D1 migrated with migrations/ (once per run,
// then laid into each test file's database: tests/support/d1-template.ts).
export default defineConfig(async () => {
  // Free ports, all taken at once (scripts/free-ports.ts): a real maildev for the mail tests
  // (started by the global setup, Node side; the worker reaches its SMTP port over
  // cloudflare:sockets and the tests read its API by fetch), the local Mollie fake
  // (tests/local/mollie-fake.ts, reached through MOLLIE_API_URL like the real Mollie), and a TCP
  // server that greets like an SMTP server, for the test screen's SMTP probe.
  const [smtpPort, maildevWebPort, molliePort, greeterPort] = await freePorts(4);
  process.env.WUFF_TEST_SMTP_PORT ??= String(smtpPort);
  process.env.WUFF_TEST_MAILDEV_WEB_PORT ??= String(maildevWebPort);
  process.env.MOLLIE_FAKE_PORT ??= String(molliePort);
  process.env.TEST_SMTP_GREETER_PORT ??= String(greeterPort);
  // The real migrations, applied once per run to the database every test file starts from
  // (tests/support/d1-template.ts); migrations.test.ts also reads them as TEST_MIGRATIONS.
  const migrations = await readD1Migrations(`${root}migrations`);
  await buildD1Template(`${root}wrangler.toml`, migrations);
  return {
    root,
    resolve: { alias: { "~": `${root}app` } },
    define: { __WUFF_VERSION__: JSON.stringify("test") },
    // Components rendered by tests (grid-rows.test.ts) meet React's production build in workerd,
    // which has no jsxDEV: compile JSX for production as the app's build does.
    esbuild: { jsx: "automatic" as const, jsxDev: false },
    plugins: [
      cloudflareTest({
        wrangler: { configPath: `${root}wrangler.toml` },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            // Secrets that .dev.vars would hold; the provider is never reached by these tests.
            SESSION_SECRET: "test-session-secret",
            OIDC_CLIENT_SECRET: "test-client-secret",
            OIDC_ISSUER: "http://127.0.0.1:9/oidc-not-running",
            MOLLIE_API_URL: `http://127.0.0.1:${process.env.MOLLIE_FAKE_PORT}/v2`,
            MOLLIE_API_KEY: MOLLIE_TEST_KEY,
            MOLLIE_WEBHOOK_SECRET: "test-webhook-secret",
            TEST_SMTP_GREETER_PORT: process.env.TEST_SMTP_GREETER_PORT,
            SMTP_HOST: "127.0.0.1",
            SMTP_PORT: process.env.WUFF_TEST_SMTP_PORT,
            SMTP_SECURE: "false",
            SMTP_USER: "",
            SMTP_PASSWORD: "",
            MAILDEV_API: `http://127.0.0.1:${process.env.WUFF_TEST_MAILDEV_WEB_PORT}/api`,
          },
          // workerd cannot start processes: the tests post a SEPA file here and xmllint checks it
          // against the official XSD on the Node side (tests/support/xsd-validator.ts).
          // Each test file's setup lays the database that the config migrated once above
          // (tests/support/d1-template.ts) into its D1 through this binding.
          serviceBindings: { XSD_VALIDATOR: validateSepaXml, D1_TEMPLATE: serveD1TemplateScript },
        },
      }),
    ],
    test: {
      include: ["tests/integration/**/*.test.ts"],
      // A guard against hanging tests, not a speed check: on a shared, loaded machine a test that
      // walks many requests (the access matrix) can take longer than vitest's default 5 s.
      testTimeout: 30_000,
      // Likewise for set-up hooks that load the demo data (10 s by default).
      hookTimeout: 60_000,
      // Test files share a workerd per vitest worker instead of starting one each: a new workerd
      // loads the app and its libraries anew (~4 s of each file's time, most of the stage). Each file
      // still starts from the migrated database and an empty R2 (the setup file below); requests go
      // to the worker's handler directly (tests/support/app.ts).
      isolate: false,
      maxWorkers: 2,
      // What one test changes on globals (a console silenced by a spy) does not reach the next file.
      restoreMocks: true,
      unstubGlobals: true,
      unstubEnvs: true,
      setupFiles: ["tests/integration/migrated-database.ts"],
      globalSetup: ["tests/integration/global-setup.ts", "tests/integration/maildev-setup.ts"],
      deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare"] } } },
    },
  };
});
