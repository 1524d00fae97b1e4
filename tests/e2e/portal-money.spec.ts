import { expect, test } from "./support/fixtures";
import { fitsWidth, noAxeViolations, portalMailsTo, signInToPortal } from "./support/portal";
import { testDataFor } from "./support/test-data";

/**
 * Mein Wuff, my money (issue 32 item 4), as a member does it on the phone: two open items paid at
 * once on Mollie's page (the local fake, which calls the app's webhook as Mollie does) and seen as
 * paid on return; then a SEPA mandate given and confirmed by the link from maildev. With
 * JavaScript and without; axe and the width at 390 and 1366 px.
 */
test("Mein Wuff: pay two open items online and give a SEPA mandate", async ({ page, javaScriptEnabled }) => {
  const payer = (await testDataFor(javaScriptEnabled)).portalPayer;
  await page.setViewportSize({ width: 390, height: 844 });
  await signInToPortal(page, payer.email);
  await page.getByRole("navigation", { name: "Mein Wuff" }).getByRole("link", { name: "Meine Zahlungen" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Meine Zahlungen" })).toBeVisible();
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);

  // Both open items are chosen; Mollie's page takes the sum.
  const open = page.getByRole("region", { name: "Offen", exact: true });
  await expect(open.getByText("Offen: 85,00 €")).toBeVisible();
  await expect(open.getByRole("checkbox", { name: new RegExp(`Jahresbeitrag ${payer.lastName}`) })).toBeChecked();
  await expect(open.getByRole("checkbox", { name: new RegExp(`Prüfungsgebühr ${payer.lastName}`) })).toBeChecked();
  await open.getByRole("button", { name: "Ausgewählte online bezahlen" }).click();
  await page.getByRole("button", { name: "85,00 € bezahlen (Test)" }).click();

  // Back in Mein Wuff: paid and booked.
  await expect(page.getByRole("status").filter({ hasText: "Danke! Deine Zahlung über 85,00 € ist eingegangen und gebucht." })).toBeVisible();
  await expect(open.getByText("Bei dir ist nichts offen. Danke!")).toBeVisible();
  await expect(page.getByRole("region", { name: "Zahlungen", exact: true }).getByText("85,00 €", { exact: true })).toBeVisible();

  // A SEPA mandate: given here, valid once the mailed link is confirmed.
  const mandatePart = page.getByRole("region", { name: "Lastschriftmandat" });
  await mandatePart.getByText("Lastschriftmandat erteilen").click();
  const form = mandatePart.getByRole("form", { name: /^SEPA-Lastschriftmandat für / });
  await expect(form.getByText(/^Gläubiger-Identifikationsnummer DE/)).toBeVisible();
  await expect(form.getByLabel("Kontoinhaber")).toHaveValue(`${payer.firstName} ${payer.lastName}`);
  await form.getByLabel("IBAN").fill("DE02 1203 0000 0000 2020 51");
  await form.getByRole("button", { name: "Mandat erteilen" }).click();
  await expect(form.getByText("Bitte bestätige, dass du das Mandat erteilst")).toBeVisible();
  await form.getByLabel("Ich erteile dieses SEPA-Lastschriftmandat für wiederkehrende Zahlungen.").check();
  await form.getByRole("button", { name: "Mandat erteilen" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Fast geschafft: Wir haben dir einen Link an ${payer.email} geschickt.` })).toBeVisible();
  await expect.poll(async () => (await portalMailsTo(payer.email, "Bitte bestätige dein Lastschriftmandat")).length, { timeout: 30_000 }).toBe(1);
  const [mail] = await portalMailsTo(payer.email, "Bitte bestätige dein Lastschriftmandat");
  await page.goto(/http:\/\/\S+\/mein\/lastschrift\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0]);
  await noAxeViolations(page, javaScriptEnabled);
  await page.getByRole("button", { name: "Mandat bestätigen" }).click();
  const reference = `WUFF-${payer.personId}-1`;
  await expect(page.getByRole("status").filter({ hasText: `Dein Lastschriftmandat ${reference} gilt ab heute.` })).toBeVisible();
  await expect(mandatePart.getByText(new RegExp(`Mandat ${reference} vom .*, Konto DE02`))).toBeVisible();

  // The same page on a desk.
  await page.setViewportSize({ width: 1366, height: 900 });
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);
});
