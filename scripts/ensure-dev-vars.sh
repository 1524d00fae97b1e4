#!/usr/bin/env bash
# Local secrets for wrangler (never committed): a random session secret, the local identity
# provider's client secret and the SMTP password (empty for the local maildev). Written once; edit .dev.vars to use a real provider (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f .dev.vars ]; then
  {
    echo "# Local secrets for wrangler dev, made by npm start. See README, Configuration."
    echo "SESSION_SECRET=$(node -e 'console.log(require("crypto").randomBytes(32).toString("hex"))')"
    echo "OIDC_CLIENT_SECRET=wuff-local-secret"
  } > .dev.vars
fi
# The SMTP password (empty: maildev needs no login); added to a .dev.vars from before mail.
grep -q '^SMTP_PASSWORD=' .dev.vars || echo "SMTP_PASSWORD=" >> .dev.vars
