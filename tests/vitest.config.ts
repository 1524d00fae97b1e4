import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { MOLLIE_TEST_KEY } from "./integration/global-setup";

const root = fileURLToPath(new URL("..", import.meta.url));

// The local Mollie fake (tests/local/mollie-fake.ts) listens on a free port, started by the global
// setup; the worker reaches it through MOLLIE_API_URL like the real Mollie.
const freePort = () =>
  execFileSync(process.execPath, ["-e", "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"])
    .toString()
    .trim();
process.env.MOLLIE_FAKE_PORT ??= freePort();
// A TCP server that greets like an SMTP server, for the test screen's SMTP probe.
process.env.TEST_SMTP_GREETER_PORT ??= freePort();

// Integration tests run inside workerd with the worker of wrangler.toml (which serves the built
// Remix app: run `npm run build` first) and a real local D1 migrated with migrations/.
export default defineConfig(async () => ({
  root,
  resolve: { alias: { "~": `${root}app` } },
  define: { __WUFF_VERSION__: JSON.stringify("test") },
  plugins: [
    cloudflareTest({
      wrangler: { configPath: `${root}wrangler.toml` },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(`${root}migrations`),
          // Secrets that .dev.vars would hold; the provider is never reached by these tests.
          SESSION_SECRET: "test-session-secret",
          OIDC_CLIENT_SECRET: "test-client-secret",
          OIDC_ISSUER: "http://127.0.0.1:9/oidc-not-running",
          MOLLIE_API_URL: `http://127.0.0.1:${process.env.MOLLIE_FAKE_PORT}/v2`,
          MOLLIE_API_KEY: MOLLIE_TEST_KEY,
          MOLLIE_WEBHOOK_SECRET: "test-webhook-secret",
          TEST_SMTP_GREETER_PORT: process.env.TEST_SMTP_GREETER_PORT,
        },
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
    setupFiles: ["tests/integration/apply-migrations.ts"],
    globalSetup: ["tests/integration/global-setup.ts"],
    deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare"] } } },
  },
}));
