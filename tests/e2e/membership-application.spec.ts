import { expect, test } from "./support/fixtures";
import { fitsWidth, noAxeViolations, portalMailsTo, signInToPortal } from "./support/portal";

/**
 * Mitglied werden (issue 32 item 6), as an applicant does it on the phone and the treasurer at the
 * desk: the public form with two dogs and a SEPA mandate, the address confirmed by the link from
 * maildev, the application accepted by staff from the home page, and the welcome mail. With
 * JavaScript and without; axe and the width at 390 and 1366 px.
 */
test("Mitglied werden: apply with two dogs and a mandate, confirm by link, be accepted by staff", async ({ page, openAs, javaScriptEnabled }) => {
  const lastName = javaScriptEnabled ? "Antragmitjs" : "Antragohnejs";
  const email = `${lastName.toLowerCase()}@example.org`;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/mein");
  await page.getByRole("navigation", { name: "Rechtliches" }).getByRole("link", { name: "Mitglied werden" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Mitglied werden" })).toBeVisible();
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);

  const form = page.getByRole("form", { name: "Mitglied werden" });
  await form.getByLabel("Anrede").selectOption("Frau");
  await form.getByLabel("Vorname").fill("Mia");
  await form.getByLabel("Nachname").fill(lastName);
  await form.getByLabel("Straße und Hausnummer").fill("Feldweg 3");
  await form.getByLabel("PLZ").fill("50667");
  await form.getByLabel("Ort").fill("Köln");
  await form.getByLabel("E-Mail-Adresse").fill(email);
  await form.getByLabel("Geburtsdatum (TT.MM.JJJJ)").fill("14.03.1990");
  await expect(form.getByLabel("Mitgliedsart")).toHaveValue(/\d+/);
  const dogs = page.getByRole("region", { name: "Deine Hunde" });
  await dogs.getByRole("group", { name: "Hund 1" }).getByLabel("Name").fill("Kira");
  await dogs.getByRole("group", { name: "Hund 1" }).getByLabel("Geschlecht").selectOption("weiblich");
  // Another dog: without JavaScript the form goes to the server and comes back with one more.
  await dogs.getByRole("button", { name: "Weiteren Hund angeben" }).click();
  await dogs.getByRole("group", { name: "Hund 2" }).getByLabel("Name").fill("Bolt");
  await dogs.getByRole("group", { name: "Hund 2" }).getByLabel("Geschlecht").selectOption("männlich");
  const mandate = page.getByRole("region", { name: "Beiträge per Lastschrift (freiwillig)" });
  await expect(mandate.getByText(/^Gläubiger-Identifikationsnummer DE/)).toBeVisible();
  await mandate.getByLabel("Kontoinhaber").fill(`Mia ${lastName}`);
  await mandate.getByLabel("IBAN").fill("DE02 1203 0000 0000 2020 51");
  await mandate.getByLabel("Ich erteile dieses SEPA-Lastschriftmandat für wiederkehrende Zahlungen.").check();
  // Sent without the statutes ticked: the form says so, and keeps what was typed.
  await form.getByRole("button", { name: "Mitgliedsantrag senden" }).click();
  await expect(form.getByText("Bitte bestätige, dass du die Satzung anerkennst")).toBeVisible();
  await expect(form.getByLabel("Nachname")).toHaveValue(lastName);
  await form.getByLabel("Ich erkenne die Satzung des Vereins an.").check();
  await form.getByLabel("Ich habe die Datenschutzhinweise gelesen.").check();
  await form.getByRole("button", { name: "Mitgliedsantrag senden" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Fast geschafft: Wir haben dir eine E-Mail geschickt." })).toBeVisible();

  // The address confirmed by the link: only now does the club see the application.
  await expect.poll(async () => (await portalMailsTo(email, "Bitte bestätige deinen Mitgliedsantrag")).length, { timeout: 30_000 }).toBe(1);
  const [mail] = await portalMailsTo(email, "Bitte bestätige deinen Mitgliedsantrag");
  await page.goto(/http:\/\/\S+\/mitglied-werden\/bestaetigen\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0]);
  await noAxeViolations(page, javaScriptEnabled);
  await page.getByRole("button", { name: "Antrag absenden" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Danke! Dein Mitgliedsantrag ist beim Verein angekommen." })).toBeVisible();

  // The treasurer at the desk: the home page names it, the application is accepted.
  await page.setViewportSize({ width: 1366, height: 900 });
  await openAs("admin", "/");
  await page
    .getByRole("region", { name: "Änderungen aus dem Portal" })
    .getByRole("link", { name: /Mitgliedsantr(ag|äge) zu entscheiden/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Mitgliedsanträge" })).toBeVisible();
  await noAxeViolations(page, javaScriptEnabled);
  const application = page.getByRole("listitem").filter({ hasText: `Mia ${lastName}` });
  await expect(application).toContainText("Kira, weiblich; Bolt, männlich");
  await expect(application).toContainText(`Mandat erteilt: Mia ${lastName}, DE02`);
  await application.getByRole("button", { name: /^Annehmen/ }).click();
  await expect(page.getByRole("status").filter({ hasText: `Mitgliedsantrag angenommen: Mia ${lastName} ist Mitglied seit` })).toBeVisible();
  await expect.poll(async () => (await portalMailsTo(email, "Willkommen bei")).length, { timeout: 30_000 }).toBe(1);

  // The new member signs in to Mein Wuff with that address and finds the dogs there.
  await page.setViewportSize({ width: 390, height: 844 });
  await signInToPortal(page, email);
  await page.getByRole("navigation", { name: "Mein Wuff" }).getByRole("link", { name: "Meine Hunde" }).click();
  await expect(page.getByRole("heading", { name: "Kira" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Bolt" })).toBeVisible();
});
