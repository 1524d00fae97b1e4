import { expect, test } from "./support/fixtures";
import { fitsWidth, noAxeViolations, portalMailsTo, signInToPortal } from "./support/portal";
import { testDataFor } from "./support/test-data";

/**
 * Mein Wuff, Karten & Abos (issue 34 item 2), as a customer does it on the phone: buy a 10er-Karte
 * with the button that obliges to pay, find it under Meine Karten & Abos, take an Abo too, and end
 * it with 'Verträge hier kündigen' (§ 312k BGB): the page confirms receipt and end, the mail comes;
 * then withdraw from the card within its 14 days.
 * With JavaScript and without; axe on each page.
 */
test("Mein Wuff: buy a 10er-Karte and an Abo, then give notice of the Abo", async ({ page, javaScriptEnabled }) => {
  const buyer = (await testDataFor(javaScriptEnabled)).cardBuyer;
  await page.setViewportSize({ width: 390, height: 844 });
  await signInToPortal(page, buyer.email);
  await page.getByRole("navigation", { name: "Mein Wuff" }).getByRole("link", { name: "Meine Karten" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Meine Karten & Abos" })).toBeVisible();
  await page.getByRole("link", { name: "Karte oder Abo kaufen" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Karte oder Abo kaufen" })).toBeVisible();
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);

  // Without the terms accepted nothing is bought; the page says why.
  await page.getByRole("radio", { name: new RegExp(`^${buyer.cardName}:`) }).check();
  await page.getByRole("button", { name: "Zahlungspflichtig kaufen" }).click();
  await expect(page.getByText("Bitte bestätige, dass du die AGB akzeptierst")).toBeVisible();
  await page.getByRole("radio", { name: new RegExp(`^${buyer.cardName}:`) }).check();
  await page.getByRole("checkbox", { name: /Ich akzeptiere die AGB/ }).check();
  await page.getByRole("checkbox", { name: /schon vor Ende der Widerrufsfrist nutzen/ }).check();
  await page.getByRole("button", { name: "Zahlungspflichtig kaufen" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Gekauft: ${buyer.cardName}, gültig vom` })).toBeVisible();
  const card = page.getByRole("region", { name: buyer.cardName });
  await expect(card.getByText("10 von 10 Einheiten")).toBeVisible();
  await fitsWidth(page);

  // The Abo, then its notice from its own link: preselected, the earliest end said before.
  await page.getByRole("link", { name: "Karte oder Abo kaufen" }).click();
  await page.getByRole("radio", { name: new RegExp(`^${buyer.aboName}:`) }).check();
  await page.getByRole("checkbox", { name: /Ich akzeptiere die AGB/ }).check();
  await page.getByRole("button", { name: "Zahlungspflichtig kaufen" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Gekauft: ${buyer.aboName}, gültig ab` })).toBeVisible();
  await page.getByRole("link", { name: `Dieses Abo kündigen (${buyer.aboName})` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Verträge hier kündigen" })).toBeVisible();
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);
  await expect(page.getByRole("radio", { name: new RegExp(`^${buyer.aboName} \\(Abo seit`) })).toBeChecked();
  await expect(page.getByRole("radio", { name: "Ordentliche Kündigung", exact: true })).toBeChecked();
  await expect(page.getByRole("radio", { name: "Zum nächstmöglichen Zeitpunkt" })).toBeChecked();
  const earliest = (await page.getByText(/^Frühestes Ende bei ordentlicher Kündigung heute: /).textContent())!.split(": ")[1];
  await page.getByRole("button", { name: "Jetzt kündigen" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: /^Deine Kündigung ist am \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d Uhr bei uns eingegangen\./ }),
  ).toBeVisible();
  await expect(page.getByText(`Dein Vertrag endet am ${earliest}.`)).toBeVisible();
  await fitsWidth(page);
  await noAxeViolations(page, javaScriptEnabled);
  await expect.poll(async () => (await portalMailsTo(buyer.email, "Eingangsbestätigung deiner Kündigung")).length, { timeout: 30_000 }).toBe(1);
  const [mail] = await portalMailsTo(buyer.email, "Eingangsbestätigung deiner Kündigung");
  expect(mail.text).toContain(`Dein Vertrag endet damit am ${earliest}.`);

  // Changed mind about the card within 14 days: withdrawn here, two steps without JavaScript too.
  await page.goto("/mein/karten");
  const bought = page.getByRole("region", { name: buyer.cardName });
  await bought.getByText("Vertrag widerrufen").click();
  await bought.getByRole("button", { name: "Widerruf bestätigen" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${buyer.cardName} gilt nicht mehr. Die Gebühr ist über` })).toBeVisible();
  await expect(page.getByRole("region", { name: buyer.cardName }).getByText("Vertrag widerrufen")).toHaveCount(0);
  await expect(page.getByRole("region", { name: buyer.cardName }).getByText("0 von 10 Einheiten")).toBeVisible();
  await fitsWidth(page);

  // The button is in every page's footer.
  await page.goto("/mein/karten");
  await expect(page.getByRole("region", { name: buyer.aboName }).getByText(`bis ${earliest}`)).toBeVisible();
  await page.getByRole("link", { name: "Verträge hier kündigen" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Verträge hier kündigen" })).toBeVisible();
  await expect(page.getByRole("radio", { name: new RegExp(`^${buyer.aboName}`) })).toHaveCount(0);
});
