import type { KnipConfig } from "knip";

// `npm run lint` runs knip: files, exports and dependencies nobody uses. The worker entry
// (wrangler.toml `main`), the Vite and test configs are found by knip's plugins; these are the
// entry points they do not know.
const config: KnipConfig = {
  entry: [
    // The route table (v3_routeConfig): @remix-run/fs-routes reads app/routes.
    "app/routes.ts",
    // Dialogs, loaded by import.meta.glob (app/dialogs/host.tsx, app/dialogs/kit.server.ts).
    "app/dialogs/*/dialog.tsx",
    "app/dialogs/*/dialog.server.ts",
    // Started by package.json scripts, scripts/*.sh and the test setups.
    "scripts/*.{ts,mjs}",
    "tests/local/*.ts",
    "tests/integration/**/*.test.ts",
    "tests/integration/{global-setup,maildev-setup,migrated-database}.ts",
    // Playwright's setup project (tests/playwright.config.ts).
    "tests/e2e/*.setup.ts",
  ],
  // Only the modules Remix loads itself: a route folder's helpers must be used by its route.
  remix: {
    entry: ["app/root.tsx", "app/entry.{client,server}.tsx", "app/routes/*.tsx", "app/routes/*/route.{ts,tsx}"],
  },
  // knip cannot load the vitest config (it migrates a database: tests/support/d1-template.ts), so
  // its plugin is off and the config, its setup files and the test files are entries of their own.
  vitest: false,
  playwright: { config: ["tests/playwright.config.ts"] },
  // Started by path (node node_modules/maildev/dist/bin/maildev.js) in scripts/start.sh and
  // tests/support/maildev.ts, never imported.
  ignoreDependencies: ["maildev"],
};

export default config;
