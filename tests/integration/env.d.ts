import type { D1Migration } from "@cloudflare/vitest-pool-workers";

declare global {
  namespace Cloudflare {
    interface Env {
      /** Migrations read from migrations/ by tests/vitest.config.ts. */
      TEST_MIGRATIONS: D1Migration[];
      /** A TCP server greeting like an SMTP server (tests/integration/global-setup.ts). */
      TEST_SMTP_GREETER_PORT: string;
      /** maildev's REST API (tests/integration/maildev-setup.ts), e.g. http://127.0.0.1:PORT/api. */
      MAILDEV_API: string;
      /** POST an XML document (?schema=pain.008.001.08): xmllint's verdict against the official XSD,
       *  as { valid, output } (tests/support/xsd-validator.ts, Node side). */
      XSD_VALIDATOR: Fetcher;
      /** GET: the migrated database as a script of SQL statements, which each test file's setup
       *  runs (tests/support/d1-template.ts, Node side). */
      D1_TEMPLATE: Fetcher;
    }
  }
}
