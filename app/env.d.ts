// Secrets are not in wrangler.toml (so `wrangler types` cannot see them): set them with
// `wrangler secret put` in production and in .dev.vars locally (see docs/operations.md, "Configuration").
declare namespace Cloudflare {
  interface Env {
    /** Signs the session, return-to and toast cookies. */
    SESSION_SECRET: string;
    /** The client secret Wuff has at the OpenID Connect provider. */
    OIDC_CLIENT_SECRET: string;
    /** Mollie API key (test_... or live_...); without it (unset or empty) no payment links are made. */
    MOLLIE_API_KEY: string;
    /** Signs the fee reference in payment links' webhook URLs (see app/services/payments.server.ts). */
    MOLLIE_WEBHOOK_SECRET: string;
    /** The SMTP login's password (with SMTP_USER); empty for maildev. */
    SMTP_PASSWORD: string;
  }
}
