/**
 * vitest global setup (Node side): migrates one database with the real migrations of migrations/
 * and names its directory in WUFF_TEST_D1_TEMPLATE, which the service binding D1_TEMPLATE copies
 * into every test file's D1 (tests/support/d1-template.ts). Removed again after the run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildD1Template } from "../support/d1-template";

const root = fileURLToPath(new URL("../..", import.meta.url));

export default async function setup() {
  const dir = mkdtempSync(join(tmpdir(), "wuff-d1-template-"));
  try {
    await buildD1Template(`${root}wrangler.toml`, `${root}migrations`, dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  process.env.WUFF_TEST_D1_TEMPLATE = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
