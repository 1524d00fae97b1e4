import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { openEdit, personWithDog, saveParticipant, toast, unique, waitForHydration } from "./support/journeys";
import { readSheet } from "read-excel-file/node";

/**
 * The participant dialog: finds the person by the search, chooses them (with JavaScript the
 * dog and the price follow at once, without it 'Übernehmen' brings them), and saves.
 */
async function addParticipant(page: Page, javaScriptEnabled: boolean, person: { lastName: string; dogName: string }, expectedAmount: string) {
  const dialog = page.getByRole("dialog", { name: "Teilnehmer hinzufügen" });
  await waitForHydration(page, javaScriptEnabled);
  await dialog.getByRole("textbox", { name: "Teilnehmer suchen" }).fill(person.lastName.slice(0, 20));
  await dialog.getByRole("search", { name: "Teilnehmer suchen" }).getByRole("button", { name: "Suchen" }).click();
  const personSelect = dialog.getByRole("combobox", { name: "Teilnehmer" });
  await expect(personSelect.locator("option", { hasText: person.lastName })).toBeAttached();
  await personSelect.selectOption({ label: `Kira ${person.lastName}` });
  if (!javaScriptEnabled) await dialog.getByRole("button", { name: "Übernehmen" }).click();
  // The person's only dog is chosen and the course's price for a non-member is the amount.
  await expect(dialog.getByRole("combobox", { name: "Hund" })).toHaveValue(/\d+/);
  await expect(dialog.getByRole("combobox", { name: "Hund" }).locator("option:checked")).toHaveText(new RegExp(`^${person.dogName}`));
  await expect(dialog.getByLabel("Betrag")).toHaveValue(expectedAmount);
  await expect(dialog.getByLabel("Status")).toHaveValue(/\d+/);
  await expect(dialog.getByLabel("Status").locator("option:checked")).toHaveText("Angemeldet");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Teilnehmer wurde hinzugefügt");
}

test("Kurs-Typ, Kurs und Teilnehmer: a season from the course type to the paid participant, transfer, export, delete and undo", async ({
  page,
  openAs,
  javaScriptEnabled,
}, testInfo) => {
  const typeName = unique(javaScriptEnabled, "Fährtenkurs");
  const owner = { lastName: unique(javaScriptEnabled, "Kursfrau"), dogName: "Bella" };
  await openAs("admin", "/people");
  const personId = await personWithDog(page, owner.lastName, owner.dogName);
  await page.goto("/courseMasters");

  // Kurs-Typ
  const types = page.getByRole("region", { name: "Kurs-Typen" });
  await types.getByRole("link", { name: "Hinzufügen" }).click();
  const typeDialog = page.getByRole("dialog", { name: "Kurs-Typ hinzufügen" });
  await typeDialog.getByLabel("Name").fill(typeName);
  await typeDialog.getByLabel("Termine (geplant)").fill("6");
  await typeDialog.getByLabel("Max. Hunde").fill("4");
  await typeDialog.getByLabel("Preis Nichtmitglieder").fill("145,50");
  await typeDialog.getByLabel("Preis ermäßigt 1").fill("120,00");
  await typeDialog.getByLabel("Preis ermäßigt 2").fill("99,00");
  await typeDialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Kurs-Typ wurde angelegt");
  await expect(types.locator("tbody tr[aria-selected='true']")).toContainText(typeName);

  // A course of that type, prefilled from it
  const typeCourses = page.getByRole("region", { name: `Kurse für Kurstyp ${typeName}` });
  await expect(typeCourses.getByRole("heading")).toHaveText(`Kurse für Kurstyp ${typeName} (0)`);
  await typeCourses.getByRole("link", { name: "Hinzufügen" }).click();
  const courseDialog = page.getByRole("dialog", { name: `Neuen Kurs für Kurs-Typ '${typeName}' hinzufügen` });
  const year = new Date().getFullYear();
  await expect(courseDialog.getByLabel("Name")).toHaveValue(`${typeName} ${year}`);
  await expect(courseDialog.getByLabel("Preis Nichtmitglieder")).toHaveValue("145,50");
  await courseDialog.getByLabel("Status").selectOption({ label: "Läuft" });
  await courseDialog.getByLabel("Beginn").fill(`05.12.${year} 18:00`);
  await courseDialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Kurs wurde angelegt");
  await expect(typeCourses.getByRole("heading")).toHaveText(`Kurse für Kurstyp ${typeName} (1)`);
  const courseName = `${typeName} ${year}`;

  // The course on the Kurse screen, found by the search (a GET form), with its participants below
  await page.goto(`/courses?q=${encodeURIComponent(typeName.slice(0, 20))}`);
  const courses = page.getByRole("region", { name: "Kurse" }).first();
  await expect(courses.getByRole("heading", { level: 1 })).toHaveText("Kurse (1)");
  const participants = page.getByRole("region", { name: `Teilnehmer für '${courseName}'` });
  await expect(participants.getByRole("heading")).toHaveText(`Teilnehmer für '${courseName}' (0)`);

  await participants.getByRole("link", { name: "Hinzufügen" }).click();
  await addParticipant(page, javaScriptEnabled, owner, "145,50");
  const row = participants.locator("tbody tr", { hasText: owner.lastName });
  await expect(row).toHaveAttribute("aria-selected", "true");
  await expect(row).toContainText("145,50 €");
  await expect(row).toContainText("Angemeldet");
  // Mini+ records neither a rabies vaccination nor insurance: the proofs are marked.
  await expect(row).toContainText("Keine Tollwutimpfung eingetragen");
  await expect(participants.getByRole("heading")).toHaveText(`Teilnehmer für '${courseName}' (1)`);

  // Edit the amount and the paid flag
  await openEdit(participants, row, javaScriptEnabled);
  const edit = page.getByRole("dialog", { name: "Teilnehmer bearbeiten" });
  await expect(edit.getByText(courseName)).toBeVisible();
  await edit.getByLabel("Betrag").fill("130,00");
  await edit.getByLabel("Bezahlt").check();
  await edit.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Teilnehmer wurde gespeichert");
  await expect(row).toContainText("130,00 €");
  await expect(row).toContainText(/bezahlt am \d\d\.\d\d\.\d{4} von Anna Admin/);
  await expect(participants.locator("tfoot")).toContainText("130,00 €");

  // Teilnehmerliste.xlsx: the participants as the pane shows them
  const [download] = await Promise.all([page.waitForEvent("download"), participants.getByRole("link", { name: "Excel-Export" }).click()]);
  expect(download.suggestedFilename()).toBe("Teilnehmerliste.xlsx");
  const file = testInfo.outputPath("Teilnehmerliste.xlsx");
  await download.saveAs(file);
  const sheet = await readSheet(file);
  expect(sheet[0]).toContain("Teilnehmer");
  expect(sheet[0]).toContain("Betrag");
  expect(sheet).toHaveLength(3);
  expect(sheet[1][0]).toBe(`Kira ${owner.lastName}`);
  expect(sheet[2][0]).toBe("Summe");
  expect(sheet[2][sheet[0].indexOf("Betrag")]).toBe(130);

  // Transfer: the context menu with JavaScript, the row action without
  if (javaScriptEnabled) {
    await row.click({ button: "right" });
    await page.getByRole("menuitem", { name: "Teilnehmer in einen anderen Kurs versetzen" }).click();
  } else {
    await participants.getByRole("link", { name: "Teilnehmer in einen anderen Kurs versetzen" }).first().click();
  }
  const transfer = page.getByRole("dialog", { name: "Teilnehmer transferieren" });
  await transfer.getByRole("button", { name: "Speichern" }).click();
  await expect(transfer.getByText("Kurs ist erforderlich")).toBeVisible();
  const target = transfer.getByLabel("versetzen in Kurs");
  const targetName = (await target.locator("option").nth(1).textContent())!;
  await target.selectOption({ index: 1 });
  await transfer.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText(`Kira ${owner.lastName} wurde in Kurs '${targetName}' versetzt`);
  await expect(participants.getByRole("heading")).toHaveText(`Teilnehmer für '${courseName}' (0)`);

  // Back, through the person's tab Kurse; the course opens in a new tab
  const personCourses = await openPersonCourses(page, personId, `Kira ${owner.lastName}`);
  const booked = personCourses.locator("tbody tr", { hasText: targetName });
  await expect(booked).toBeVisible();
  await expect(booked.getByRole("link", { name: targetName })).toHaveAttribute("target", "_blank");
});

/** The person's tab Kurse on the People screen. */
async function openPersonCourses(page: Page, personId: number, name: string) {
  await page.goto(`/people/${personId}/coursememberships`);
  const tab = page.getByRole("region", { name: `Kurse für ${name}` });
  await expect(tab.getByRole("heading")).toContainText(`Kurse für ${name}`);
  return tab;
}

test("Teilnehmer from a person and from a dog; delete one and bring it back with 'Rückgängig'", async ({ page, openAs, javaScriptEnabled }) => {
  const owner = { lastName: unique(javaScriptEnabled, "Kursfrau"), dogName: "Paula" };
  await openAs("staff", "/people");
  const personId = await personWithDog(page, owner.lastName, owner.dogName);

  // From the person: the person is theirs, the course is chosen
  const personCourses = await openPersonCourses(page, personId, `Kira ${owner.lastName}`);
  await personCourses.getByRole("link", { name: "Hinzufügen" }).click();
  const dialog = page.getByRole("dialog", { name: "Teilnehmer hinzufügen" });
  await waitForHydration(page, javaScriptEnabled);
  // Finished courses are not offered.
  const courseSelect = dialog.getByLabel("Kurs");
  await expect(courseSelect.locator("option").nth(1)).toBeAttached();
  const courseName = (await courseSelect.locator("option").nth(1).textContent())!;
  await courseSelect.selectOption({ index: 1 });
  if (!javaScriptEnabled) await dialog.getByRole("button", { name: "Übernehmen" }).click();
  await expect(dialog.getByRole("combobox", { name: "Hund" }).locator("option:checked")).toHaveText(new RegExp(`^${owner.dogName}`));
  await expect(dialog.getByLabel("Betrag")).toHaveValue(/^\d+,\d\d$/);
  await saveParticipant(dialog);
  await expect(toast(page)).toHaveText("Teilnehmer wurde hinzugefügt");
  const row = personCourses.locator("tbody tr", { hasText: courseName });
  await expect(row).toHaveAttribute("aria-selected", "true");

  // Delete, then 'Rückgängig' brings the participant and the course fee back
  await personCourses.getByRole("link", { name: "Löschen" }).click();
  const confirm = page.getByRole("dialog", { name: new RegExp(`^Teilnehmer Kira ${owner.lastName} mit ${owner.dogName} löschen$`) });
  await expect(confirm).toContainText("Bist du sicher?");
  await expect(confirm).toContainText("Mit ihm werden auch gelöscht: 1 Kursgebühr (offener Posten).");
  await confirm.getByRole("button", { name: "Löschen" }).click();
  await expect(toast(page)).toContainText("Teilnehmer wurde gelöscht");
  await expect(personCourses.locator("tbody tr", { hasText: courseName })).toHaveCount(0);
  await page.getByRole("button", { name: "Rückgängig" }).click();
  await expect(toast(page)).toContainText("ist wieder da");
  await expect(personCourses.locator("tbody tr", { hasText: courseName })).toBeVisible();

  // From the dog: its tab Kurse on the Dogs screen (the dog's link says which), its owner chosen
  const dogHref = (await row.getByRole("link", { name: owner.dogName }).getAttribute("href"))!;
  const dogId = new URL(dogHref, "http://wuff").searchParams.get("dialogId");
  await page.goto(`/dogs/${dogId}/coursememberships`);
  const dogCourses = page.getByRole("region", { name: `Kurse für ${owner.dogName}` });
  await expect(dogCourses.getByRole("heading")).toHaveText(`Kurse für ${owner.dogName} (1)`);
  await dogCourses.getByRole("link", { name: "Hinzufügen" }).click();
  const fromDog = page.getByRole("dialog", { name: "Teilnehmer hinzufügen" });
  await waitForHydration(page, javaScriptEnabled);
  await expect(fromDog.getByRole("combobox", { name: "Teilnehmer" }).locator("option:checked")).toHaveText(`Kira ${owner.lastName}`);
  await expect(fromDog.getByRole("combobox", { name: "Hund" }).locator("option:checked")).toHaveText(new RegExp(`^${owner.dogName}`));
  const otherCourse = fromDog.getByLabel("Kurs");
  await otherCourse.selectOption({ index: 2 });
  if (!javaScriptEnabled) await fromDog.getByRole("button", { name: "Übernehmen" }).click();
  await expect(fromDog.getByLabel("Betrag")).toHaveValue(/^\d+,\d\d$/);
  await saveParticipant(fromDog);
  await expect(toast(page)).toHaveText("Teilnehmer wurde hinzugefügt");
  await expect(dogCourses.getByRole("heading")).toHaveText(`Kurse für ${owner.dogName} (2)`);
});
