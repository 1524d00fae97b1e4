import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { toast, unique } from "./support/journeys";

// Every test here starts logged in as staff (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "staff" });

/** A new course (no dates yet) through the Kurse screen's dialog; returns its participants/dates URL base. */
async function newCourse(page: Page, name: string) {
  await page.goto("/courses?dialog=course-add");
  // With JavaScript the dialog is made modal in place once hydrated.
  if (test.info().project.use.javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  const dialog = page.getByRole("dialog", { name: "Neuen Kurs hinzufügen" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Beginn").fill("02.03.2026 18:00");
  await dialog.getByLabel("Termine (geplant)").fill("4");
  await dialog.getByLabel("Ort").selectOption({ label: "Reithalle Hof Meyer" });
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Kurs wurde angelegt");
  await page.waitForURL(/\/courses\/\d+\//);
  return Number(/\/courses\/(\d+)\//.exec(page.url())![1]);
}

test("Termine: a single date, then a weekly series with the next date's default, edit and delete", async ({ page, javaScriptEnabled }) => {
  const name = unique(javaScriptEnabled, "Terminkurs");
  await page.goto("/courses");
  const courseId = await newCourse(page, name);
  await page
    .getByRole("navigation", { name: `Bereiche von Kurs ${name}` })
    .getByRole("link", { name: "Termine" })
    .click();
  const dates = page.getByRole("region", { name: `Termine für '${name}'` });
  await expect(dates.getByRole("heading")).toHaveText(`Termine für '${name}' (0)`);

  // No dates yet: the course's start, one hour, the course's location.
  await dates.getByRole("link", { name: "Hinzufügen" }).click();
  let dialog = page.getByRole("dialog", { name: "Termin hinzufügen" });
  await expect(dialog.getByLabel("Datum")).toHaveValue("02.03.2026");
  await expect(dialog.getByLabel("Uhrzeit")).toHaveValue("18:00");
  await expect(dialog.getByLabel("Dauer")).toHaveValue("1");
  await expect(dialog.getByLabel("Ort")).toHaveValue(/\d+/);
  await expect(dialog.getByLabel("Ort").locator("option:checked")).toHaveText("Reithalle Hof Meyer");
  await expect(dialog.getByText("Ende: 02.03.2026 19:00")).toBeVisible();
  await dialog.getByLabel("Dauer").selectOption({ label: "1,5 Stunden" });
  if (javaScriptEnabled) await expect(dialog.getByText("Ende: 02.03.2026 19:30")).toBeVisible();
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Termin wurde angelegt");
  await expect(dates.getByRole("heading")).toHaveText(`Termine für '${name}' (1)`);
  await expect(dates.locator("tbody tr", { hasText: "02.03.2026 18:00 (Mo.)" })).toHaveAttribute("aria-selected", "true");

  // The next date: 7 days after the last one, with its duration; a series of 3 leaving out 16.03.
  await dates.getByRole("link", { name: "Hinzufügen" }).click();
  dialog = page.getByRole("dialog", { name: "Termin hinzufügen" });
  await expect(dialog.getByLabel("Datum")).toHaveValue("09.03.2026");
  await expect(dialog.getByLabel("Dauer")).toHaveValue("1.5");
  await expect(dialog.getByText("Ende: 09.03.2026 19:30")).toBeVisible();
  await dialog.getByLabel("Anzahl Termine").fill("3");
  await dialog.getByLabel("außer am").fill("16.03.2026");
  if (javaScriptEnabled) await expect(dialog.getByText("3 Termine: 09.03.2026, 23.03.2026, 30.03.2026")).toBeVisible();
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("3 Termine wurden angelegt");
  await expect(dates.getByRole("heading")).toHaveText(`Termine für '${name}' (4)`);
  // After the change to summer time the date is still at 18:00.
  await expect(dates.locator("tbody tr", { hasText: "30.03.2026 18:00 (Mo.)" })).toBeVisible();
  await expect(dates).not.toContainText("16.03.2026");

  // Edit one: a new time; the course is fixed.
  const row = dates.locator("tbody tr", { hasText: "23.03.2026" });
  if (javaScriptEnabled) await row.dblclick();
  else {
    await row.getByRole("link").first().click();
    await dates.getByRole("link", { name: "Bearbeiten" }).click();
  }
  const edit = page.getByRole("dialog", { name: "Termin bearbeiten" });
  await expect(edit.getByText(name)).toBeVisible();
  await edit.getByLabel("Uhrzeit").selectOption("19:15");
  await edit.getByLabel("Kommentar").fill("Heute auf dem Außengelände");
  await edit.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Termin wurde gespeichert");
  await expect(dates.locator("tbody tr[aria-selected='true']")).toContainText("23.03.2026 19:15 (Mo.)");

  // The course counts its dates against the plan.
  await page.goto(`/courses?q=${encodeURIComponent(name.slice(0, 20))}`);
  await expect(page.getByRole("region", { name: "Kurse" }).first().locator("tbody tr").first()).toContainText("4 / 4");

  // Delete one.
  await page.goto(`/courses/${courseId}/coursedates`);
  const toDelete = page.getByRole("region", { name: `Termine für '${name}'` }).locator("tbody tr", { hasText: "30.03.2026" });
  if (javaScriptEnabled) await toDelete.click();
  else await toDelete.getByRole("link").first().click();
  await page
    .getByRole("region", { name: `Termine für '${name}'` })
    .getByRole("link", { name: "Löschen" })
    .click();
  const confirm = page.getByRole("dialog", { name: "Termin 30.03.2026 18:00 löschen" });
  await expect(confirm).toContainText("Bist du sicher?");
  await confirm.getByRole("button", { name: "Löschen" }).click();
  await expect(toast(page)).toContainText("Termin wurde gelöscht");
  await expect(page.getByRole("region", { name: `Termine für '${name}'` }).getByRole("heading")).toHaveText(`Termine für '${name}' (3)`);
});

test("Kursdaten: every date grouped by course and year; Kursblatt: the course selector and the toggle", async ({ page }) => {
  await page.goto("/courseDates");
  const list = page.getByRole("region", { name: "Kursdaten" });
  await expect(list.getByRole("heading", { level: 1 })).toHaveText(/^Kursdaten \(\d+\)$/);
  // Group rows name the course and its year.
  await expect(list.getByRole("row", { name: /^[^()]+ \(20\d\d\)$/ }).first()).toBeVisible();

  await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: "Kursblatt" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Kursblatt" })).toBeVisible();
  const toggle = page.getByRole("group", { name: "Kurse zur Auswahl" });
  await expect(toggle.getByRole("link", { name: "Nur aktuelle Kurse" })).toHaveAttribute("aria-current", "true");
  const select = page.getByLabel("Kurs", { exact: true });
  const currentCount = await select.locator("option").count();
  const second = (await select.locator("option").nth(1).textContent())!;
  await select.selectOption({ label: second });
  const javaScriptEnabled = test.info().project.use.javaScriptEnabled;
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Anzeigen" }).click();
  await expect(page.getByRole("region", { name: `Teilnehmer für '${second}'` })).toBeVisible();
  await toggle.getByRole("link", { name: "Alle Kurse" }).click();
  await expect(toggle.getByRole("link", { name: "Alle Kurse" })).toHaveAttribute("aria-current", "true");
  await expect.poll(() => page.getByLabel("Kurs", { exact: true }).locator("option").count()).toBeGreaterThan(currentCount);
});
