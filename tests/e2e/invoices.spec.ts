import { expect, test } from "./support/fixtures";
import { toast, waitForHydration } from "./support/journeys";

// Every test here starts logged in as finance (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "finance" });

test("Rechnungen as finance: Ist Offen off and on, a row added, edited and deleted with the amount following, the invoice deleted and brought back", async ({
  page,
  javaScriptEnabled,
}) => {
  // A toast stays without JavaScript (its close button needs it) and covers the toolbar's right
  // end: the page loaded again shows none.
  const withoutToast = async () => {
    await page.goto(page.url());
    await waitForHydration(page, javaScriptEnabled);
  };
  // Both projects share one database: each works on its own demo invoice (both open, with rows).
  const invoiceId = javaScriptEnabled ? 2 : 4;
  await page.goto(`/invoices/${invoiceId}/invoicerows`);
  const invoices = page.getByRole("region", { name: /^Rechnungen/ });
  const invoiceRow = invoices.locator("tbody tr[aria-selected=true]");
  await expect(invoiceRow).toHaveCount(1);
  const number = (await invoiceRow.locator("td").nth(1).textContent())!.trim();
  expect(number).toMatch(/^\d+$/);
  const rows = page.getByRole("region", { name: new RegExp(`^Rechungszeilen für Rechnung ${number} an `) });
  await expect(rows).toBeVisible();

  // Ist Offen off: nothing open.
  await waitForHydration(page, javaScriptEnabled);
  await page
    .getByRole("toolbar", { name: /^Rechnungen.*Aktionen$/ })
    .getByRole("link", { name: "Bearbeiten" })
    .click();
  let dialog = page.getByRole("dialog", { name: `Rechnung ${number} bearbeiten` });
  await expect(dialog.getByRole("checkbox", { name: "Ist Offen" })).toBeChecked();
  const amount = (await dialog.getByText(/€$/).first().textContent())!.trim();
  await dialog.getByRole("checkbox", { name: "Ist Offen" }).uncheck();
  if (javaScriptEnabled) await expect(dialog.getByLabel(/^Offener Betrag/)).toHaveCount(0);
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Rechnung wurde gespeichert");
  await expect(invoiceRow.locator("td").nth(4)).toHaveText("0,00 €");

  // Ist Offen on again: the open amount can be typed.
  await withoutToast();
  await page
    .getByRole("toolbar", { name: /^Rechnungen.*Aktionen$/ })
    .getByRole("link", { name: "Bearbeiten" })
    .click();
  dialog = page.getByRole("dialog", { name: `Rechnung ${number} bearbeiten` });
  await waitForHydration(page, javaScriptEnabled);
  await expect(dialog.getByRole("checkbox", { name: "Ist Offen" })).not.toBeChecked();
  if (javaScriptEnabled) await expect(dialog.getByLabel(/^Offener Betrag/)).toHaveCount(0);
  await dialog.getByRole("checkbox", { name: "Ist Offen" }).check();
  await expect(dialog.getByLabel(/^Offener Betrag/)).toBeVisible();
  await dialog.getByLabel(/^Offener Betrag/).fill("10,00");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Rechnung wurde gespeichert");
  await expect(invoiceRow.locator("td").nth(4)).toHaveText("10,00 €");
  await expect(invoiceRow.locator("td").nth(3)).toHaveText(amount);

  // A row: added from the invoice ('Zeile hinzufügen'), the amount follows.
  await withoutToast();
  const cents = (text: string) => Number(text.replace(/[^\d,-]/g, "").replace(",", ""));
  const euro = (value: number) => new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" }).format(value / 100);
  await page
    .getByRole("toolbar", { name: /^Rechnungen.*Aktionen$/ })
    .getByRole("link", { name: "Zeile hinzufügen" })
    .click();
  dialog = page.getByRole("dialog", { name: "Neue Rechnungszeile anlegen" });
  await dialog.getByLabel("Buchungstext").fill(`Nachberechnung ${javaScriptEnabled ? "Js" : "Html"}`);
  await dialog.getByLabel("Betrag").fill("25,50");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Rechnungszeile wurde angelegt");
  const added = rows.locator("tbody tr", { hasText: "Nachberechnung" });
  await expect(added).toHaveAttribute("aria-selected", "true");
  await expect(invoiceRow.locator("td").nth(3)).toHaveText(euro(cents(amount) + 2_550));
  await expect(invoiceRow.locator("td").nth(4)).toHaveText("35,50 €");

  // Edited into a discount.
  await page
    .getByRole("toolbar", { name: /^Rechungszeilen.*Aktionen$/ })
    .getByRole("link", { name: "Bearbeiten" })
    .click();
  dialog = page.getByRole("dialog", { name: /^Rechnungszeile 'Nachberechnung \w+' bearbeiten$/ });
  await dialog.getByLabel("Buchungstext").fill(`Rabatt ${javaScriptEnabled ? "Js" : "Html"}`);
  await dialog.getByLabel("Betrag").fill("-5,00");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Rechnungszeile wurde gespeichert");
  await expect(rows.locator("tbody tr", { hasText: "Rabatt" })).toContainText("-5,00 €");
  await expect(invoiceRow.locator("td").nth(3)).toHaveText(euro(cents(amount) - 500));
  await expect(invoiceRow.locator("td").nth(4)).toHaveText("5,00 €");

  // Deleted: the amount is back.
  await page
    .getByRole("toolbar", { name: /^Rechungszeilen.*Aktionen$/ })
    .getByRole("link", { name: "Löschen" })
    .click();
  const confirmRow = page.getByRole("dialog", { name: /^Rechnungszeile 'Rabatt \w+' löschen$/ });
  await confirmRow.getByRole("button", { name: "Löschen" }).click();
  await expect(toast(page)).toContainText("Rechnungszeile wurde gelöscht");
  await expect(rows.locator("tbody tr", { hasText: "Rabatt" })).toHaveCount(0);
  await expect(invoiceRow.locator("td").nth(3)).toHaveText(amount);
  await expect(invoiceRow.locator("td").nth(4)).toHaveText("10,00 €");

  // The invoice deleted, and brought back with 'Rückgängig'.
  await withoutToast();
  const listed = invoices.locator("tbody tr", { hasText: number });
  await page
    .getByRole("toolbar", { name: /^Rechnungen.*Aktionen$/ })
    .getByRole("link", { name: "Löschen" })
    .click();
  const confirm = page.getByRole("dialog", { name: `Rechnung ${number} löschen` });
  await expect(confirm).toContainText("Bist du sicher?");
  await expect(confirm).toContainText("wieder abrechenbar");
  await confirm.getByRole("button", { name: "Löschen" }).click();
  await expect(toast(page)).toContainText("Rechnung wurde gelöscht");
  await expect(listed).toHaveCount(0);
  await page.getByRole("button", { name: "Rückgängig" }).click();
  await expect(toast(page)).toContainText(`Rückgängig gemacht: Rechnung ${number}/`);
  await expect(listed).toBeVisible();
  await expect(listed.locator("td").nth(4)).toHaveText("10,00 €");
});
