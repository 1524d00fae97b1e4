import { expect, test } from "./support/fixtures";
import { fitsWidth, noAxeViolations } from "./support/portal";

// Every test here starts logged in as admin (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "admin" });

/**
 * Issue 35 items 1, 3 and 4, as the treasurer meets them: Buchhaltung takes the DATEV client data,
 * hands out the Buchungsstapel as a download (a native form post, so JavaScript on and off), and
 * Auswertungen shows the EÜR per sphere with its Excel and PDF links, on a 390 px phone without
 * sideways scrolling.
 */
test("Buchhaltung: DATEV data saved, the Buchungsstapel downloaded, the EÜR on a phone", async ({ page, javaScriptEnabled }) => {
  await page.goto("/bookkeeping");
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await expect(page.getByRole("heading", { level: 1, name: "Buchhaltung" })).toBeVisible();
  await page.getByLabel("Beraternummer").fill("29098");
  await page.getByLabel("Mandantennummer").fill("55003");
  await page.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Kontenrahmen und DATEV-Daten gespeichert." })).toBeVisible();
  await expect(page.getByLabel("Beraternummer")).toHaveValue("29098");

  const year = new Date().getFullYear();
  await page.getByLabel("Von").fill(`01.01.${year}`);
  await page.getByLabel("Bis").fill(`31.12.${year}`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Buchungsstapel herunterladen" }).click()]);
  expect(download.suggestedFilename()).toBe(`EXTF_Buchungsstapel_${year}0101_${year}1231.csv`);
  const file = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  const text = new TextDecoder("windows-1252").decode(Buffer.concat(chunks));
  expect(text.startsWith('"EXTF";700;21;"Buchungsstapel";13;')).toBe(true);
  expect(text).toContain(";29098;55003;");

  // A period across two fiscal years comes back with the reason.
  await page.goto("/bookkeeping");
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await page.getByLabel("Von").fill(`01.12.${year - 1}`);
  await page.getByLabel("Bis").fill(`31.01.${year}`);
  await page.getByRole("button", { name: "Buchungsstapel herunterladen" }).click();
  await expect(page.getByText("Ein Buchungsstapel umfasst höchstens ein Wirtschaftsjahr: bitte den Zeitraum teilen.")).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("link", { name: /^Auswertungen/ }).click();
  await page.getByRole("combobox", { name: /^Auswertung/ }).selectOption("eur");
  await page.getByRole("button", { name: "Anzeigen" }).click();
  await expect(page.getByRole("heading", { level: 2, name: `Einnahmenüberschussrechnung ${year}` })).toBeVisible();
  await expect(page.getByRole("table", { name: "Ergebnis je Sphäre" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Excel herunterladen" })).toBeVisible();
  await expect(page.getByRole("link", { name: "PDF herunterladen" })).toBeVisible();
  await fitsWidth(page);
  await noAxeViolations(page, javaScriptEnabled);
});
