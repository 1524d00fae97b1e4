#!/usr/bin/env bash
# All of Wuff's checks: type check, lint (eslint, prettier, knip), integration tests inside workerd
# (vitest), browser tests in Debian's Chromium (Playwright) against the app started as `npm start`
# starts it. Ends with the time of each stage and one line "Tests: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
ARTIFACTS=tests/.artifacts
rm -rf "$ARTIFACTS" && mkdir -p "$ARTIFACTS"
status=0
TIMES=()
stage_started=$SECONDS
step() {
  echo
  echo "== $1"
  stage_started=$SECONDS
}
# Records how long the stage that just ended took, for the closing lines.
took() { TIMES+=("$1 $((SECONDS - stage_started)) s"); }

step "Installation prüfen"
[ -x node_modules/.bin/vitest ] || npm install --no-audit --no-fund || status=1
bash scripts/ensure-chromium.sh || status=1
bash scripts/ensure-sepa-xsd.sh || status=1
bash scripts/ensure-cii-xsd.sh || status=1
took "Installation"

# The build does not depend on the checks: it runs beside them (two cores), its log is shown when it fails.
npm run --silent build >"$ARTIFACTS/build.log" 2>&1 &
build_pid=$!
build_started=$SECONDS

step "Typprüfung (tsc)"
npm run --silent typecheck || status=1
took "Typprüfung"

step "Lint (eslint, prettier, knip)"
npm run --silent lint || status=1
took "Lint"

step "Build"
stage_started=$build_started
wait "$build_pid" || {
  cat "$ARTIFACTS/build.log"
  status=1
}
took "Build (neben Typprüfung und Lint)"

step "Integrationstests in workerd (vitest)"
node_modules/.bin/vitest run --config tests/vitest.config.ts \
  --reporter=default --reporter=json --outputFile.json="$ARTIFACTS/vitest.json" || status=1
took "Integrationstests"

step "Browsertests in Chromium (Playwright)"
WUFF_SKIP_BUILD=1 node_modules/.bin/playwright test --config tests/playwright.config.ts || status=1
took "Browsertests"

echo
printf 'Zeiten: %s\n' "$(IFS='|'; echo "${TIMES[*]}" | sed 's/|/ · /g')"
node scripts/test-summary.mjs "$ARTIFACTS/vitest.json" "$ARTIFACTS/playwright.json" "$ARTIFACTS/failed-tests.txt" || status=1
exit $status
