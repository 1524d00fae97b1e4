#!/usr/bin/env bash
# Starts Wuff as it runs on Cloudflare: the built Remix app in the real worker (`wrangler dev`)
# with local D1 (migrated; demo data on first start), R2, queues, cron and Browser Rendering.
#
#   PORT=8787           where the app listens (default 8787)
#   HOST=127.0.0.1      the address it binds to
#   WUFF_STATE_DIR=...  where local D1/R2/queue data live (default .wrangler/state)
#   WUFF_SKIP_BUILD=1   reuse an existing build (the test command builds once)
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

"$BIN/wrangler" d1 migrations apply DB --local --persist-to "$WUFF_STATE_DIR"
"$BIN/tsx" scripts/seed.ts --persist-to "$WUFF_STATE_DIR"

echo "Wuff startet auf http://localhost:$PORT"
# --test-scheduled: cron triggers never fire locally; GET /__scheduled?cron=... fires one.
# (/cdn-cgi/handler/scheduled fails locally once [assets] is configured.)
exec "$BIN/wrangler" dev --port "$PORT" --ip "$HOST" --persist-to "$WUFF_STATE_DIR" --test-scheduled \
  --var "APP_URL:http://localhost:$PORT"
