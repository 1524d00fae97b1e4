/**
 * Issue 29/14 in the browser, with JavaScript on and off: the participant dialog of a full course
 * warns before saving, with the count, and offers 'Auf die Warteliste' and 'Trotzdem buchen';
 * the waiting list entry is greyed in the participants grid.
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { personWithDog, toast, unique, waitForHydration } from "./support/journeys";

/** Chooses the person in the open add dialog (without JavaScript 'Übernehmen' brings the dog). */
async function choosePerson(page: Page, javaScriptEnabled: boolean, lastName: string) {
  const dialog = page.getByRole("dialog", { name: "Teilnehmer hinzufügen" });
  await waitForHydration(page, javaScriptEnabled);
  await dialog.getByRole("textbox", { name: "Teilnehmer suchen" }).fill(lastName.slice(0, 20));
  await dialog.getByRole("search", { name: "Teilnehmer suchen" }).getByRole("button", { name: "Suchen" }).click();
  const personSelect = dialog.getByRole("combobox", { name: "Teilnehmer" });
  await expect(personSelect.locator("option", { hasText: lastName })).toBeAttached();
  await personSelect.selectOption({ label: `Kira ${lastName}` });
  if (!javaScriptEnabled) await dialog.getByRole("button", { name: "Übernehmen" }).click();
  await expect(dialog.getByRole("combobox", { name: "Hund" })).toHaveValue(/\d+/);
  return dialog;
}

test("a full course warns in the participant dialog: waiting list or book anyway", async ({ page, openAs, javaScriptEnabled }) => {
  const courseName = unique(javaScriptEnabled, "Kleinkurs");
  const first = unique(javaScriptEnabled, "Erstefrau");
  const second = unique(javaScriptEnabled, "Zweitefrau");
  await openAs("admin", "/people");
  await personWithDog(page, first, "Anni");
  await personWithDog(page, second, "Berta");

  // A course with one place
  await page.goto("/courses");
  await page.getByRole("region", { name: "Kurse" }).first().getByRole("link", { name: "Hinzufügen" }).click();
  const courseDialog = page.getByRole("dialog", { name: "Neuen Kurs hinzufügen" });
  await courseDialog.getByLabel("Name").fill(courseName);
  await courseDialog.getByLabel("Max. Hunde").fill("1");
  await courseDialog.getByLabel("Status").selectOption({ label: "Läuft" });
  await courseDialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Kurs wurde angelegt");
  await page.goto(`/courses?year=all&q=${encodeURIComponent(courseName.slice(0, 20))}`);
  const participants = page.getByRole("region", { name: `Teilnehmer für '${courseName}'` });

  // The first dog takes the only place
  await participants.getByRole("link", { name: "Hinzufügen" }).click();
  const firstDialog = await choosePerson(page, javaScriptEnabled, first);
  await expect(firstDialog.getByText("Der Kurs ist voll")).toHaveCount(0);
  await firstDialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Teilnehmer wurde hinzugefügt");

  // The second: the warning with the count before saving, Speichern gives way to the choices
  await participants.getByRole("link", { name: "Hinzufügen" }).click();
  const dialog = await choosePerson(page, javaScriptEnabled, second);
  const full = dialog.getByRole("alert", { name: "Kurs voll" });
  await expect(full).toContainText("Der Kurs ist voll: 1 Hund bei 1 Platz. Mit diesem Hund wären es 2.");
  await expect(dialog.getByRole("button", { name: "Speichern" })).toBeDisabled();
  await full.getByRole("button", { name: "Auf die Warteliste" }).click();
  await expect(toast(page)).toHaveText("Teilnehmer wurde auf die Warteliste gesetzt");
  const waiting = participants.locator("tbody tr", { hasText: second });
  await expect(waiting).toContainText("Warteliste");
  await expect(waiting).toHaveAttribute("data-muted", "true");
  await expect(participants.locator("tbody tr", { hasText: first })).not.toHaveAttribute("data-muted", "true");

  // Off the waiting list into the full course: warned again, booked anyway
  await waitForHydration(page, javaScriptEnabled);
  // The saved row is selected: double click with JavaScript, the toolbar link without.
  await expect(waiting).toHaveAttribute("aria-selected", "true");
  if (javaScriptEnabled) await waiting.dblclick();
  else await participants.getByRole("link", { name: "Bearbeiten" }).click();
  const edit = page.getByRole("dialog", { name: "Teilnehmer bearbeiten" });
  await waitForHydration(page, javaScriptEnabled);
  await edit.getByLabel("Status").selectOption({ label: "Angemeldet" });
  await edit.getByRole("button", { name: "Speichern" }).click();
  const again = edit.getByRole("alert", { name: "Kurs voll" });
  await expect(again).toContainText("Der Kurs ist voll: 1 Hund bei 1 Platz. Mit diesem Hund wären es 2.");
  await again.getByRole("button", { name: "Trotzdem buchen" }).click();
  await expect(toast(page)).toHaveText("Teilnehmer wurde gespeichert");
  await expect(waiting).toContainText("Angemeldet");
  await expect(waiting).not.toHaveAttribute("data-muted", "true");
});
