import { expect, test } from "./support/fixtures";
import { uniqueText } from "./support/journeys";

// Every test here starts logged in as finance (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "finance" });

/**
 * Issue 35 item 2, the Kassenbuch: 'Buchung erfassen' books an Einlage with the next Belegnummer
 * and the new Bestand; 'Stornieren' writes its counter-entry; the print view shows the day's
 * Tagesabschluss. With and without JavaScript, and on a 390 px phone without sideways scrolling.
 */
test("Kasse: an Einlage booked and cancelled, the print view, on a phone", async ({ page, javaScriptEnabled }) => {
  const text = uniqueText(javaScriptEnabled, "Einlage Test");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/cashbook");
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  const book = page.getByRole("region", { name: /^Kasse/ });
  await expect(page.getByText(/^Kassenbestand: /)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.getByRole("link", { name: "Buchung erfassen" }).click();
  const dialog = page.getByRole("dialog", { name: "Buchung erfassen" });
  await expect(dialog).toBeVisible();
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await dialog.getByLabel("Art").selectOption("DEPOSIT");
  await dialog.getByLabel("Betrag").fill("12,34");
  await dialog.getByLabel("Buchungstext").fill(text);
  await dialog.getByRole("button", { name: "Buchen" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Beleg K-\d{4}-\d{4} gebucht: Einlage 12,34/ })).toBeVisible();

  const row = book.locator("tbody tr", { hasText: text });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("12,34 €");
  await row.getByRole("link", { name: "Stornieren" }).click();
  const confirm = page.getByRole("dialog", { name: /^Beleg K-\d{4}-\d{4} stornieren$/ });
  await expect(confirm).toBeVisible();
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await confirm.getByRole("button", { name: /stornieren/i }).click();
  await expect(page.getByRole("status").filter({ hasText: /Storniert: Gegenbuchung Beleg K-/ })).toBeVisible();
  await expect(book.locator("tbody tr", { hasText: text })).toContainText("storniert durch");

  await page.goto("/cashbook/print?period=thisMonth");
  await expect(page.getByRole("heading", { level: 1, name: /^Kassenbuch/ })).toBeVisible();
  await expect(page.getByText(text)).toBeVisible();
  await expect(page.getByText("Tagesabschluss: Summe und Endbestand").first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
