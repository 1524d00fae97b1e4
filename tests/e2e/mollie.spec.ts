import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { chooseFirstPerson, onOwnConnection, uniqueText } from "./support/journeys";

/**
 * Mollie payment links in the browser, against the local Mollie fake that `npm start` runs (the
 * demo data has 'Mollie Integration' on): a link made from the Kontenblatt, shown and copied,
 * paid on the fake's checkout page, whose payment calls the app's webhook like Mollie; the test
 * calls the webhook once more, and the fee is paid once. Plus the test screen and the Tasks checks.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

/** The Mollie key `npm start` wrote into .dev.vars (the only one the fake accepts). */
const mollieKey = () => /^MOLLIE_API_KEY=(.+)$/m.exec(readFileSync(`${root}.dev.vars`, "utf8"))![1].trim();

async function headerIndex(page: Page, header: string) {
  const headers = (await page.getByRole("region", { name: "Kontenblatt" }).getByRole("columnheader").allTextContents()).map((text) =>
    text.replace(/[▲▼]/g, "").trim(),
  );
  return headers.indexOf(header);
}

test("Kontenblatt: a payment link made, shown and copied, paid at Mollie, the webhook twice, the fee paid once", async ({
  page,
  openAs,
  context,
  javaScriptEnabled,
}) => {
  // A long walk (two pages, the fake, the webhook) on a shared machine: a guard, not a speed check.
  const text = uniqueText(javaScriptEnabled, "Zahlungslink");
  await openAs("finance", "/fees");
  const grid = page.getByRole("region", { name: "Kontenblatt" });

  // A fee of our own, collected directly.
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await grid.getByRole("link", { name: "Hinzufügen" }).click();
  const add = page.getByRole("dialog", { name: "Offenen Posten hinzufügen" });
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await chooseFirstPerson(add, "Person");
  await add.getByLabel("Text").fill(text);
  await add.getByLabel("Betrag", { exact: true }).fill("12,50");
  await add.getByLabel("Per Rechnung").uncheck();
  await add.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status")).toHaveText("Offener Posten wurde angelegt");
  const row = grid.locator("tbody tr", { hasText: text });
  await expect(row).toHaveAttribute("aria-selected", "true");

  // The row action opens 'Zahlungslink erzeugen'; the link is made and shown.
  await grid.getByRole("link", { name: "Zahlungslink erzeugen" }).click();
  const dialog = page.getByRole("dialog", { name: "Zahlungslink erzeugen" });
  await expect(dialog).toContainText(text);
  await expect(dialog).toContainText("12,50 €");
  await dialog.getByRole("button", { name: "Zahlungslink erzeugen" }).click();
  await expect(dialog.getByText("Zahlungslink wurde erzeugt.")).toBeVisible();
  const field = dialog.getByRole("textbox", { name: "Zahlungslink" });
  await expect(field).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/payment\/[A-Za-z0-9]+$/);
  const url = await field.inputValue();
  if (javaScriptEnabled) {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await dialog.getByRole("button", { name: /^Zahlungslink kopieren/ }).click();
    await expect(dialog.getByRole("button", { name: /^Zahlungslink kopieren/ })).toHaveText("Kopiert");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  } else {
    // Without JavaScript there is no dead copy button: the address is there to select.
    await expect(dialog.getByRole("button", { name: /kopieren/ })).toHaveCount(0);
  }
  await dialog.getByRole("link", { name: "Schließen" }).click();
  await expect(dialog).toHaveCount(0);
  const linkCell = row.locator("td").nth(await headerIndex(page, "Zahlungslink"));
  await expect(linkCell.getByRole("link")).toHaveAttribute("href", url);

  // The customer pays on Mollie's page (the fake's checkout); the fake then calls the webhook.
  const checkout = await context.newPage();
  await checkout.goto(url);
  await checkout.getByRole("button", { name: "12,50 € bezahlen (Test)" }).click();
  await expect(checkout.getByText(/^Bezahlt am/)).toBeVisible();
  await checkout.close();

  // Mollie calls again (it may, any number of times): the same webhook, the same payment.
  const apiUrl = new URL(url).origin;
  const linkId = `pl_${url.split("/").at(-1)}`;
  const payments = (await (
    await onOwnConnection(undefined, (context) =>
      context.get(`${apiUrl}/v2/payment-links/${linkId}/payments`, { headers: { Authorization: `Bearer ${mollieKey()}` } }),
    )
  ).json()) as {
    _embedded: { payments: { id: string; status: string; webhookUrl: string }[] };
  };
  const [payment] = payments._embedded.payments;
  expect(payment.status).toBe("paid");
  const again = await onOwnConnection(undefined, (context) => context.post(payment.webhookUrl, { form: { id: payment.id } }));
  expect(again.status()).toBe(200);

  await page.reload();
  await expect(row.locator("td").nth(await headerIndex(page, "Offener Betrag"))).toHaveText("0,00 €");
  const comments = await row
    .locator("td")
    .nth(await headerIndex(page, "Buchungskommentar"))
    .textContent();
  expect(comments?.match(/Mollie tr_/g)).toHaveLength(1);
  expect(comments).toContain(payment.id);
  await expect(row.locator("td").nth(await headerIndex(page, "Zahlungsreferenz"))).toHaveText(payment.id);
  // Paid: the link is gone from the row, and the dialog says why there is none.
  await expect(linkCell.getByRole("link")).toHaveCount(0);
  await grid.getByRole("link", { name: "Zahlungslink erzeugen" }).click();
  await expect(page.getByRole("dialog", { name: "Zahlungslink erzeugen" })).toContainText("The fee has already been paid");
});

test("Test: every part of the installation with its state, for ADMIN", async ({ page, openAs }) => {
  await openAs("admin", "/test");
  await expect(page.getByRole("heading", { level: 1, name: "Test" })).toBeVisible();
  const results = page.getByRole("list", { name: "Prüfergebnisse" });
  for (const part of ["Datenbank (D1)", "Speicher für Rechnungs-PDFs (R2)", "Warteschlange für Sammelaufgaben (Queue)", "Zahlungsanbieter (Mollie)"]) {
    await expect(results.getByLabel(`Zustand ${part}: ok`)).toBeVisible();
  }
  await expect(results.getByRole("heading", { name: "PDF-Erzeugung (Browser Rendering)" })).toBeVisible();
  await expect(results.getByRole("heading", { name: "Mailversand (SMTP)" })).toBeVisible();
  await expect(results.getByText("Was tun:").first()).toBeVisible();
  await page.getByRole("link", { name: "Erneut prüfen" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Test" })).toBeVisible();
});

test("Tasks: 'Server testen' and 'Zahlungsanbieter testen' show their results", async ({ page, openAs, javaScriptEnabled }) => {
  await openAs("admin", "/tasks");
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  const card = page.getByRole("region", { name: "Prüfungen" });
  await card.getByRole("button", { name: "Server testen" }).click();
  await expect(toast(page, "Wuff läuft: Datenbank, Speicher und Warteschlange arbeiten.")).toBeVisible();
  await expect(page).toHaveURL(/\/tasks$/);
  await card.getByRole("button", { name: "Zahlungsanbieter testen" }).click();
  await expect(toast(page, /Test-Zahlungslink über 1,00 € erzeugt: http:\/\/127\.0\.0\.1:\d+\/payment\//)).toBeVisible();
});
