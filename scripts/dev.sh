#!/usr/bin/env bash
# Vite dev server with hot reload. Loaders get the real local D1/R2 bindings through wrangler's
# platform proxy, but the worker entry does not run: no queue consumer, no cron. Use `npm start`
# to run the real worker.
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
node_modules/.bin/wrangler d1 migrations apply DB --local
node_modules/.bin/tsx scripts/seed.ts
exec node_modules/.bin/remix vite:dev --port "${PORT:-5173}"
