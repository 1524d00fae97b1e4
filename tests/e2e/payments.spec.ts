import { camtWith } from "../support/camt";
import { expect, test } from "./support/fixtures";
import { testDataFor } from "./support/test-data";

// Every test here starts logged in as finance (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "finance" });

/**
 * Issue 30, the payment journal: one bank credit for two invoices, spread over both ('Auf alle
 * verteilen'), is one journal entry; both invoices are paid and the rest is the person's credit,
 * as the Zahlungen screen and the person's invoices show. With and without JavaScript (each
 * project its own person and invoices, tests/e2e/test-data.setup.ts).
 */
test("a bank payment for two invoices: one journal entry, both invoices paid, the rest credit", async ({ page, javaScriptEnabled }) => {
  const { twoInvoices } = await testDataFor(javaScriptEnabled);
  const [first, second] = twoInvoices.invoiceNumbers;
  const statement = camtWith([
    { ref: `E2E-${twoInvoices.lastName}`, cents: 8_000, text: `ReNr ${first} und ReNr ${second}`, name: `Greta ${twoInvoices.lastName}` },
  ]);

  await page.goto("/bankstatements");
  await page
    .getByLabel("Kontoauszug (CAMT.053 oder MT940)")
    .setInputFiles({ name: "zwei-rechnungen.xml", mimeType: "application/xml", buffer: Buffer.from(statement) });
  await page.getByRole("button", { name: "Hochladen und abgleichen" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Kontoauszug prüfen" })).toBeVisible();

  const entry = page
    .getByRole("list", { name: "Buchungen des Kontoauszugs" })
    .getByRole("listitem")
    .filter({ hasText: `ReNr ${first} und ReNr ${second}` });
  await expect(entry.getByText("Mehrdeutig")).toBeVisible();
  const choice = entry.getByRole("combobox", { name: "Zuordnung" });
  await expect(choice.getByRole("option", { name: new RegExp(`^Auf alle verteilen: Rechnung ${first}`) })).toHaveCount(1);
  await choice.selectOption("SPLIT");
  await page.getByRole("button", { name: "Buchen" }).click();
  await expect(page.getByRole("status")).toContainText("1 Buchung gebucht (80,00 € Zahlungseingang).");
  await expect(page.getByRole("status")).toContainText("5,00 € Überzahlung als Guthaben der Person gebucht");

  // The journal: one entry of 80,00 €, 75,00 € allocated, 5,00 € credit.
  await page.goto(`/payments?search=${encodeURIComponent(twoInvoices.lastName)}`);
  const journal = page.getByRole("region", { name: /^Zahlungen/ });
  const row = journal.locator("tbody tr").filter({ hasText: `Greta ${twoInvoices.lastName}` });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("80,00 €");
  await expect(row).toContainText("75,00 €");
  await expect(row).toContainText("5,00 €");
  await expect(row).toContainText("Kontoauszug");

  // Both invoices are paid.
  await page.goto(`/people/${twoInvoices.personId}/invoiceheaders`);
  const invoices = page.getByRole("region", { name: /^Rechnungen/ }).locator("tbody tr");
  for (const number of [first, second]) {
    // By its number's cell (the payment comment of both names both numbers).
    const invoice = invoices.filter({ has: page.locator("td").getByText(String(number), { exact: true }) });
    await expect(invoice).toContainText("Bezahlt");
    await expect(invoice.locator("td").filter({ hasText: /^0,00\s€$/ })).toHaveCount(1);
  }
});
