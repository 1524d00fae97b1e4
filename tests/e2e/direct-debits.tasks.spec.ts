import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { camtDebitBookings } from "../support/camt";
import { loginAs } from "./support/login";

/** The transactions of a pain.008 file: end-to-end id and cents. */
const transactionsOf = (xml: string) =>
  [...xml.matchAll(/<DrctDbtTxInf>[\s\S]*?<EndToEndId>([^<]+)<\/EndToEndId>[\s\S]*?<InstdAmt Ccy="EUR">([\d.]+)<\/InstdAmt>/g)].map((match) => ({
    endToEndId: match[1],
    cents: Math.round(Number(match[2]) * 100),
  }));

const euros = (cents: number) =>
  `${(cents / 100)
    .toFixed(2)
    .replace(".", ",")
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".")}\u00a0€`;

type Transaction = { endToEndId: string; cents: number };

/**
 * The bank's statement for a run (uploaded at Kontoauszug importieren, booked as proposed): one
 * transaction comes back for insufficient funds (AM04), another (if any) is credited. The review
 * names the run and the German reason; the run then shows what of it is paid, the
 * Rücklastschriften what came back and why. Gives the run's row.
 */
async function bankStatementFor(page: Page, runId: string, returned: Transaction, credited: Transaction | undefined) {
  const stamp = `${runId}-${Date.now()}`;
  const xml = camtDebitBookings([
    { kind: "return", ref: `RET-${stamp}`, reason: "AM04", ...returned },
    ...(credited ? [{ kind: "credit" as const, ref: `GUT-${stamp}`, ...credited }] : []),
  ]);
  await page.goto("/bankstatements");
  await page
    .getByLabel("Kontoauszug (CAMT.053 oder MT940)")
    .setInputFiles({ name: "lastschriften.xml", mimeType: "application/xml", buffer: Buffer.from(xml) });
  await page.getByRole("button", { name: "Hochladen und abgleichen" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Kontoauszug prüfen" })).toBeVisible();
  const entries = page.getByRole("list", { name: "Buchungen des Kontoauszugs" }).getByRole("listitem");
  if (credited) {
    await expect(entries.filter({ hasText: `Lastschriftlauf ${runId} (Lastschrift ${credited.endToEndId})` }).getByText("Zugeordnet")).toBeVisible();
  }
  await expect(entries.filter({ hasText: "Grund AM04" }).getByText("Rücklastschrift", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Buchen" }).click();
  await expect(page.getByRole("status")).toContainText(credited ? "2 Buchungen gebucht" : "1 Buchung gebucht");

  await page.goto("/directdebits");
  const run = page.getByRole("region", { name: "Bisherige Läufe" }).getByRole("row", { name: new RegExp(`^Lauf ${runId}\\b`) });
  if (credited) await expect(run).toContainText(euros(credited.cents));
  return run;
}

/** The Rücklastschriften: one row per returned fee (a transaction may collect several), the reason in German. */
const returnsWithReason = (page: Page) =>
  page.getByRole("region", { name: "Rücklastschriften" }).getByRole("row").filter({ hasText: "AM04 Deckung unzureichend" });

// Runs with the bulk runs (its name ends in tasks.spec.ts), one project after the other: a run
// collects every collectable fee of the club. With JavaScript one of its transactions comes back
// and another is credited, so the run can no longer be cancelled; the run without JavaScript
// collects the returned one again (AM04: once more), is handed to the bank, and one comes back.
test("Lastschriftlauf: from the Kontenblatt, preview, confirmation, the notices, the run, the pain.008 download, the bank's credits and returns", async ({
  page,
  javaScriptEnabled,
}) => {
  test.slow();
  await loginAs(page, "finance", "/fees");
  await page
    .getByRole("toolbar", { name: /^Kontenblatt.*Aktionen$/ })
    .getByRole("link", { name: "Lastschriftläufe" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Lastschriftläufe" })).toBeVisible();
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();

  const card = page.getByRole("region", { name: "Lastschriftlauf" });
  await card.getByRole("link", { name: "Lastschriftlauf vorbereiten …" }).click();
  const dialog = page.getByRole("dialog", { name: "Lastschriftlauf vorbereiten" });
  const preview = dialog.getByRole("table", { name: "Vorschau" });
  await expect(preview).toBeVisible();
  const transactions = Number(
    (await preview
      .getByRole("row", { name: /^Lastschriften/ })
      .getByRole("cell")
      .textContent())!.match(/^(\d+)/)![1],
  );
  expect(transactions).toBeGreaterThan(0);
  const sum = (await preview
    .getByRole("row", { name: /^Summe/ })
    .getByRole("cell")
    .textContent())!.trim();
  // The people left out without a mandate, each a link to their mandate.
  const missing = dialog.getByRole("region", { name: /^Ohne aktives Mandat/ });
  await expect(missing.getByRole("link").first()).toHaveAttribute("href", /^\/people\/\d+\?dialog=mandate-person&dialogId=\d+$/);
  // Every debtor is told beforehand (issue 31 item 1): by mail, or by letter without an address.
  await expect(preview.getByRole("row", { name: /^Vorabankündigungen/ })).toContainText(/\d+ Mails?/);
  // A collection date before the pre-notification period is refused, naming the earliest one.
  const collectionDate = dialog.getByLabel("Einzug frühestens am");
  const earliest = await collectionDate.inputValue();
  expect(earliest).toMatch(/^\d\d\.\d\d\.\d{4}$/);
  await collectionDate.fill("01.12.2025");
  await dialog.getByRole("button", { name: "Lastschriften einziehen" }).click();
  const again = page.getByRole("dialog", { name: "Lastschriftlauf vorbereiten" });
  await expect(again.getByText(`Der Einzug ist frühestens am ${earliest} möglich`)).toBeVisible();
  await again.getByLabel("Einzug frühestens am").fill(earliest);
  await again.getByRole("button", { name: "Lastschriften einziehen" }).click();

  // The run goes to the queue; the screen follows it (with JavaScript by itself, without by reloading).
  const result = card.getByRole("status", { name: "Ergebnis Lastschriftlauf" });
  await expect(result).toContainText(/Fertig! \d+ Lastschrift/, { timeout: 120_000 });
  // The other bulk runs of this project run alongside (Jahresbeiträge, Mahnlauf) and may add fees to
  // collect between the preview and the run: the run takes at least what the preview showed, and
  // the file says exactly what the run reports (the preview's exactness is an integration test).
  const [, done, total] = (await result.textContent())!.match(/Fertig! (\d+) Lastschrift(?:en)? über ([\d.]+,\d\d\s€)/)!;
  await expect(result).toContainText(/Vorabankündigungen: \d+ per Mail/);
  const letters = /(\d+) Briefe? zum Drucken/.exec((await result.textContent())!)?.[1];
  expect(Number(done)).toBeGreaterThanOrEqual(transactions);
  if (Number(done) === transactions) expect(total).toBe(sum);

  // The newest run: the first row of the grid (the header row names no run).
  const run = page
    .getByRole("region", { name: "Bisherige Läufe" })
    .getByRole("row", { name: /^Lauf \d+/ })
    .first();
  await expect(run).toContainText("vorbereitet");
  await expect(run).toContainText(total);
  const [download] = await Promise.all([page.waitForEvent("download"), run.getByRole("link", { name: "Datei herunterladen" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^Lastschrift_Lauf_\d+_\d{4}-\d{2}-\d{2}\.xml$/);
  const xml = readFileSync((await download.path())!, "utf8");
  expect(xml).toContain('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.008.001.08">');
  expect(xml).toContain(`<NbOfTxs>${done}</NbOfTxs>`);
  expect(xml).toContain(`<CtrlSum>${total.replace(/[^\d,]/g, "").replace(",", ".")}</CtrlSum>`);
  // Notices to people without an e-mail address are letters to print (whether the demo's debtors
  // include one depends on the data: the integration tests cover both ways).
  if (!letters) {
    await expect(run.getByRole("link", { name: "Vorabankündigungen drucken" })).toHaveCount(0);
  } else {
    const [printed] = await Promise.all([page.waitForEvent("download"), run.getByRole("link", { name: "Vorabankündigungen drucken" }).click()]);
    expect(printed.suggestedFilename()).toMatch(/^Vorabankuendigungen_Lauf_\d+\.pdf$/);
    expect(
      readFileSync((await printed.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  }

  const runId = /^Lauf (\d+)/.exec((await run.getByRole("cell").first().textContent())!.trim())![1];
  const transactionsOfRun = transactionsOf(xml);
  if (javaScriptEnabled) {
    expect(transactionsOfRun.length).toBeGreaterThanOrEqual(2);
    const [first, second] = transactionsOfRun;
    const booked = await bankStatementFor(page, runId, first, second);
    await expect(returnsWithReason(page).first()).toContainText("wird erneut eingezogen");
    await booked.getByRole("link", { name: "Lauf stornieren …" }).click();
    const cancel = page.getByRole("dialog", { name: /^Lastschriftlauf \d+ stornieren$/ });
    await expect(cancel).toContainText("seitdem geändert");
    await cancel.getByRole("button", { name: "Lauf stornieren" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "kann nicht mehr storniert werden" })).toBeVisible();
  } else {
    await run.getByRole("link", { name: "An die Bank übergeben …" }).click();
    const submit = page.getByRole("dialog", { name: /^Lastschriftlauf \d+ an die Bank übergeben$/ });
    await submit.getByRole("button", { name: "An die Bank übergeben" }).click();
    await expect(run).toContainText("an die Bank übergeben");
    await expect(run.getByRole("link", { name: "Lauf stornieren …" })).toHaveCount(0);
    // The one returned with JavaScript is collected once more.
    const returnedBefore = await returnsWithReason(page).count();
    const [first, second] = transactionsOfRun;
    await bankStatementFor(page, runId, first, second);
    expect(await returnsWithReason(page).count()).toBeGreaterThan(returnedBefore);
  }
});

test("Lastschriftläufe on a phone: no horizontal scrolling, screen and preview", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, "admin", "/directdebits");
  await expect(page.getByRole("region", { name: "Lastschriftlauf" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.goto("/directdebits?dialog=directDebit-start");
  await expect(page.getByRole("dialog", { name: "Lastschriftlauf vorbereiten" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
