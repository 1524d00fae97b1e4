import { expect, test } from "./support/fixtures";
import { toast, waitForHydration } from "./support/journeys";
import { testDataFor } from "./support/test-data";
import { fitsWidth } from "./support/portal";

// Selling is for ADMIN and FINANCE; the Kursblatt for everyone.
test.use({ loggedInAs: "admin" });

const PHONE = { width: 390, height: 844 };
const DESK = { width: 1280, height: 720 };

const unitsLeft = (units: number) =>
  units === 0 ? "Ohne gültige Karte (wird trotzdem gezählt)" : `Karte: ${units === 1 ? "1 Einheit" : `${units} Einheiten`} übrig`;

/**
 * Issue 34 from the desk to the training field and back: a 10er-Karte sold on the person's tab,
 * used up by ten ticks on the phone's Kursblatt (the readout counting down), an eleventh tick
 * counted 'ohne Karte' on the home page, and settled by selling the next card (9 left on it).
 * The open group, its dates and the product are test data (tests/e2e/test-data.setup.ts).
 */
test("10er-Karte: sold, used up on the phone's Kursblatt, a tick 'ohne Karte' settled by the next card", async ({ page, javaScriptEnabled }) => {
  test.slow();
  const customer = (await testDataFor(javaScriptEnabled)).cardCustomer;
  const { dates } = customer;
  const tab = page.getByRole("region", { name: `Karten & Abos von ${customer.personName}` });
  const cardRow = (validFrom: string) => tab.locator("tbody tr", { hasText: validFrom });

  /** 'Karte verkaufen' on the person's tab, valid from `validFrom`; `settled`: the toast's second sentence. */
  async function sell(validFrom: string, settled = "") {
    await tab.getByRole("link", { name: "Hinzufügen" }).click();
    await fillSale(validFrom, settled);
  }

  /** The open dialog 'Karte verkaufen' filled in and saved. */
  async function fillSale(validFrom: string, settled = "") {
    const dialog = page.getByRole("dialog", { name: "Karte verkaufen" });
    await waitForHydration(page, javaScriptEnabled);
    const product = dialog.getByLabel("Karte oder Abo");
    await product.selectOption((await product.locator("option", { hasText: customer.productName }).getAttribute("value"))!);
    await dialog.getByLabel("Gültig ab").fill(validFrom);
    await dialog.getByRole("button", { name: "Speichern" }).click();
    await expect(toast(page)).toHaveText(`${customer.productName} verkauft.${settled}`);
  }

  // Sold at the desk, valid from the group's first date.
  await page.goto(`/people/${customer.personId}/cards`);
  await sell(dates[0].day);
  await expect(cardRow(dates[0].day)).toContainText("10 von 10");
  await fitsWidth(page);

  // On the phone, ticked on ten dates: each tick takes a unit, the readout shows what is left.
  await page.setViewportSize(PHONE);
  const participant = page.getByRole("listitem", { name: customer.participant, exact: true });
  const tick = participant.getByRole("button", { name: `Anwesend: ${customer.participant}`, exact: true });
  const count = page.getByRole("status").filter({ hasText: /anwesend/ });
  for (const [index, date] of dates.entries()) {
    await page.goto(`/coursesheetmobile?course=${customer.courseId}&date=${date.id}`);
    await expect(participant).toContainText(unitsLeft(Math.max(0, 10 - index)));
    if (index === 0) await fitsWidth(page);
    await waitForHydration(page, javaScriptEnabled);
    await tick.click();
    await expect(tick).toHaveAttribute("aria-pressed", "true");
    // Saved (with JavaScript 'wird gespeichert …' until the answer is there), and read again.
    await expect(count).toHaveText("1 von 1 anwesend");
    await expect(participant).toContainText(unitsLeft(Math.max(0, 9 - index)));
  }
  await fitsWidth(page);

  // The eleventh tick counted without a card: on the home page (here on the phone), opening the dialog that settles it.
  await page.goto("/");
  const withoutCard = page
    .getByRole("region", { name: "Karten & Abos", exact: true })
    .locator("div")
    .filter({ has: page.getByRole("heading", { level: 3, name: "Ohne Karte" }) })
    .getByRole("listitem")
    .filter({ hasText: customer.personName });
  await expect(withoutCard).toContainText("ohne Karte");
  await expect(withoutCard).toContainText(`${customer.courseName} am ${dates[10].day}`);
  await fitsWidth(page);
  await page.setViewportSize(DESK);
  await withoutCard.getByRole("link", { name: customer.personName }).click();
  await expect(page).toHaveURL(new RegExp(`/people/${customer.personId}/cards\\?dialog=attendanceSettlement-settle&dialogId=\\d+$`));
  const settle = page.getByRole("dialog", { name: "Teilnahme ohne Karte erledigen" });
  await expect(settle).toContainText(`${customer.courseName} am ${dates[10].day}`);

  // Settled by the next card, valid from that day (9 left on it); the first card is used up.
  await page.goto(`/people/${customer.personId}/cards`);
  await sell(dates[10].day, " Ein Termin ohne Karte ist damit verrechnet.");
  await expect(cardRow(dates[0].day)).toContainText("0 von 10");
  await expect(cardRow(dates[0].day)).toContainText("aufgebraucht");
  await expect(cardRow(dates[10].day)).toContainText("9 von 10");
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Auf einen Blick" })).toBeVisible();
  await expect(withoutCard).toHaveCount(0);
});
