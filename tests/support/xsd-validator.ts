/**
 * Node side of the service binding XSD_VALIDATOR (tests/vitest.config.ts): validates a posted XML
 * document with xmllint against the official ISO 20022 schema, both fetched by
 * scripts/ensure-sepa-xsd.sh into .cache/sepa-xsd (run here when missing). Answers
 * { valid, output }; without schema or xmllint, 500 with the reason, so a test fails, never skips.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const DIR = join(root, ".cache/sepa-xsd");
const SCHEMAS = new Set(["pain.008.001.08"]);

function ensureSchema(): string | null {
  if (existsSync(join(DIR, "pain.008.001.08.xsd")) && existsSync(join(DIR, "xmllint"))) return null;
  const run = spawnSync("bash", [join(root, "scripts/ensure-sepa-xsd.sh")], { encoding: "utf8" });
  return run.status === 0 ? null : `Das offizielle XSD fehlt und konnte nicht geholt werden (scripts/ensure-sepa-xsd.sh): ${run.stderr || run.stdout}`;
}

export async function validateSepaXml(request: Request): Promise<Response> {
  const schema = new URL(request.url).searchParams.get("schema") ?? "pain.008.001.08";
  if (!SCHEMAS.has(schema)) return Response.json({ valid: false, output: `Unbekanntes Schema ${schema}` }, { status: 400 });
  const missing = ensureSchema();
  if (missing) return Response.json({ valid: false, output: missing }, { status: 500 });
  const work = mkdtempSync(join(tmpdir(), "wuff-xsd-"));
  try {
    const file = join(work, "document.xml");
    writeFileSync(file, await request.text());
    const run = spawnSync(join(DIR, "xmllint"), ["--noout", "--schema", join(DIR, `${schema}.xsd`), file], { encoding: "utf8" });
    return Response.json({ valid: run.status === 0, output: `${run.stdout}${run.stderr}`.trim() });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
