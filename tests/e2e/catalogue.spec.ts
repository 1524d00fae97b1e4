import { expect, test } from "./support/fixtures";
import { waitForHydration } from "./support/journeys";
import { fitsWidth, noAxeViolations } from "./support/portal";
import { testDataFor } from "./support/test-data";

/**
 * Kursangebot (issue 33 item 1), as a dog owner finds a course on the phone: from Mein Wuff's footer
 * to the catalogue, filtered by course type and weekday (kept in the URL), to the course's own page
 * with its dates by month, and back. No login. With JavaScript and without; axe and 390 px.
 */
test("Kursangebot: find a course by type and weekday on the phone and open its page", async ({ page, javaScriptEnabled }) => {
  const course = (await testDataFor(javaScriptEnabled)).catalogueCourse;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/mein");
  await page.getByRole("navigation", { name: "Rechtliches" }).getByRole("link", { name: "Kursangebot" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Kursangebot" })).toBeVisible();
  await waitForHydration(page, javaScriptEnabled);
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);

  const filters = page.getByRole("search", { name: "Kurse filtern" });
  await filters.getByLabel("Kurs-Typ").selectOption({ label: course.typeName });
  await filters.getByLabel("Wochentag").selectOption({ label: course.weekdayName });
  await filters.getByRole("button", { name: "Filtern" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]tag=${course.weekday}(&|$)`));
  await expect(page.getByRole("status")).toHaveText("1 Kurs");
  const card = page.getByRole("article", { name: course.name });
  await expect(card).toContainText("8 Plätze frei");
  await expect(card).toContainText(`Beginn`);
  await expect(card).toContainText(course.dates[0]);
  await expect(card).toContainText("Hund am ersten Termin mindestens 8 Wochen alt");
  await expect(card).toContainText("Kein Mitglied: 120,00");
  await fitsWidth(page);
  // Another weekday: nothing of this type.
  await filters.getByLabel("Wochentag").selectOption({ label: course.weekday === 1 ? "Dienstag" : "Montag" });
  await filters.getByRole("button", { name: "Filtern" }).click();
  await expect(page.getByRole("status")).toHaveText("Kein Kurs passt zu diesen Filtern.");
  await page.goBack();
  await expect(page.getByRole("status")).toHaveText("1 Kurs");

  await card.getByRole("link", { name: course.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: course.name })).toBeVisible();
  await waitForHydration(page, javaScriptEnabled);
  for (const date of course.dates) await expect(page.getByText(date)).toBeVisible();
  await noAxeViolations(page, javaScriptEnabled);
  await fitsWidth(page);
  await page.getByRole("link", { name: "Zum Kursangebot" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Kursangebot" })).toBeVisible();
});
