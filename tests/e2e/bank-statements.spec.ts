import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "./support/fixtures";

// Every test here starts logged in as finance (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "finance" });

/** The demo data numbers its invoices from the current year ({year}001, ...); the fixtures name
 *  those of 2026 and are uploaded with the current year's numbers. */
const demoYear = Number(new Intl.DateTimeFormat("en", { timeZone: "Europe/Berlin", year: "numeric" }).format(new Date()));
const fixture = (name: string) => ({
  name,
  mimeType: "application/octet-stream",
  buffer: Buffer.from(
    readFileSync(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)), "latin1").replace(/\b2026(\d{3})\b/g, `${demoYear}$1`),
    "latin1",
  ),
});

// Both projects share one database: with JavaScript the CAMT.053 sample pays invoice {year}001,
// without it the MT940 sample pays invoice {year}006; every other booking stays unbooked.
test("Kontoauszug: upload from the Kontenblatt, review, book one payment, the invoice is paid", async ({ page, javaScriptEnabled }) => {
  const [file, invoiceNumber] = javaScriptEnabled ? ["camt053-demo.xml", `${demoYear}001`] : ["mt940-demo.sta", `${demoYear}006`];
  await page.goto("/fees");
  await page
    .getByRole("toolbar", { name: /^Kontenblatt.*Aktionen$/ })
    .getByRole("link", { name: "Kontoauszug importieren" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Kontoauszug importieren" })).toBeVisible();
  await page.getByLabel("Kontoauszug (CAMT.053 oder MT940)").setInputFiles(fixture(file));
  await page.getByRole("button", { name: "Hochladen und abgleichen" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Kontoauszug prüfen" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("importiert");

  const entries = page.getByRole("list", { name: "Buchungen des Kontoauszugs" }).getByRole("listitem");
  const wanted = entries.filter({ hasText: `ReNr ${invoiceNumber}` });
  await expect(wanted.getByText("Zugeordnet")).toBeVisible();
  await expect(wanted.getByRole("combobox", { name: "Zuordnung" })).toHaveValue(/^INVOICE:\d+$/);
  // Every other booking: 'Nicht buchen'.
  const others = entries.filter({ hasNotText: `ReNr ${invoiceNumber}` }).getByRole("combobox", { name: "Zuordnung" });
  for (let index = 0; index < (await others.count()); index++) await others.nth(index).selectOption({ label: "Nicht buchen" });
  await page.getByRole("button", { name: "Buchen" }).click();
  await expect(page.getByRole("status")).toContainText("1 Buchung gebucht");
  await expect(wanted.getByText("Gebucht", { exact: true })).toBeVisible();
  // On a phone the review fits the screen: a long choice (a fee's text) does not widen the page.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 720 });

  await wanted.getByRole("link", { name: new RegExp(`^Rechnung ${invoiceNumber}`) }).click();
  const invoiceRow = page.getByRole("region", { name: /^Rechnungen/ }).locator("tbody tr[aria-selected=true]");
  await expect(invoiceRow.locator("td").nth(1)).toHaveText(invoiceNumber);
  // Datum, Rechnungsnr., Status, Person, Betrag, Offen.
  await expect(invoiceRow.locator("td").nth(5)).toHaveText("0,00 €");
  await expect(invoiceRow.locator("td").nth(2)).toHaveText("Bezahlt");
});
