import { expect, test } from "./support/fixtures";
import { uniqueText } from "./support/journeys";
import { fitsWidth, noAxeViolations } from "./support/portal";

// Every test here starts logged in as finance (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "finance" });

/**
 * Issue 35 item 5 as the treasurer meets it on a phone: 'Spende erfassen' records a donation with
 * its donor; without the tax office's notice in the Einstellungen (the demo has none) the receipt
 * is refused with the reason, the button disabled; a donation recorded by mistake is cancelled.
 * With and without JavaScript, at 390 px without sideways scrolling.
 */
test("Spenden: a donation recorded, its receipt refused without a notice, cancelled", async ({ page, javaScriptEnabled }) => {
  const note = uniqueText(javaScriptEnabled, "Spende Test");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/donations");
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  const grid = page.getByRole("region", { name: /^Spenden/ });
  await expect(page.getByText(/Mitgliedsbeiträge sind keine Spenden/)).toBeVisible();

  await page.getByRole("link", { name: "Spende erfassen" }).click();
  const add = page.getByRole("dialog", { name: "Spende erfassen" });
  await expect(add).toBeVisible();
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await add.getByRole("textbox", { name: "Person suchen" }).fill("a");
  await add.getByRole("search", { name: "Person suchen" }).getByRole("button", { name: "Suchen" }).click();
  const donor = add.getByRole("combobox", { name: "Spender/in" });
  await expect(donor.locator("option").nth(1)).toBeAttached();
  await donor.selectOption({ index: 1 });
  await add.getByLabel("Betrag").fill("25,00");
  await add.getByLabel("Notiz (z. B. Verwendungszweck)").fill(note);
  await add.getByRole("button", { name: "Erfassen" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Spende über 25,00 € erfasst" })).toBeVisible();
  const row = grid.locator("tbody tr", { hasText: note });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("offen");
  await fitsWidth(page);
  await noAxeViolations(page, javaScriptEnabled);

  await row.getByRole("link", { name: "Bestätigung ausstellen" }).click();
  const receipt = page.getByRole("dialog", { name: "Zuwendungsbestätigung ausstellen" });
  await expect(receipt).toBeVisible();
  await expect(receipt.getByText(/Bitte in den Einstellungen den Bescheid des Finanzamts/)).toBeVisible();
  await expect(receipt.getByRole("button", { name: "Ausstellen" })).toBeDisabled();
  await page.goto("/donations");
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();

  await grid.locator("tbody tr", { hasText: note }).getByRole("link", { name: "Stornieren" }).click();
  const cancel = page.getByRole("dialog", { name: "Spende stornieren" });
  await expect(cancel).toBeVisible();
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await cancel.getByRole("button", { name: "Stornieren" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Spende storniert: Der Betrag ist Guthaben der Person." })).toBeVisible();
  await expect(grid.locator("tbody tr", { hasText: note })).toContainText("storniert am");
  await fitsWidth(page);
});
