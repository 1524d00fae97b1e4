#!/usr/bin/env bash
# All of Wuff's checks: type check, lint, integration tests inside workerd (vitest), browser tests
# in Debian's Chromium (Playwright) against the app started as `npm start` starts it. Ends with one
# line "Tests: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
ARTIFACTS=tests/.artifacts
rm -rf "$ARTIFACTS" && mkdir -p "$ARTIFACTS"
status=0
step() { echo; echo "== $1"; }

[ -x node_modules/.bin/vitest ] || npm install --no-audit --no-fund

step "Typprüfung (tsc)"
npm run --silent typecheck || status=1

step "Lint (eslint, prettier, knip)"
npm run --silent lint || status=1

step "Chromium"
bash scripts/ensure-chromium.sh || status=1

step "SEPA-Schema (XSD)"
bash scripts/ensure-sepa-xsd.sh || status=1

step "Build"
npm run --silent build >"$ARTIFACTS/build.log" 2>&1 || { cat "$ARTIFACTS/build.log"; status=1; }

step "Integrationstests in workerd (vitest)"
node_modules/.bin/vitest run --config tests/vitest.config.ts \
  --reporter=default --reporter=json --outputFile.json="$ARTIFACTS/vitest.json" || status=1

step "Browsertests in Chromium (Playwright)"
WUFF_SKIP_BUILD=1 node_modules/.bin/playwright test --config tests/playwright.config.ts || status=1

echo
node scripts/test-summary.mjs "$ARTIFACTS/vitest.json" "$ARTIFACTS/playwright.json" || status=1
exit $status
