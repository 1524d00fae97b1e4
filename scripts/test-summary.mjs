// Adds up the vitest and Playwright JSON reports into one closing line for CI.
import { existsSync, readFileSync } from "node:fs";

const [vitestFile, playwrightFile] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;

if (existsSync(vitestFile)) {
  const report = JSON.parse(readFileSync(vitestFile, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.numFailedTestSuites ?? 0);
  skipped += report.numPendingTests + report.numTodoTests;
} else {
  console.log(`Kein vitest-Bericht (${vitestFile}).`);
  failed += 1;
}

if (existsSync(playwrightFile)) {
  const { stats } = JSON.parse(readFileSync(playwrightFile, "utf8"));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
} else {
  console.log(`Kein Playwright-Bericht (${playwrightFile}).`);
  failed += 1;
}

console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
