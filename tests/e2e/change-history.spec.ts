import { expect, test } from "./support/fixtures";
import { unique } from "./support/journeys";

test("a GDPR user changes a person's consent and sees it, and the changes, in the dialog's Verlauf", async ({ page, openAs, javaScriptEnabled }) => {
  const lastName = unique(javaScriptEnabled, "Verlauf");
  await openAs("gdpr", "/people?dialog=person-add");
  const addDialog = page.getByRole("dialog", { name: "Person hinzufügen" });
  await addDialog.getByLabel("Vorname", { exact: true }).fill("Vera");
  await addDialog.getByLabel("Nachname", { exact: true }).fill(lastName);
  await addDialog.getByLabel("Mitgliedsart").selectOption({ label: "Kein Mitglied" });
  await addDialog.getByLabel("DSGVO-Einwilligung").check();
  await addDialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status")).toHaveText("Person wurde angelegt");

  // The new person is selected: /people/{id}/dogs.
  const personId = /\/people\/(\d+)\//.exec(new URL(page.url()).pathname)?.[1];
  expect(personId).toBeTruthy();
  const editUrl = `/people/${personId}/dogs?dialog=person-edit&dialogId=${personId}`;
  await page.goto(editUrl);
  const editDialog = page.getByRole("dialog", { name: `Person Vera ${lastName} bearbeiten` });
  const consent = editDialog.getByTestId("person-consent");
  await expect(consent).toContainText("Einwilligung erteilt am");
  await expect(consent).toContainText("von Dana Datenschutz über Personendialog");

  // Consent withdrawn, and the town changed.
  await editDialog.getByLabel("DSGVO-Einwilligung").uncheck();
  await editDialog.getByLabel("Ort").fill("Gießen");
  await editDialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status")).toHaveText("Person wurde gespeichert");

  await page.goto(editUrl);
  await expect(consent.getByRole("listitem")).toHaveCount(2);
  await expect(consent.getByRole("listitem").first()).toContainText("Einwilligung widerrufen am");
  await expect(editDialog.getByLabel("DSGVO-Einwilligung")).not.toBeChecked();

  // The Verlauf: closed at first, opens without JavaScript too (a <details>), newest first.
  const history = editDialog.getByTestId("record-history");
  await expect(history.getByText("Verlauf (2)")).toBeVisible();
  const entries = history.getByRole("listitem").filter({ has: page.locator("p") });
  await expect(entries.first()).toBeHidden();
  await history.getByText("Verlauf (2)").click();
  await expect(entries.first()).toBeVisible();
  await expect(entries.first()).toContainText("Geändert am");
  await expect(entries.first()).toContainText("von Dana Datenschutz über Personendialog");
  await expect(entries.first()).toContainText("Ort: – → Gießen");
  await expect(entries.first()).toContainText("DSGVO-Einwilligung: Ja → Nein");
  await expect(entries.nth(1)).toContainText("Angelegt am");
  await expect(entries.nth(1)).toContainText(`Nachname: ${lastName}`);
});

// Staff see the Verlauf without the consent: tests/integration/role-refusals.test.ts.
