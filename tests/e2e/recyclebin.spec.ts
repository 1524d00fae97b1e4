import { expect, test } from "./support/fixtures";

// Every test here starts logged in as admin (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "admin" });

test("a deleted person comes back from the Papierkorb", async ({ page, javaScriptEnabled }) => {
  const lastName = `Zurueck${javaScriptEnabled ? "Js" : "Html"}${Date.now().toString(36)}`;
  await page.goto("/people");

  // Add and delete a person through the People screen.
  const people = page.getByRole("region", { name: "Personen" });
  await people.getByRole("link", { name: "Hinzufügen" }).click();
  const add = page.getByRole("dialog", { name: "Person hinzufügen" });
  await add.getByLabel("Vorname", { exact: true }).fill("Paula");
  await add.getByLabel("Nachname", { exact: true }).fill(lastName);
  await add.getByLabel("Ort").fill("Wetzlar");
  await add.getByLabel("Mitgliedsart").selectOption({ label: "Kein Mitglied" });
  await add.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status")).toHaveText("Person wurde angelegt");
  await people.getByRole("link", { name: "Löschen" }).click();
  await page
    .getByRole("dialog", { name: `Person ${lastName} Paula löschen` })
    .getByRole("button", { name: "Löschen" })
    .click();
  await expect(page.getByRole("status")).toHaveText("Person wurde gelöscht");

  await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: "Papierkorb" }).click();
  const bin = page.getByRole("region", { name: "Gelöschte Datensätze" });
  await expect(bin.getByRole("columnheader")).toHaveText(["Transaktion", "Löschdatum", "gelöscht von", "Tabelle", "Feld1", "Feld2", "Feld3"]);
  const row = bin.locator("tbody tr", { hasText: lastName });
  await expect(row).toContainText("Anna Admin");
  await expect(row).toContainText(/\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}/);

  if (javaScriptEnabled) {
    await row.dblclick();
  } else {
    await row.getByRole("link").first().click();
    await bin.getByRole("link", { name: "Wiederherstellen" }).click();
  }
  const confirm = page.getByRole("dialog", { name: "Du bist im Begriff, diesen gelöschten Satz wiederherzustellen." });
  await expect(confirm).toContainText("Bist du sicher?");
  await confirm.getByRole("button", { name: "Ja, wiederherstellen" }).click();
  await expect(page.getByRole("status")).toHaveText(`Gelöschter Satz ${lastName}/Paula/Wetzlar wurde wiederhergestellt`);
  await expect(bin).not.toContainText(lastName);

  // The person is back in the list (newest first; other tests may add people meanwhile).
  await page.goto(`/people?sort=-id`);
  await expect(page.getByRole("region", { name: "Personen" }).locator("tbody tr", { hasText: lastName })).toHaveCount(1);
});
