#!/usr/bin/env bash
# Local secrets for wrangler (never committed): a random session secret, the local identity
# provider's client secret, a Mollie test key and webhook secret for the local Mollie fake, and the
# SMTP password (empty for the local maildev).
# Written once; a secret added later is appended to an existing file. Edit .dev.vars to use a real
# provider or the real Mollie (see docs/operations.md).
set -euo pipefail
cd "$(dirname "$0")/.."
random() { node -e "console.log(require('crypto').randomBytes($1).toString('hex'))"; }
if [ ! -f .dev.vars ]; then
  {
    echo "# Local secrets for the local worker, made by npm start. See docs/operations.md, Configuration."
    echo "SESSION_SECRET=$(random 32)"
    echo "OIDC_CLIENT_SECRET=wuff-local-secret"
  } > .dev.vars
fi
# A Mollie test key has the form test_ + 30 letters/digits; the local fake accepts only this one.
grep -q '^MOLLIE_API_KEY=' .dev.vars || echo "MOLLIE_API_KEY=test_$(random 15)" >> .dev.vars
grep -q '^MOLLIE_WEBHOOK_SECRET=' .dev.vars || echo "MOLLIE_WEBHOOK_SECRET=$(random 32)" >> .dev.vars
# The SMTP password (empty: maildev needs no login); added to a .dev.vars from before mail.
grep -q '^SMTP_PASSWORD=' .dev.vars || echo "SMTP_PASSWORD=" >> .dev.vars
