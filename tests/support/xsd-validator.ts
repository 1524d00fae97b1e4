/**
 * Node side of the service binding XSD_VALIDATOR (tests/vitest.config.ts): validates a posted XML
 * document with xmllint against an official schema (`?schema=`): the ISO 20022 pain.008 (default),
 * fetched by scripts/ensure-sepa-xsd.sh into .cache/sepa-xsd, or the e-invoice's schemas, the
 * UN/CEFACT CII D16B ('cii-d16b') and the Factur-X 1.07.3 EN 16931 profile ('facturx-en16931'),
 * fetched by scripts/ensure-cii-xsd.sh into .cache/cii-xsd (each run here when missing). Answers
 * { valid, output }; without schema or xmllint, 500 with the reason, so a test fails, never skips.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const DIR = join(root, ".cache/sepa-xsd");
/** Each schema: its main file and the script that fetches it. */
const SCHEMAS: Record<string, { file: string; script: string }> = {
  "pain.008.001.08": { file: join(DIR, "pain.008.001.08.xsd"), script: "scripts/ensure-sepa-xsd.sh" },
  "cii-d16b": { file: join(root, ".cache/cii-xsd/d16b/data/standard/CrossIndustryInvoice_100pD16B.xsd"), script: "scripts/ensure-cii-xsd.sh" },
  "facturx-en16931": { file: join(root, ".cache/cii-xsd/facturx/Factur-X_1.07.3_EN16931.xsd"), script: "scripts/ensure-cii-xsd.sh" },
};

function ensureSchema({ file, script }: { file: string; script: string }): string | null {
  if (existsSync(file) && existsSync(join(DIR, "xmllint"))) return null;
  const run = spawnSync("bash", [join(root, script)], { encoding: "utf8" });
  return run.status === 0 ? null : `Das offizielle XSD fehlt und konnte nicht geholt werden (${script}): ${run.stderr || run.stdout}`;
}

export async function validateSepaXml(request: Request): Promise<Response> {
  const schema = new URL(request.url).searchParams.get("schema") ?? "pain.008.001.08";
  const known = Object.hasOwn(SCHEMAS, schema) ? SCHEMAS[schema] : undefined;
  if (!known) return Response.json({ valid: false, output: `Unbekanntes Schema ${schema}` }, { status: 400 });
  const missing = ensureSchema(known);
  if (missing) return Response.json({ valid: false, output: missing }, { status: 500 });
  const work = mkdtempSync(join(tmpdir(), "wuff-xsd-"));
  try {
    const file = join(work, "document.xml");
    writeFileSync(file, await request.text());
    const run = spawnSync(join(DIR, "xmllint"), ["--noout", "--schema", known.file, file], { encoding: "utf8" });
    return Response.json({ valid: run.status === 0, output: `${run.stdout}${run.stderr}`.trim() });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
