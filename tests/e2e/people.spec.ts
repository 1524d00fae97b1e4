import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { unique } from "./support/journeys";

/** Opens a row's edit dialog: double click with JavaScript, the toolbar link without. */
async function openEdit(page: Page, grid: Locator, row: Locator, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) {
    await row.dblclick();
  } else {
    await row.getByRole("link").first().click();
    await grid.getByRole("link", { name: "Bearbeiten" }).click();
  }
}

test("add, edit and delete a person, with German validation, dialogs and toasts", async ({ page, openAs, javaScriptEnabled }) => {
  const lastName = unique(javaScriptEnabled, "Neumann");
  await openAs("admin", "/people");
  const grid = page.getByRole("region", { name: "Personen" });
  await expect(grid.getByRole("heading")).toHaveText(/^Personen \(\d+\)$/);
  // PARENT grid: the first row is selected after loading.
  await expect(grid.locator("tbody tr[aria-selected='true']")).toHaveCount(1);

  await grid.getByRole("link", { name: "Hinzufügen" }).click();
  const addDialog = page.getByRole("dialog", { name: "Person hinzufügen" });
  await expect(addDialog).toBeVisible();
  // Nothing filled in: the spec's messages, nothing saved.
  await addDialog.getByRole("button", { name: "Speichern" }).click();
  await expect(addDialog.getByText("Vorname ist erforderlich")).toBeVisible();
  await expect(addDialog.getByText("Nachname ist erforderlich")).toBeVisible();

  await addDialog.getByLabel("Anrede").selectOption("Frau");
  await addDialog.getByLabel("Vorname", { exact: true }).fill("Erika");
  await addDialog.getByLabel("Nachname", { exact: true }).fill(lastName);
  await addDialog.getByLabel("Ort").fill("Marburg");
  await addDialog.getByLabel("Geburtstag").fill("31.04.1985");
  await addDialog.getByLabel("Mitgliedsart").selectOption({ label: "Kein Mitglied" });
  await addDialog.getByRole("button", { name: "Speichern" }).click();
  await expect(addDialog.getByText("Das Datum 31.04.1985 gibt es nicht")).toBeVisible();
  await addDialog.getByLabel("Geburtstag").fill("1.4.1985");
  await addDialog.getByRole("button", { name: "Speichern" }).click();

  await expect(page.getByRole("status")).toHaveText("Person wurde angelegt");
  await expect(addDialog).toHaveCount(0);
  const selected = grid.locator("tbody tr[aria-selected='true']");
  await expect(selected).toContainText(lastName);
  await expect(page.getByRole("heading", { name: `Hunde für Erika ${lastName}` })).toBeVisible();

  await openEdit(page, grid, selected, javaScriptEnabled);
  const editDialog = page.getByRole("dialog", { name: `Person Erika ${lastName} bearbeiten` });
  await expect(editDialog.getByLabel("Geburtstag")).toHaveValue("01.04.1985");
  await expect(editDialog.getByText("Angelegt von")).toBeVisible();
  await editDialog.getByLabel("Ort").fill("Gießen");
  await editDialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status")).toHaveText("Person wurde gespeichert");
  await expect(grid.locator("tbody tr[aria-selected='true']")).toContainText("Gießen");

  await grid.getByRole("link", { name: "Löschen" }).click();
  const deleteDialog = page.getByRole("dialog", { name: `Person ${lastName} Erika löschen` });
  await expect(deleteDialog).toContainText("Bist du sicher?");
  await deleteDialog.getByRole("button", { name: "Löschen" }).click();
  await expect(page.getByRole("status")).toHaveText("Person wurde gelöscht");
  await expect(grid).not.toContainText(lastName);
});

test("add, edit and delete a dog of the selected person", async ({ page, openAs, javaScriptEnabled }) => {
  const dogName = unique(javaScriptEnabled, "Bello");
  await openAs("staff", "/people");
  const ownerName = (await page.getByRole("heading", { name: /^Hunde für / }).textContent())!.replace("Hunde für ", "").replace(/ \(\d+\)$/, "");
  const dogs = page.getByRole("region", { name: `Hunde für ${ownerName}` });

  await dogs.getByRole("link", { name: "Hinzufügen" }).click();
  const addDialog = page.getByRole("dialog", { name: "Hund hinzufügen" });
  // The selected person is taken over as the owner.
  await expect(addDialog.getByLabel("Besitzer", { exact: true })).toHaveValue(/\d+/);
  await addDialog.getByLabel("Name").fill(dogName);
  await addDialog.getByLabel("Geschlecht").selectOption({ label: "(unbekannt)" });
  await addDialog.getByLabel("Tollwut bis").fill("01.01.2020");
  await addDialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status")).toHaveText("Hund wurde angelegt");

  const row = dogs.locator("tbody tr", { hasText: dogName });
  await expect(row).toHaveAttribute("aria-selected", "true");
  // An expired rabies date and the unknown gender show red.
  await expect(row.getByRole("cell", { name: "01.01.2020" })).toHaveClass(/text-red-700/);
  await expect(row.getByRole("cell", { name: "(unbekannt)" })).toHaveClass(/text-red-700/);

  await openEdit(page, dogs, row, javaScriptEnabled);
  const editDialog = page.getByRole("dialog", { name: `Hund ${dogName} bearbeiten` });
  await editDialog.getByLabel("Geschlecht").selectOption({ label: "weiblich" });
  await editDialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status")).toHaveText("Hund wurde gespeichert");
  await expect(dogs.locator("tbody tr", { hasText: dogName })).toContainText("weiblich");

  await dogs.getByRole("link", { name: "Löschen" }).click();
  const deleteDialog = page.getByRole("dialog", { name: `Hund ${dogName} löschen` });
  await expect(deleteDialog).toContainText("Bist du sicher?");
  await deleteDialog.getByRole("button", { name: "Löschen" }).click();
  await expect(page.getByRole("status")).toHaveText("Hund wurde gelöscht");
  await expect(dogs).not.toContainText(dogName);
});

// The filter toggles, the sorting headers and the Excel export are links and a download the
// server answers: tests/integration/people.test.ts ('the people grid's filter, sorting and export').

test("the column chooser shows hidden columns and remembers the choice", async ({ page, openAs, javaScriptEnabled }) => {
  await openAs("gdpr", "/people");
  const grid = page.getByRole("region", { name: "Personen" });
  const column = javaScriptEnabled ? "Mitglied seit" : "DSGVO";
  await expect(grid.getByRole("columnheader", { name: column })).toHaveCount(0);
  await grid.getByText("Spalten", { exact: true }).click();
  const box = grid.getByRole("form", { name: "Spaltenauswahl" }).getByLabel(column, { exact: true });
  if (javaScriptEnabled) {
    // The grid shows the choice at once; wait until the server has saved it before reloading.
    const saved = page.waitForResponse((response) => response.url().includes("/preferences/columns") && response.request().method() === "POST");
    await box.check();
    await saved;
  } else {
    await box.check();
    await grid.getByRole("button", { name: "Übernehmen" }).click();
  }
  await expect(grid.getByRole("columnheader", { name: column })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("region", { name: "Personen" }).getByRole("columnheader", { name: column })).toBeVisible();
});

// Staff are not offered membership dates or GDPR in the column chooser: tests/integration/role-refusals.test.ts.

test("the Dogs screen: current and archived dogs, the owner opens the person dialog", async ({ page, openAs }) => {
  await openAs("staff", "/dogs");
  const grid = page.getByRole("region", { name: "Hunde" });
  await expect(grid.getByRole("heading")).toHaveText(/^Hunde \(\d+\)$/);
  await expect(page.getByRole("navigation", { name: /^Bereiche von / }).getByRole("link", { name: "Kurse" })).toBeVisible();
  await grid.getByRole("link", { name: "Archivierte" }).click();
  await expect(page).toHaveURL(/list=archived/);
  await expect(grid.getByRole("link", { name: "Archivierte" })).toHaveAttribute("aria-current", "true");
  const owner = grid.locator("tbody tr").first().getByRole("link").nth(1);
  const ownerName = (await owner.textContent())!.trim();
  await owner.click();
  await expect(page.getByRole("dialog", { name: `Person ${ownerName} bearbeiten` })).toBeVisible();
  await page.getByRole("dialog").getByRole("link", { name: "Abbruch" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("Mensch/Hund Mini+ adds a person with a dog, refuses a duplicate name and cancels", async ({ page, openAs, javaScriptEnabled }) => {
  const lastName = unique(javaScriptEnabled, "Schnell");
  await openAs("staff", "/dogs");
  await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: "Mensch/Hund Mini+" }).click();
  const dialog = page.getByRole("dialog", { name: "Mensch/Hund Mini+" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Hund Geschlecht")).toHaveValue("0");
  const save = dialog.getByRole("button", { name: "Speichern" });
  if (javaScriptEnabled) {
    // Speichern stays disabled while the form is invalid; leaving a field empty says why.
    await page.locator("html[data-hydrated]").waitFor();
    await expect(save).toBeDisabled();
    await dialog.getByLabel("Besitzer Vorname").focus();
    await dialog.getByLabel("Besitzer Nachname").focus();
    await expect(dialog.getByText("Vorname ist erforderlich")).toBeVisible();
  } else {
    await save.click();
    for (const message of ["Männlich/weiblich ist erforderlich", "Vorname ist erforderlich", "Nachname ist erforderlich", "Name ist erforderlich"]) {
      await expect(dialog.getByText(message, { exact: true })).toBeVisible();
    }
  }
  const fill = async () => {
    await dialog.getByLabel("Herr/Frau").selectOption({ label: "Frau" });
    await dialog.getByLabel("Besitzer Vorname").fill("Hanna");
    await dialog.getByLabel("Besitzer Nachname").fill(lastName);
    await dialog.getByLabel("Hund Name").fill("Flocke");
    await dialog.getByLabel("Hund Geschlecht").selectOption({ label: "weiblich" });
  };
  await fill();
  await expect(save).toBeEnabled();
  // Clicking outside the dialog does not close it (nothing typed is lost).
  await page.mouse.click(5, 700);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Besitzer Nachname")).toHaveValue(lastName);
  await save.click();
  await expect(page.getByRole("status")).toHaveText("Person und Hund wurden hinzugefügt");
  await expect(page.getByRole("region", { name: "Personen" }).locator("tbody tr[aria-selected='true']")).toContainText(lastName);
  const dogs = page.getByRole("region", { name: `Hunde für Hanna ${lastName}` });
  await expect(dogs.locator("tbody tr", { hasText: "Flocke" })).toHaveAttribute("aria-selected", "true");

  // The same name again: nothing is inserted.
  await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: "Mensch/Hund Mini+" }).click();
  await fill();
  await save.click();
  await expect(dialog.getByRole("alert")).toHaveText("Es gibt bereits eine Person mit diesem Namen");

  // Abbruch (and Escape with JavaScript) lead back to the page it was opened from.
  if (javaScriptEnabled) await page.keyboard.press("Escape");
  else await dialog.getByRole("link", { name: "Abbruch" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/people\/\d+\/dogs/);
});
