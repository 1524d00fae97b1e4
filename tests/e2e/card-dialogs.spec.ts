import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { berlinDaysAgo, toast, waitForHydration } from "./support/journeys";
import { testDataFor } from "./support/test-data";

/**
 * Issue 34 at the desk, on a person's tab Karten & Abos: a tick 'ohne Karte' settled by the sale its
 * dialog links to, an Abo's notice, and a 10er-Karte's unused units refunded by a credit note. The
 * people, the open group and the products are test data (cardDesk in tests/e2e/test-data.setup.ts).
 */

// Selling, notices and refunds are for ADMIN and FINANCE.
test.use({ loggedInAs: "admin" });

/** Today in Berlin as the screens write it. */
const today = () => berlinDaysAgo(0).split("-").reverse().join(".");

const cardsTab = (page: Page, personName: string) => page.getByRole("region", { name: `Karten & Abos von ${personName}` });

/** The product chosen in the open 'Karte verkaufen' (by its name: the option says kind and price too). */
async function chooseProduct(page: Page, productName: string) {
  const product = page.getByRole("dialog", { name: "Karte verkaufen" }).getByLabel("Karte oder Abo");
  await product.selectOption((await product.locator("option", { hasText: productName }).getAttribute("value"))!);
}

test("Teilnahme ohne Karte: 'Karte verkaufen …' opens the sale in the dialog's place, and the sale settles the tick", async ({ page, javaScriptEnabled }) => {
  const { walkIn, productName } = (await testDataFor(javaScriptEnabled)).cardDesk;
  const settleUrl = `/people/${walkIn.personId}/cards?dialog=attendanceSettlement-settle&dialogId=${walkIn.attendanceId}`;
  await page.goto(settleUrl);
  const settle = page.getByRole("dialog", { name: "Teilnahme ohne Karte erledigen" });
  await expect(settle).toContainText(`${walkIn.personName}: `);
  await waitForHydration(page, javaScriptEnabled);
  // Pressed while the first field has the focus (the single visit's price, empty here): leaving it
  // shows no error and moves nothing, the link opens the sale.
  await settle.getByRole("link", { name: "Karte verkaufen …" }).click();

  const sale = page.getByRole("dialog", { name: "Karte verkaufen" });
  await expect(sale).toContainText(walkIn.personName);
  await expect(settle).toHaveCount(0);
  await expect(page.getByText("Bitte den Preis der Einzelstunde eingeben")).toHaveCount(0);
  await waitForHydration(page, javaScriptEnabled);
  await chooseProduct(page, productName);
  await sale.getByLabel("Gültig ab").fill(walkIn.day);
  await sale.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText(`${productName} verkauft. Ein Termin ohne Karte ist damit verrechnet.`);
  const row = cardsTab(page, walkIn.personName).locator("tbody tr", { hasText: productName });
  await expect(row).toContainText("9 von 10");

  // The tick is settled: its dialog says so and offers nothing more.
  await page.goto(settleUrl);
  await expect(settle.getByRole("alert")).toHaveText("Diese Teilnahme ist schon mit einer Karte verrechnet.");
  await expect(settle.getByRole("button", { name: "Einzelstunde berechnen" })).toBeDisabled();
});

test("Abo: 'Kündigung eintragen …' sets the end the terms give, shown in the row; a second notice is refused", async ({ page, javaScriptEnabled }) => {
  const { subscriber, aboName } = (await testDataFor(javaScriptEnabled)).cardDesk;
  await page.goto(`/people/${subscriber.personId}/cards`);
  const tab = cardsTab(page, subscriber.personName);
  await waitForHydration(page, javaScriptEnabled);
  await tab.getByRole("link", { name: "Hinzufügen" }).click();
  // Sold today (the dialog's default day).
  const sale = page.getByRole("dialog", { name: "Karte verkaufen" });
  await expect(sale.getByLabel("Gültig ab")).toHaveValue(today());
  await waitForHydration(page, javaScriptEnabled);
  await chooseProduct(page, aboName);
  await sale.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText(`${aboName} verkauft.`);
  const row = tab.locator("tbody tr", { hasText: aboName });
  await expect(row).toContainText("gültig");

  const record = row.getByRole("link", { name: "Kündigung eintragen …" });
  const noticeUrl = new URL((await record.getAttribute("href"))!, page.url()).toString();
  await waitForHydration(page, javaScriptEnabled);
  await record.click();
  const notice = page.getByRole("dialog", { name: `Kündigung: ${aboName}` });
  // The notice a month ahead ends before the minimum term: the Abo ends with the minimum term.
  const terms = notice.getByText(
    /^.+, Abo seit \d{2}\.\d{2}\.\d{4}: Mindestlaufzeit 3 Monate \(bis \d{2}\.\d{2}\.\d{4}\), Kündigungsfrist 1 Monat ab Eingang\./,
  );
  await expect(terms).toContainText(`${subscriber.personName}, Abo seit ${today()}`);
  const end = /\(bis (\d{2}\.\d{2}\.\d{4})\)/.exec((await terms.textContent())!)![1];
  await waitForHydration(page, javaScriptEnabled);
  await notice.getByLabel("Kündigung eingegangen am").fill(today());
  await notice.getByRole("button", { name: "Kündigung eintragen" }).click();
  await expect(toast(page)).toHaveText(`Kündigung eingetragen: Das Abo endet am ${end}.`);
  await expect(row.getByRole("cell", { name: end, exact: true })).toBeVisible();
  await expect(row).toContainText(`gekündigt zum ${end}`);
  await expect(row.getByRole("link", { name: "Kündigung eintragen …" })).toHaveCount(0);

  // Its address again (the browser's history, a second tab): refused, and why.
  await page.goto(noticeUrl);
  await expect(notice.getByRole("alert")).toHaveText(`Die Kündigung ist schon eingetragen: eingegangen am ${today()}, Ende am ${end}.`);
  await expect(notice.getByRole("button", { name: "Kündigung eintragen" })).toBeDisabled();
});

test("10er-Karte on an issued invoice: 'Restguthaben erstatten …' proposes the unused units' share and issues the Gutschrift", async ({
  page,
  javaScriptEnabled,
}) => {
  const { refund, productName } = (await testDataFor(javaScriptEnabled)).cardDesk;
  await page.goto(`/people/${refund.personId}/cards`);
  const row = cardsTab(page, refund.personName).locator("tbody tr", { hasText: productName });
  await expect(row).toContainText("7 von 10");
  await waitForHydration(page, javaScriptEnabled);
  await row.getByRole("link", { name: "Restguthaben erstatten …" }).click();

  // 50,00 € for 10 units, 3 used: 35,00 € back.
  const dialog = page.getByRole("dialog", { name: `Restguthaben erstatten: ${productName}` });
  await expect(dialog).toContainText(
    `${refund.personName}: noch 7 Einheiten von 10 übrig. Erstattet werden 35,00 € per Gutschrift zu Rechnung ${refund.invoiceNumber}; danach ist die Karte aufgebraucht.`,
  );
  await waitForHydration(page, javaScriptEnabled);
  await dialog.getByRole("button", { name: "Gutschrift ausstellen" }).click();
  await expect(toast(page)).toHaveText(/^7 Einheiten erstattet: Gutschrift \d+ über 35,00\s€\.$/);
  await expect(row).toContainText("erstattet");
  await expect(row.getByRole("link", { name: "Restguthaben erstatten …" })).toHaveCount(0);

  // The credit note is on the person's invoices, for the card's invoice.
  const creditNote = /Gutschrift (\d+)/.exec((await toast(page).textContent())!)![1];
  await page.goto(`/people/${refund.personId}/invoiceheaders`);
  const creditNoteRow = page.getByRole("row").filter({ has: page.getByRole("cell", { name: creditNote, exact: true }) });
  await expect(creditNoteRow).toContainText("35,00");
});
