import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { getOnOwnConnection, toast, waitForHydration } from "./support/journeys";
import { testDataFor } from "./support/test-data";

// Every test here starts logged in as finance (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "finance" });

// The Rechnungen grid's cells: Datum, Rechnungsnr., Status, Person, Betrag, Offen.
const CELL = { number: 1, state: 2, amount: 4, open: 5 } as const;

/** The page again without a toast (without JavaScript a toast stays and covers the toolbar's end). */
async function withoutToast(page: Page, javaScriptEnabled: boolean) {
  await page.goto(page.url());
  await waitForHydration(page, javaScriptEnabled);
}

const invoiceToolbar = (page: Page) => page.getByRole("toolbar", { name: /^Rechnungen.*Aktionen$/ });
const rowsToolbar = (page: Page) => page.getByRole("toolbar", { name: /^Rechungszeilen.*Aktionen$/ });

test("a draft: its due date changed, a row added, edited and deleted with the amount following; issued, it is frozen and says why; a Stornorechnung corrects it", async ({
  page,
  javaScriptEnabled,
}) => {
  // Both projects share one database: each works on its own draft (tests/e2e/test-data.setup.ts).
  const { draftToIssue: draft } = await testDataFor(javaScriptEnabled);
  await page.goto(`/invoices/${draft.invoiceId}/invoicerows`);
  await waitForHydration(page, javaScriptEnabled);
  const invoiceRow = page.getByRole("region", { name: /^Rechnungen/ }).locator("tbody tr[aria-selected=true]");
  await expect(invoiceRow.locator("td").nth(CELL.state)).toHaveText("Entwurf");
  await expect(invoiceRow.locator("td").nth(CELL.number)).toHaveText("");
  await expect(invoiceRow.locator("td").nth(CELL.amount)).toHaveText("55,00 €");
  const rows = page.getByRole("region", { name: new RegExp(`^Rechungszeilen für Rechnung Entwurf an Greta ${draft.lastName}`) });
  await expect(rows).toBeVisible();

  // A draft's dates can be changed; nothing is open on it yet.
  await invoiceToolbar(page).getByRole("link", { name: "Bearbeiten" }).click();
  let dialog = page.getByRole("dialog", { name: "Rechnungsentwurf bearbeiten" });
  await expect(dialog.getByRole("checkbox", { name: "Ist Offen" })).toHaveCount(0);
  await dialog.getByLabel("Fällig am").fill("18.12.2026");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Rechnung wurde gespeichert");

  // A row added from the draft ('Zeile hinzufügen'): the amount follows.
  await withoutToast(page, javaScriptEnabled);
  await invoiceToolbar(page).getByRole("link", { name: "Zeile hinzufügen" }).click();
  dialog = page.getByRole("dialog", { name: "Neue Rechnungszeile anlegen" });
  await dialog.getByLabel("Buchungstext").fill("Nachberechnung Leine");
  await dialog.getByLabel("Betrag").fill("12,50");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Rechnungszeile wurde angelegt");
  await expect(rows.locator("tbody tr", { hasText: "Nachberechnung" })).toHaveAttribute("aria-selected", "true");
  await expect(invoiceRow.locator("td").nth(CELL.amount)).toHaveText("67,50 €");

  // Edited into a discount, then deleted: the amount follows each time.
  await rowsToolbar(page).getByRole("link", { name: "Bearbeiten" }).click();
  dialog = page.getByRole("dialog", { name: "Rechnungszeile 'Nachberechnung Leine' bearbeiten" });
  await dialog.getByLabel("Buchungstext").fill("Rabatt");
  await dialog.getByLabel("Betrag").fill("-5,00");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Rechnungszeile wurde gespeichert");
  await expect(invoiceRow.locator("td").nth(CELL.amount)).toHaveText("50,00 €");
  await rowsToolbar(page).getByRole("link", { name: "Löschen" }).click();
  await page.getByRole("dialog", { name: "Rechnungszeile 'Rabatt' löschen" }).getByRole("button", { name: "Löschen" }).click();
  await expect(toast(page)).toContainText("Rechnungszeile wurde gelöscht");
  await expect(invoiceRow.locator("td").nth(CELL.amount)).toHaveText("55,00 €");

  // Ausstellen: the number, today's date, and the whole amount open.
  await withoutToast(page, javaScriptEnabled);
  await invoiceToolbar(page).getByRole("link", { name: "Ausstellen" }).click();
  dialog = page.getByRole("dialog", { name: `Rechnung an Greta ${draft.lastName} ausstellen` });
  await expect(dialog).toContainText("nur storniert");
  await expect(dialog).toContainText("2 Zeilen, zusammen 55,00 €");
  await dialog.getByRole("button", { name: "Ausstellen" }).click();
  await expect(toast(page)).toHaveText(/^Rechnung \d+ wurde ausgestellt$/);
  const number = /Rechnung (\d+)/.exec((await toast(page).textContent()) ?? "")![1];
  await expect(invoiceRow.locator("td").nth(CELL.number)).toHaveText(number);
  await expect(invoiceRow.locator("td").nth(CELL.state)).toHaveText("Ausgestellt");
  await expect(invoiceRow.locator("td").nth(CELL.open)).toHaveText("55,00 €");

  // Issued, it is frozen: the dialog says why, its dates are shown, not editable; the payment is.
  await withoutToast(page, javaScriptEnabled);
  await expect(invoiceToolbar(page).getByRole("link", { name: "Ausstellen" })).toHaveCount(0);
  await expect(invoiceToolbar(page).getByRole("link", { name: "Zeile hinzufügen" })).toHaveCount(0);
  await invoiceToolbar(page).getByRole("link", { name: "Bearbeiten" }).click();
  dialog = page.getByRole("dialog", { name: `Rechnung ${number} bearbeiten` });
  await expect(dialog).toContainText("Datum, Fälligkeit, Empfänger und Zeilen sind festgeschrieben");
  await expect(dialog.getByRole("textbox", { name: "Datum" })).toHaveCount(0);
  await expect(dialog.getByRole("textbox", { name: "Fällig am" })).toHaveCount(0);
  await expect(dialog.getByRole("checkbox", { name: "Ist Offen" })).toBeChecked();
  await expect(dialog.getByLabel(/^Offener Betrag/)).toBeVisible();
  await dialog.getByRole("link", { name: "Abbruch" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // Its rows: the dialog says why Speichern stays disabled.
  const issuedRows = page.getByRole("region", { name: new RegExp(`^Rechungszeilen für Rechnung ${number} an Greta ${draft.lastName}`) });
  const rowId = await issuedRows.locator("tbody tr").first().getAttribute("data-row-id");
  await page.goto(`/invoices/${draft.invoiceId}/invoicerows?dialog=invoiceRow-edit&dialogId=${rowId}`);
  await waitForHydration(page, javaScriptEnabled);
  dialog = page.getByRole("dialog", { name: /^Rechnungszeile 'Einzelstunde / });
  await expect(dialog.getByRole("button", { name: "Speichern" })).toBeDisabled();
  await expect(dialog).toContainText("Die Rechnung ist ausgestellt");

  // Nor is it deleted: the confirmation says why, its button disabled.
  await page.goto(`/invoices/${draft.invoiceId}/invoicerows`);
  await waitForHydration(page, javaScriptEnabled);
  await invoiceToolbar(page).getByRole("link", { name: "Löschen" }).click();
  dialog = page.getByRole("dialog", { name: `Rechnung ${number} löschen` });
  await expect(dialog).toContainText("Ausgestellte Rechnungen werden nicht gelöscht.");
  await expect(dialog.getByRole("button", { name: "Löschen" })).toBeDisabled();

  // It is corrected by a Stornorechnung: the next number, naming it; both get their PDF.
  await page.goto(`/invoices/${draft.invoiceId}/invoicerows`);
  await waitForHydration(page, javaScriptEnabled);
  await invoiceToolbar(page).getByRole("link", { name: "Stornieren" }).click();
  dialog = page.getByRole("dialog", { name: `Rechnung ${number} stornieren` });
  await expect(dialog).toContainText("Ihre offenen Posten werden wieder offen und abrechenbar.");
  await dialog.getByRole("button", { name: "Stornieren" }).click();
  await expect(toast(page)).toHaveText(/^Stornorechnung \d+ wurde ausgestellt$/);
  const stornoNumber = /Stornorechnung (\d+)/.exec((await toast(page).textContent()) ?? "")![1];
  await expect(invoiceRow.locator("td").nth(CELL.state)).toHaveText("Storniert");
  await expect(invoiceRow.locator("td").nth(CELL.open)).toHaveText("0,00 €");
  const stornoRow = page.getByRole("region", { name: /^Rechnungen/ }).locator("tbody tr", { hasText: stornoNumber });
  await expect(stornoRow.locator("td").nth(CELL.state)).toHaveText("Stornorechnung");
  await expect(stornoRow.locator("td").nth(CELL.amount)).toHaveText("-55,00 €");
  const stornoId = await stornoRow.getAttribute("data-row-id");
  for (const id of [draft.invoiceId, Number(stornoId)]) {
    await page.goto(`/invoices/${id}/invoicerows?dialog=invoicePdf-create&dialogId=${id}`);
    await waitForHydration(page, javaScriptEnabled);
    await page.getByRole("dialog", { name: "PDF erzeugen" }).getByRole("button", { name: "PDF erzeugen" }).click();
    await expect(page.getByRole("status").filter({ hasText: "PDF erfolgreich erstellt" })).toBeVisible({ timeout: 60_000 });
    const pdf = await getOnOwnConnection(page, `/invoices/pdf/${id}`);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
  }
});

test("a Gutschrift for part of an issued invoice: its own next number, naming the invoice, and the invoice's open amount lowered", async ({
  page,
  javaScriptEnabled,
}) => {
  const { invoiceToCredit: invoice } = await testDataFor(javaScriptEnabled);
  await page.goto(`/invoices/${invoice.invoiceId}/invoicerows`);
  await waitForHydration(page, javaScriptEnabled);
  const invoiceRow = page.getByRole("region", { name: /^Rechnungen/ }).locator("tbody tr[aria-selected=true]");
  await expect(invoiceRow.locator("td").nth(CELL.open)).toHaveText("30,00 €");
  await invoiceToolbar(page).getByRole("link", { name: "Gutschrift", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Gutschrift zu Rechnung ${invoice.invoiceNumber}` });
  await expect(dialog.getByLabel("Umsatzsteuer")).toContainText("nicht steuerbar: noch 30,00 € von 30,00 €");
  await expect(dialog.getByLabel("Buchungstext")).toHaveValue(`Gutschrift zu Rechnung ${invoice.invoiceNumber}`);
  // More than the invoice's rows: refused in German, the dialog stays with what was typed.
  await dialog.getByLabel("Betrag (brutto)").fill("30,01");
  await dialog.getByRole("button", { name: "Gutschrift ausstellen" }).click();
  await expect(dialog).toContainText("Gutgeschrieben werden höchstens 30,00 €");
  await dialog.getByLabel("Betrag (brutto)").fill("10,00");
  await dialog.getByRole("button", { name: "Gutschrift ausstellen" }).click();
  await expect(toast(page)).toHaveText(/^Gutschrift \d+ über 10,00\s€ wurde ausgestellt$/);
  const creditNumber = /Gutschrift (\d+)/.exec((await toast(page).textContent()) ?? "")![1];
  await expect(invoiceRow.locator("td").nth(CELL.open)).toHaveText("20,00 €");
  await expect(invoiceRow.locator("td").nth(CELL.state)).toHaveText("Teilweise bezahlt");
  const creditRow = page.getByRole("region", { name: /^Rechnungen/ }).locator("tbody tr", { hasText: creditNumber });
  await expect(creditRow.locator("td").nth(CELL.state)).toHaveText("Gutschrift");
  await expect(creditRow.locator("td").nth(CELL.amount)).toHaveText("-10,00 €");
});

test("a draft deleted into the Papierkorb, its fees billable again, and brought back with 'Rückgängig'", async ({ page, javaScriptEnabled }) => {
  const { draftToDelete: draft } = await testDataFor(javaScriptEnabled);
  await page.goto(`/invoices/${draft.invoiceId}/invoicerows?status=draft`);
  await waitForHydration(page, javaScriptEnabled);
  const listed = page.getByRole("region", { name: /^Rechnungen/ }).locator(`tbody tr[data-row-id="${draft.invoiceId}"]`);
  await expect(listed).toBeVisible();
  await invoiceToolbar(page).getByRole("link", { name: "Löschen" }).click();
  const confirm = page.getByRole("dialog", { name: "Rechnungsentwurf löschen" });
  await expect(confirm).toContainText("Bist du sicher?");
  await expect(confirm).toContainText("Ihre 2 offenen Posten werden wieder abrechenbar.");
  await confirm.getByRole("button", { name: "Löschen" }).click();
  await expect(toast(page)).toContainText("Rechnung wurde gelöscht");
  await expect(listed).toHaveCount(0);
  await page.getByRole("button", { name: "Rückgängig" }).click();
  await expect(toast(page)).toContainText("Rückgängig gemacht: Rechnung Entwurf/");
  await expect(listed).toBeVisible();
  await expect(listed.locator("td").nth(CELL.state)).toHaveText("Entwurf");
});
