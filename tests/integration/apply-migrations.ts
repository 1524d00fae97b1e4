import { applyD1Migrations, env } from "cloudflare:test";

// Every test file starts from a database built by the real migrations.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
