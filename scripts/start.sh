#!/usr/bin/env bash
# Starts Wuff as it runs on Cloudflare: the built Remix app in the real worker (workerd, through
# scripts/serve.ts) with local D1 (migrated; demo data on first start), R2, queues, cron and
# Browser Rendering.
#
#   PORT=8787           where the app listens (default 8787)
#   HOST=127.0.0.1      the address it binds to
#   WUFF_STATE_DIR=...  where local D1/R2/queue data live (default .wrangler/state)
#   WUFF_SKIP_BUILD=1   reuse an existing build (the test command builds once)
#   IDP_PORT=8788       port of the local OpenID Connect provider
#   LOCAL_IDP=0         do not start the local provider: use the OIDC_* settings of .dev.vars
#   MOLLIE_FAKE_PORT=8790  port of the local Mollie fake (payment links)
#   LOCAL_MOLLIE=0      do not start the fake: use MOLLIE_API_URL of wrangler.toml/.dev.vars
#   MAILDEV_SMTP_PORT=1025  SMTP port of the local mail catcher (maildev) the app sends to
#   MAILDEV_WEB_PORT=1080   its web view (http://localhost:1080) and REST API (/api/email)
#   LOCAL_MAIL=0        do not start maildev: use the SMTP_* settings of wrangler.toml/.dev.vars
#   WUFF_DEV_ARGS=...   more options for scripts/serve.ts (e.g. `--inspector-port 9229` to profile
#                       the worker's CPU with the DevTools protocol, docs/benchmarks.md)
set -euo pipefail
cd "$(dirname "$0")/.."

export PORT="${PORT:-8787}"
export HOST="${HOST:-127.0.0.1}"
export WUFF_STATE_DIR="${WUFF_STATE_DIR:-.wrangler/state}"
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
BIN=node_modules/.bin

[ -x "$BIN/wrangler" ] || npm install --no-audit --no-fund

# Chromium only matters for PDFs here: the app starts without it.
bash scripts/ensure-chromium.sh || echo "Hinweis: ohne Chromium können keine Rechnungs-PDFs erzeugt werden." >&2

[ "${WUFF_SKIP_BUILD:-}" = "1" ] && [ -f build/server/index.js ] || "$BIN/remix" vite:build

bash scripts/ensure-dev-vars.sh

"$BIN/wrangler" d1 migrations apply DB --local --persist-to "$WUFF_STATE_DIR"
"$BIN/tsx" scripts/seed.ts --persist-to "$WUFF_STATE_DIR"

EXTRA_VARS=()
CHILDREN=()
trap 'for pid in "${CHILDREN[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT
if [ "${LOCAL_IDP:-1}" != "0" ]; then
  export IDP_PORT="${IDP_PORT:-8788}"
  APP_URL="http://localhost:$PORT" OIDC_CLIENT_SECRET="$(sed -n 's/^OIDC_CLIENT_SECRET=//p' .dev.vars)" \
    "$BIN/tsx" tests/local/identity-provider.ts &
  CHILDREN+=($!)
  for _ in $(seq 1 50); do
    curl -sf "http://localhost:$IDP_PORT/.well-known/openid-configuration" >/dev/null && break
    sleep 0.2
  done
  EXTRA_VARS=(--var "OIDC_ISSUER:http://localhost:$IDP_PORT")
fi

# The local Mollie fake (payment links): it accepts the key of .dev.vars and keeps its state
# beside the app's. Its payments call the app's webhook like Mollie does.
if [ "${LOCAL_MOLLIE:-1}" != "0" ]; then
  export MOLLIE_FAKE_PORT="${MOLLIE_FAKE_PORT:-8790}"
  mkdir -p "$WUFF_STATE_DIR"
  MOLLIE_FAKE_API_KEYS="$(sed -n 's/^MOLLIE_API_KEY=//p' .dev.vars)" MOLLIE_FAKE_STATE="$WUFF_STATE_DIR/mollie-fake.json" \
    "$BIN/tsx" tests/local/mollie-fake.ts &
  CHILDREN+=($!)
  for _ in $(seq 1 50); do
    curl -sf "http://127.0.0.1:$MOLLIE_FAKE_PORT/_fake/health" >/dev/null && break
    sleep 0.2
  done
  EXTRA_VARS+=(--var "MOLLIE_API_URL:http://127.0.0.1:$MOLLIE_FAKE_PORT/v2")
fi

# The local mail catcher: every mail the app sends lands in its web view, nothing leaves the machine.
if [ "${LOCAL_MAIL:-1}" != "0" ]; then
  export MAILDEV_SMTP_PORT="${MAILDEV_SMTP_PORT:-1025}" MAILDEV_WEB_PORT="${MAILDEV_WEB_PORT:-1080}"
  node node_modules/maildev/dist/bin/maildev.js --smtp "$MAILDEV_SMTP_PORT" --ip 127.0.0.1 \
    --web "$MAILDEV_WEB_PORT" --web-ip 127.0.0.1 --silent &
  CHILDREN+=($!)
  for _ in $(seq 1 50); do
    curl -sf "http://127.0.0.1:$MAILDEV_WEB_PORT/api/healthz" >/dev/null && break
    sleep 0.2
  done
  EXTRA_VARS+=(--var "SMTP_HOST:127.0.0.1" --var "SMTP_PORT:$MAILDEV_SMTP_PORT" --var "SMTP_SECURE:false")
  echo "Mails (maildev): http://localhost:$MAILDEV_WEB_PORT"
fi

# Cron triggers never fire locally (see below): the five-minute one, which resumes stalled bulk
# runs (STALLED_RUNS_CRON), is fired by this ticker, as Cloudflare fires it in production.
if [ "${LOCAL_CRON:-1}" != "0" ]; then
  (while sleep 300; do curl -s -o /dev/null "http://$HOST:$PORT/__scheduled?cron=*/5+*+*+*+*" || true; done) &
  CHILDREN+=($!)
fi

echo "Wuff startet auf http://localhost:$PORT"
# Not `wrangler dev`: its proxy in front of the worker drops a form post now and then
# (scripts/serve.ts says why). Cron triggers never fire locally; GET /__scheduled?cron=... fires one.
"$BIN/tsx" scripts/serve.ts --port "$PORT" --host "$HOST" --state "$WUFF_STATE_DIR" \
  --var "APP_URL:http://localhost:$PORT" "${EXTRA_VARS[@]}" ${WUFF_DEV_ARGS:-}
