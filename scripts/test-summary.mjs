// Adds up the vitest and Playwright JSON reports into one closing line for CI, names every test
// that failed (or did not run because a project it depends on failed), and writes those names to
// a file when one is given (scripts/test-repeat.sh collects them across runs).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";

const [vitestFile, playwrightFile, failedNamesFile] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const failedNames = [];

if (existsSync(vitestFile)) {
  const report = JSON.parse(readFileSync(vitestFile, "utf8"));
  passed += report.numPassedTests;
  // Each failed test once, and a file that failed without a failed test (it did not load, or a
  // hook failed) as one more: vitest's count of failed suites also counts the describe blocks
  // around a failed test, so one failure read as three.
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  for (const file of report.testResults) {
    const name = relative(process.cwd(), file.name);
    const failedTests = file.assertionResults.filter((test) => test.status === "failed");
    for (const test of failedTests) failedNames.push(`vitest ${name} › ${test.fullName}`);
    if (file.status === "failed" && failedTests.length === 0) {
      failed += 1;
      failedNames.push(`vitest ${name} (Datei)`);
    }
  }
} else {
  console.log(`Kein vitest-Bericht (${vitestFile}).`);
  failed += 1;
  failedNames.push("vitest (kein Bericht)");
}

/** Every test of a Playwright report with the titles of the suites around it. */
function* playwrightTests(suite, titles = []) {
  const here = suite.title ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? []) for (const test of spec.tests) yield { title: [...here, spec.title].join(" › "), test };
  for (const child of suite.suites ?? []) yield* playwrightTests(child, here);
}

if (existsSync(playwrightFile)) {
  const report = JSON.parse(readFileSync(playwrightFile, "utf8"));
  const { stats } = report;
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected + stats.flaky;
  skipped += stats.skipped;
  let notRun = 0;
  for (const suite of report.suites) {
    for (const { title, test } of playwrightTests(suite)) {
      const ran = test.results.length > 0;
      // A test of a project whose dependency failed has no result at all: it counts as failed.
      if (!ran && test.expectedStatus !== "skipped" && stats.unexpected > 0) {
        notRun += 1;
        failedNames.push(`playwright [${test.projectName}] ${title} (nicht gelaufen)`);
      } else if (test.status === "unexpected" || test.status === "flaky") {
        failedNames.push(`playwright [${test.projectName}] ${title}`);
      }
    }
  }
  skipped -= notRun;
  failed += notRun;
} else {
  console.log(`Kein Playwright-Bericht (${playwrightFile}).`);
  failed += 1;
  failedNames.push("playwright (kein Bericht)");
}

if (failedNames.length > 0) console.log(`Fehlgeschlagen:\n${failedNames.map((name) => `  ${name}`).join("\n")}`);
if (failedNamesFile) writeFileSync(failedNamesFile, failedNames.map((name) => `${name}\n`).join(""));
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
