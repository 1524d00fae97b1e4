import { expect, test } from "./support/fixtures";
import { openEdit, uniqueText, waitForHydration } from "./support/journeys";

// Every test here starts logged in as staff (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "staff" });

test("Erfolge: add from the list with a person found by search, edit, delete", async ({ page, javaScriptEnabled }) => {
  const comment = uniqueText(javaScriptEnabled, "Kurs bestanden");
  await page.goto("/certifications");
  const grid = page.getByRole("region", { name: "Erfolge" });
  await expect(grid.getByRole("heading", { level: 1 })).toHaveText(/^Erfolge \(\d+\)$/);
  // Someone who has a certification already (the first column is the person; a dog's test has none).
  const someone = (await grid.locator("tbody tr td:first-child").filter({ hasNotText: "–" }).first().textContent())!.trim();

  await grid.getByRole("link", { name: "Hinzufügen" }).click();
  const dialog = page.getByRole("dialog", { name: "Erfolg hinzufügen" });
  await waitForHydration(page, javaScriptEnabled);
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(dialog.getByText("Erfolgsart ist erforderlich")).toBeVisible();

  // The person is found by a search of its own (a GET form: works without JavaScript too).
  await dialog.getByRole("textbox", { name: "Person suchen" }).fill(someone.slice(0, 20));
  await dialog.getByRole("search", { name: "Person suchen" }).getByRole("button", { name: "Suchen" }).click();
  const personSelect = dialog.getByRole("combobox", { name: /^Person/ });
  await expect(personSelect.locator("option", { hasText: someone }).first()).toBeAttached();
  await dialog.getByLabel("Erfolgsart").selectOption({ label: "Sachkundenachweis" });
  if (javaScriptEnabled) {
    // A certification of people: the dog does not apply and is not offered.
    await expect(dialog.getByRole("combobox", { name: /^Hund/ })).toHaveCount(0);
  }
  await personSelect.selectOption({ label: someone });
  await dialog.getByLabel("Datum").fill("1.2.2026");
  await dialog.getByLabel("Kommentar").fill(comment);
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status")).toHaveText("Erfolg wurde angelegt");
  const row = grid.locator("tbody tr", { hasText: comment });
  await expect(row).toHaveAttribute("aria-selected", "true");
  await expect(row).toContainText("Sachkundenachweis");
  await expect(row).toContainText("01.02.2026");

  await openEdit(grid, row, javaScriptEnabled);
  const edit = page.getByRole("dialog", { name: "Erfolg bearbeiten" });
  await expect(edit.getByLabel("Datum")).toHaveValue("01.02.2026");
  await expect(edit.getByText("Angelegt von")).toBeVisible();
  await edit.getByLabel("Kommentar").fill(`${comment} mit Auszeichnung`);
  await edit.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status")).toHaveText("Erfolg wurde gespeichert");
  await expect(grid.locator("tbody tr[aria-selected='true']")).toContainText("mit Auszeichnung");

  await grid.getByRole("link", { name: "Löschen" }).click();
  const confirm = page.getByRole("dialog", { name: "Erfolg Sachkundenachweis löschen" });
  await expect(confirm).toContainText("Bist du sicher?");
  await confirm.getByRole("button", { name: "Löschen" }).click();
  await expect(page.getByRole("status")).toHaveText("Erfolg wurde gelöscht");
  await expect(grid).not.toContainText(comment);
});

test("Erfolge of a person and of a dog, with the masters that fit", async ({ page, javaScriptEnabled }) => {
  const comment = uniqueText(javaScriptEnabled, "Tab");
  await page.goto("/people");
  const person = (await page.getByRole("heading", { name: /^Hunde für / }).textContent())!.replace("Hunde für ", "").replace(/ \(\d+\)$/, "");
  await page.getByRole("navigation", { name: "Bereiche der Person" }).getByRole("link", { name: "Erfolge" }).click();
  const personTab = page.getByRole("region", { name: /^Erfolge von / });
  await expect(personTab.getByRole("heading")).toContainText(`Erfolge von ${person}`);
  await personTab.getByRole("link", { name: "Hinzufügen" }).click();
  const dialog = page.getByRole("dialog", { name: "Erfolg hinzufügen" });
  const masters = dialog.getByLabel("Erfolgsart");
  // Under a person: only masters that certify people; the person is fixed.
  await expect(masters.locator("option", { hasText: "Sachkundenachweis" })).toBeAttached();
  await expect(masters.locator("option", { hasText: "Wesenstest" })).toHaveCount(0);
  await expect(dialog).toContainText(person);
  await masters.selectOption({ label: "Sachkundenachweis" });
  await dialog.getByLabel("Kommentar").fill(comment);
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status")).toHaveText("Erfolg wurde angelegt");
  await expect(personTab.locator("tbody tr", { hasText: comment })).toHaveAttribute("aria-selected", "true");

  await page.goto("/dogs");
  const dog = (await page.getByRole("region", { name: "Hunde" }).locator("tbody tr[aria-selected='true'] td").first().textContent())!.trim();
  await page
    .getByRole("navigation", { name: `Bereiche von ${dog}` })
    .getByRole("link", { name: "Erfolge" })
    .click();
  const dogTab = page.getByRole("region", { name: `Erfolge von ${dog}` });
  await dogTab.getByRole("link", { name: "Hinzufügen" }).click();
  const dogDialog = page.getByRole("dialog", { name: "Erfolg hinzufügen" });
  await expect(dogDialog.getByLabel("Erfolgsart").locator("option", { hasText: "Sachkundenachweis" })).toHaveCount(0);
  await dogDialog.getByLabel("Erfolgsart").selectOption({ label: "Wesenstest" });
  await dogDialog.getByLabel("Kommentar").fill(comment);
  await dogDialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status")).toHaveText("Erfolg wurde angelegt");
  await expect(dogTab.locator("tbody tr", { hasText: comment })).toContainText("Wesenstest");
});
