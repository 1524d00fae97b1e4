import { expect, test } from "./support/fixtures";
import { chooseFirstPerson, uniqueText } from "./support/journeys";
import { fitsWidth, noAxeViolations } from "./support/portal";

// Every test here starts logged in as finance (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "finance" });

/**
 * Issue 35 item 5 as the treasurer meets it on a phone: 'Spende erfassen' records a donation with
 * its donor; the demo club has its Freistellungsbescheid in the Einstellungen, so 'Bestätigung
 * ausstellen' issues a numbered Zuwendungsbestätigung (its PDF a link in the row), after which the
 * donation can no longer be cancelled; a donation recorded by mistake is cancelled while
 * unconfirmed. With and without JavaScript, at 390 px without sideways scrolling. (The refusals
 * without a notice or with one too old: tests/integration/donations.test.ts.)
 */
test("Spenden: a donation recorded and confirmed, another cancelled", async ({ page, javaScriptEnabled }) => {
  const note = uniqueText(javaScriptEnabled, "Spende Test");
  const mistake = uniqueText(javaScriptEnabled, "Spende Irrtum");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/donations");
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  const grid = page.getByRole("region", { name: /^Spenden/ });
  await expect(page.getByText(/Mitgliedsbeiträge sind keine Spenden/)).toBeVisible();

  const record = async (text: string, amount: string) => {
    await page.getByRole("link", { name: "Spende erfassen" }).click();
    const add = page.getByRole("dialog", { name: "Spende erfassen" });
    await expect(add).toBeVisible();
    if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
    await chooseFirstPerson(add, "Spender/in");
    await add.getByLabel("Betrag").fill(amount);
    await add.getByLabel("Notiz (z. B. Verwendungszweck)").fill(text);
    await add.getByRole("button", { name: "Erfassen" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Spende über ${amount} € erfasst` })).toBeVisible();
    const row = grid.locator("tbody tr", { hasText: text });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("offen");
    return row;
  };

  const row = await record(note, "25,00");
  await fitsWidth(page);
  await noAxeViolations(page, javaScriptEnabled);
  await row.getByRole("link", { name: "Bestätigung ausstellen" }).click();
  const receipt = page.getByRole("dialog", { name: "Zuwendungsbestätigung ausstellen" });
  await expect(receipt).toBeVisible();
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await receipt.getByRole("button", { name: "Ausstellen" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Zuwendungsbestätigung ZB-\d{4}-\d{4} ausgestellt\.$/ })).toBeVisible();
  const confirmed = grid.locator("tbody tr", { hasText: note });
  await expect(confirmed).toContainText(/bestätigt \(ZB-\d{4}-\d{4}\)/);
  await expect(confirmed.getByRole("link", { name: "Bestätigung anzeigen" })).toHaveAttribute("href", /^\/donations\/receipts\/pdf\/\d+$/);
  await expect(confirmed.getByRole("link", { name: "Stornieren" })).toHaveCount(0);

  await (await record(mistake, "10,00")).getByRole("link", { name: "Stornieren" }).click();
  const cancel = page.getByRole("dialog", { name: "Spende stornieren" });
  await expect(cancel).toBeVisible();
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await cancel.getByRole("button", { name: "Stornieren" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Spende storniert: Der Betrag ist Guthaben der Person." })).toBeVisible();
  await expect(grid.locator("tbody tr", { hasText: mistake })).toContainText("storniert am");
  await fitsWidth(page);
});
