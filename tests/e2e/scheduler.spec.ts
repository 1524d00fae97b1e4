import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

// Every test here starts logged in as staff (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "staff" });

/**
 * Kalender (/scheduler), with JavaScript on and off: the month of today with the demo data's
 * course dates, Weiter / Zurück, the week, a date's dialog, and on a phone the list without
 * horizontal scrolling. It only reads: both projects share one database.
 */

/** 'März 2026' for the month `offset` months from today's month in Berlin. */
function monthTitle(offset: number) {
  const [year, month] = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin", year: "numeric", month: "2-digit" })
    .format(new Date())
    .split("-")
    .map(Number);
  const first = new Date(Date.UTC(year, month - 1 + offset, 1, 12));
  return new Intl.DateTimeFormat("de-DE", { timeZone: "UTC", month: "long", year: "numeric" }).format(first);
}

const periodHeading = (page: Page, title: string) => page.getByRole("heading", { level: 2, name: new RegExp(`^${title} \\(\\d+ Termine?\\)$`) });

test("Kalender: month, Weiter and Zurück, the week, and a date's dialog", async ({ page }) => {
  await page.goto("/people");
  await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: "Kalender" }).click();
  await expect(page).toHaveURL(/\/scheduler$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Kalender");
  await expect(periodHeading(page, monthTitle(0))).toBeVisible();
  await expect(page).toHaveTitle(`Kalender ${monthTitle(0)} – Wuff`);

  // The month grid: the weekday headers Mo to So, today marked.
  const grid = page.getByRole("table", { name: new RegExp(`^${monthTitle(0)}`) });
  await expect(grid.getByRole("columnheader")).toHaveText(["Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"]);
  await expect(grid.locator("td[aria-current='date']")).toHaveCount(1);
  const views = page.getByRole("group", { name: "Ansicht" });
  await expect(views.getByRole("link", { name: "Monat" })).toHaveAttribute("aria-current", "true");

  // Weiter, Zurück, Zurück, Heute.
  const period = page.getByRole("navigation", { name: "Zeitraum" });
  await period.getByRole("link", { name: "Weiter" }).click();
  await expect(periodHeading(page, monthTitle(1))).toBeVisible();
  await expect(page).toHaveURL(/view=month&date=\d{4}-\d{2}-01$/);
  await period.getByRole("link", { name: "Zurück" }).click();
  await expect(periodHeading(page, monthTitle(0))).toBeVisible();
  await period.getByRole("link", { name: "Zurück" }).click();
  await expect(periodHeading(page, monthTitle(-1))).toBeVisible();
  await period.getByRole("link", { name: "Heute" }).click();
  await expect(periodHeading(page, monthTitle(0))).toBeVisible();

  // The week: seven days from Monday, 'Mo 02.03.' and so on.
  await views.getByRole("link", { name: "Woche" }).click();
  await expect(page).toHaveURL(/view=week/);
  await expect(views.getByRole("link", { name: "Woche" })).toHaveAttribute("aria-current", "true");
  await expect(page.getByRole("heading", { level: 2, name: /^KW \d+ · Mo \d\d\.\d\d\.(\d{4})?–So \d\d\.\d\d\.\d{4}/ })).toBeVisible();
  const week = page.getByRole("table");
  await expect(week.getByRole("columnheader")).toHaveCount(7);
  await expect(week.getByRole("columnheader").first()).toHaveText(/^Mo \d\d\.\d\d\.( \(heute\))?$/);
  await expect(week.getByRole("columnheader").last()).toHaveText(/^So \d\d\.\d\d\.( \(heute\))?$/);
  await period.getByRole("link", { name: "Weiter" }).click();
  await expect(page).toHaveURL(/view=week&date=\d{4}-\d{2}-\d{2}$/);

  // Back to the month of today: a date opens 'Termin bearbeiten' over the calendar.
  await page.goto("/scheduler?view=month");
  const entry = page
    .getByRole("table")
    .getByRole("link")
    .filter({ hasText: /\d\d:\d\d–\d\d:\d\d|ganztägig/ })
    .first();
  const text = (await entry.innerText()).split("\n").map((line) => line.trim());
  const courseName = text[1];
  await entry.click();
  const dialog = page.getByRole("dialog", { name: "Termin bearbeiten" });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/scheduler\?view=month&date=\d{4}-\d{2}-\d{2}&dialog=courseDate-edit&dialogId=\d+$/);
  await expect(dialog.getByText(courseName, { exact: true })).toBeVisible();
  await expect(dialog.getByLabel("Datum")).toHaveValue(/^\d\d\.\d\d\.\d{4}$/);
  await dialog.getByRole("link", { name: "Abbruch" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/scheduler\?view=month&date=\d{4}-\d{2}-\d{2}$/);
  await expect(periodHeading(page, monthTitle(0))).toBeVisible();
});

test("Kalender on a phone: the list, no horizontal scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  // Reached through the handset menu, below its own entries.
  await page.getByLabel("Menü", { exact: true }).click();
  await page
    .getByRole("navigation", { name: "Mobiles Menü" })
    .getByRole("list", { name: "Weitere Bildschirme" })
    .getByRole("link", { name: "Kalender" })
    .click();
  await expect(page).toHaveURL(/\/scheduler$/);
  await expect(periodHeading(page, monthTitle(0))).toBeVisible();
  // The grid is left out; the month's days with dates are a list under German headings.
  await expect(page.getByRole("table")).toBeHidden();
  const days = page.getByRole("heading", { level: 3 });
  await expect(days.first()).toHaveText(/^(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), \d{1,2}\. \p{L}+ \d{4}/u);
  await expect(page.getByRole("link", { name: /\d\d:\d\d–\d\d:\d\d|ganztägig/ }).first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.getByRole("group", { name: "Ansicht" }).getByRole("link", { name: "Liste" }).click();
  await expect(page).toHaveURL(/view=list/);
  await expect(page.getByRole("group", { name: "Ansicht" }).getByRole("link", { name: "Liste" })).toHaveAttribute("aria-current", "true");
  await expect(days.first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The week on a phone is a list as well.
  await page.getByRole("group", { name: "Ansicht" }).getByRole("link", { name: "Woche" }).click();
  await expect(page).toHaveURL(/view=week/);
  await expect(page.getByRole("table")).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
