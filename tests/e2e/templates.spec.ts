import { expect, test } from "./support/fixtures";
import { getOnOwnConnection, waitForHydration } from "./support/journeys";

// Every test here starts logged in as admin (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "admin" });

/**
 * Vorlagen, reached from Einstellungen: a mail template added and deleted again, with JavaScript
 * and without; the invoice template offers its preview with sample data. Each project works on a
 * template of its own (both share one database).
 */

test("Vorlagen: from Einstellungen, a template added and deleted, the invoice template's preview", async ({ page, javaScriptEnabled }) => {
  const name = `e2e-${javaScriptEnabled ? "js" : "html"}-${Date.now()}`;
  await page.goto("/configuration");
  await expect(page.getByRole("group", { name: "Verein auf Rechnungen" })).toBeVisible();
  await page.getByRole("link", { name: "Vorlagen" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Vorlagen/ })).toBeVisible();
  await waitForHydration(page, javaScriptEnabled);
  const grid = page.getByRole("region", { name: /^Vorlagen/ });
  const invoiceRow = grid.locator("tbody tr").filter({ hasText: "invoice" }).first();
  await expect(invoiceRow).toContainText("Rechnung (PDF)");

  const toolbar = page.getByRole("toolbar", { name: /^Vorlagen.*Aktionen$/ });
  await toolbar.getByRole("link", { name: "Hinzufügen" }).click();
  let dialog = page.getByRole("dialog", { name: "Vorlage hinzufügen" });
  await waitForHydration(page, javaScriptEnabled);
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByLabel("Art").selectOption("MAIL");
  await dialog.getByLabel("Betreff (Mail)").fill("Hallo {{firstName}}");
  await dialog.getByLabel("HTML", { exact: true }).fill("<p>Hallo {{firstName}}</p>");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Vorlage wurde angelegt" })).toBeVisible();
  const row = grid.locator("tbody tr[aria-selected=true]");
  await expect(row).toContainText(name);
  await expect(row).toContainText("Mail");

  await page.goto(page.url());
  await waitForHydration(page, javaScriptEnabled);
  await toolbar.getByRole("link", { name: "Löschen" }).click();
  dialog = page.getByRole("dialog", { name: `Vorlage ${name} löschen` });
  await dialog.getByRole("button", { name: "Löschen" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Vorlage wurde gelöscht" })).toBeVisible();
  await expect(grid.locator("tbody tr").filter({ hasText: name })).toHaveCount(0);

  // The invoice template's preview: the sample invoice as HTML.
  const id = await invoiceRow.getAttribute("data-row-id");
  const preview = await getOnOwnConnection(page, `/templates/preview/${id}`);
  expect(preview.status()).toBe(200);
  expect(await preview.text()).toContain("Erika Mustermann");
});
