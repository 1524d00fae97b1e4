import { expect, test } from "./support/fixtures";
import { getOnOwnConnection, waitForHydration } from "./support/journeys";

// Every test here starts logged in as finance (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "finance" });

/**
 * Invoice PDFs from the Rechnungen grid, with JavaScript and without: 'PDF erzeugen' from the
 * toolbar, and for a second invoice from the context menu (with JavaScript) or the row's command
 * button (without), through the PDF-creation confirm; afterwards the row offers only 'PDF
 * anzeigen', a link to the stored PDF in a new tab. 'PDF erneut erzeugen' is never offered (issue
 * 30: an issued invoice's PDF is the document sent). Both projects share one database: each works
 * on its own invoices.
 */

test("PDF erzeugen, once, and PDF anzeigen from the Rechnungen grid", async ({ page, javaScriptEnabled }) => {
  const [createId, secondId] = javaScriptEnabled ? [5, 3] : [6, 1];
  await page.goto(`/invoices/${createId}/invoicerows`);
  await waitForHydration(page, javaScriptEnabled);
  const invoices = page.getByRole("region", { name: /^Rechnungen/ });
  const toolbar = page.getByRole("toolbar", { name: /^Rechnungen.*Aktionen$/ });
  const selected = invoices.locator("tbody tr[aria-selected=true]");
  const number = (await selected.locator("td").nth(1).textContent())!.trim();

  // Without a PDF: create, no show, never recreate.
  await expect(toolbar.getByRole("link", { name: "PDF erzeugen", exact: true })).toBeVisible();
  await expect(toolbar.getByRole("link", { name: "PDF erneut erzeugen" })).toHaveCount(0);
  await expect(toolbar.getByRole("link", { name: "PDF anzeigen" })).toHaveCount(0);

  await toolbar.getByRole("link", { name: "PDF erzeugen", exact: true }).click();
  let dialog = page.getByRole("dialog", { name: "PDF erzeugen" });
  await expect(dialog).toContainText(`Rechnung ${number} an `);
  await dialog.getByRole("button", { name: "PDF erzeugen" }).click();
  // With JavaScript the dialog says what it is doing while Chromium renders (at least a browser start).
  if (javaScriptEnabled) await expect(dialog.getByText("Rechnung wird zum Druck vorbereitet ...")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "PDF erfolgreich erstellt" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // Now only show: a link to the stored PDF, opened in a new tab.
  const show = toolbar.getByRole("link", { name: "PDF anzeigen" });
  await expect(show).toHaveAttribute("href", `/invoices/pdf/${createId}`);
  await expect(show).toHaveAttribute("target", "_blank");
  await expect(toolbar.getByRole("link", { name: "PDF erzeugen", exact: true })).toHaveCount(0);
  const pdf = await getOnOwnConnection(page, `/invoices/pdf/${createId}`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect(pdf.headers()["content-disposition"]).toMatch(new RegExp(`^inline; filename="Rechnung_${number}_[A-Za-z-]+_\\d{4}\\.pdf"`));
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");

  // The other invoice: 'PDF erzeugen' from the context menu (with JavaScript) or the row's button.
  const row = invoices.locator(`tbody tr[data-row-id="${secondId}"]`);
  if (javaScriptEnabled) {
    await row.locator("td").nth(1).click({ button: "right" });
    await expect(page.getByRole("menuitem", { name: "PDF erneut erzeugen" })).toHaveCount(0);
    await page.getByRole("menuitem", { name: "PDF erzeugen", exact: true }).click();
  } else {
    await expect(row.getByRole("link", { name: "PDF erneut erzeugen" })).toHaveCount(0);
    await row.getByRole("link", { name: "PDF erzeugen", exact: true }).click();
  }
  dialog = page.getByRole("dialog", { name: "PDF erzeugen" });
  await dialog.getByRole("button", { name: "PDF erzeugen" }).click();
  await expect(page.getByRole("status").filter({ hasText: "PDF erfolgreich erstellt" })).toBeVisible({ timeout: 60_000 });
  await expect(row.getByRole("link", { name: "PDF anzeigen" })).toHaveAttribute("href", `/invoices/pdf/${secondId}`);
  expect((await getOnOwnConnection(page, `/invoices/pdf/${secondId}`)).headers()["content-type"]).toBe("application/pdf");
});
