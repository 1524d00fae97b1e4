#!/usr/bin/env bash
# Vite dev server with hot reload on PORT (default 5173). Loaders get the real local D1/R2
# bindings through wrangler's platform proxy, but the worker entry does not run: no queue
# consumer, no cron. Use `npm start` to run the real worker.
#
# Login works through the local provider started here; the dev server reads APP_URL from
# .dev.vars (added there on first run; npm start overrides it with its own port).
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
PORT="${PORT:-5173}"
bash scripts/ensure-dev-vars.sh
grep -q '^APP_URL=' .dev.vars || echo "APP_URL=http://localhost:$PORT" >> .dev.vars
node_modules/.bin/wrangler d1 migrations apply DB --local
node_modules/.bin/tsx scripts/seed.ts
if [ "${LOCAL_IDP:-1}" != "0" ]; then
  APP_URL="http://localhost:$PORT" IDP_PORT="${IDP_PORT:-8788}" node_modules/.bin/tsx tests/local/identity-provider.ts &
  trap 'kill $! 2>/dev/null || true' EXIT
fi
node_modules/.bin/remix vite:dev --port "$PORT"
