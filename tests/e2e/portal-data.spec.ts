import { expect, test } from "./support/fixtures";
import { fitsWidth, noAxeViolations, signInToPortal } from "./support/portal";
import { testDataFor } from "./support/test-data";

/**
 * Mein Wuff, my data and my dogs (issue 32 items 2 and 3), as a member does it on the phone and
 * the club office sees it at the desk: the address changed (the person's Verlauf and the home page
 * show it), a consent given, an insurance certificate uploaded and confirmed by staff, after which
 * the member sees the insurance as proven. With JavaScript and without; axe on every portal page.
 */
test("Mein Wuff: change the address, give a consent, upload an insurance certificate that staff confirm", async ({ page, openAs, javaScriptEnabled }) => {
  const owner = (await testDataFor(javaScriptEnabled)).portalDogOwner;
  const street = javaScriptEnabled ? "Neuer Weg 12" : "Neuer Pfad 21";
  await page.setViewportSize({ width: 390, height: 844 });
  await signInToPortal(page, owner.email);
  await expect(page.getByRole("heading", { level: 1, name: `Hallo ${owner.firstName}` })).toBeVisible();
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);

  // Meine Daten: a new street.
  await page
    .getByRole("link", { name: /^Meine Daten/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Meine Daten" })).toBeVisible();
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);
  const ownData = page.getByRole("form", { name: "Name, Anschrift, Telefon" });
  await ownData.getByLabel("Straße und Hausnummer").fill(street);
  await ownData.getByRole("button", { name: "Daten speichern" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Deine Daten sind gespeichert." })).toBeVisible();
  await expect(ownData.getByLabel("Straße und Hausnummer")).toHaveValue(street);

  // A consent, given to the text shown.
  await page.getByRole("button", { name: "Einwilligen: Fotos" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Fotos: Deine Einwilligung ist gespeichert." })).toBeVisible();
  await expect(page.getByText(/^Erteilt am .* \(Fassung \d+\)$/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Einwilligung „Fotos“ widerrufen" })).toBeVisible();

  // Meine Hunde: the insurance certificate.
  await page.getByRole("navigation", { name: "Mein Wuff" }).getByRole("link", { name: "Meine Hunde" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Meine Hunde" })).toBeVisible();
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);
  const dog = page.getByRole("region", { name: owner.dogName });
  await expect(dog.getByText("276098100012345")).toBeVisible();
  await dog.getByText("Neuen Versicherungsnachweis hochladen").click();
  const form = dog.getByRole("form", { name: `Neuen Versicherungsnachweis hochladen für ${owner.dogName}` });
  await form.getByLabel("Versicherung", { exact: true }).fill("Wuff-Haftpflicht eG");
  await form.getByLabel("Versicherungsnummer").fill("WH-2027");
  await form.getByLabel("Gültig bis (TT.MM.JJJJ)").fill("31.12.2027");
  await form.getByLabel(/^Datei/).setInputFiles({ name: "Police.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") });
  await form.getByRole("button", { name: "Nachweis hochladen" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Dein Nachweis ist hochgeladen." })).toBeVisible();
  await expect(dog.getByText(/hochgeladen am .*, wird geprüft/)).toBeVisible();

  // The club office: the home page names the change, the person's Verlauf has it, the paper waits.
  await page.setViewportSize({ width: 1366, height: 900 });
  await openAs("staff", "/");
  const card = page.getByRole("region", { name: "Änderungen aus dem Portal" });
  await expect(card.getByRole("link", { name: /Nachweise? zu prüfen/ })).toBeVisible();
  const ownerEntries = card.getByRole("listitem").filter({ hasText: `${owner.firstName} ${owner.lastName}` });
  await expect(ownerEntries.filter({ hasText: "Straße geändert" })).toBeVisible();
  await expect(ownerEntries.filter({ hasText: "Nachweis für einen Hund hochgeladen" })).toBeVisible();
  await page.goto(`/people/${owner.personId}/dogs?dialog=person-edit&dialogId=${owner.personId}`);
  const history = page.getByRole("dialog").getByTestId("record-history");
  await history.getByText(/^Verlauf/).click();
  await expect(history.getByRole("listitem").first()).toContainText(`von ${owner.firstName} ${owner.lastName} (Mein Wuff) über Mein Wuff`);
  await expect(history.getByRole("listitem").first()).toContainText(`Straße: Alte Gasse 1 → ${street}`);

  await page.goto("/dogPapers");
  const paper = page.getByRole("listitem").filter({ hasText: owner.dogName });
  await expect(paper).toContainText("Wuff-Haftpflicht eG, Nr. WH-2027, gültig bis 31.12.2027");
  await paper.getByRole("button", { name: /^Bestätigen/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "Nachweis bestätigt" })).toBeVisible();

  // Back in Mein Wuff (phone): the insurance counts now.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/mein/hunde");
  await expect(dog.getByText("Wuff-Haftpflicht eG, Nr. WH-2027, gültig bis 31.12.2027")).toBeVisible();
  await expect(dog.getByText(/hochgeladen am .*, bestätigt/)).toBeVisible();
  await page.setViewportSize({ width: 1366, height: 900 });
  await fitsWidth(page);
  await noAxeViolations(page, javaScriptEnabled);
});
