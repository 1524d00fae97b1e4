import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/** The Listen group of the sidebar (a disclosure, open by default). */
async function openFromListen(page: Page, name: string) {
  await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name, exact: true }).click();
}

test("HSVRM-Liste: the year's members under the association data, another year, the Excel link", async ({ page, openAs }) => {
  await openAs("finance", "/");
  await openFromListen(page, "HSVRM-Liste");
  await expect(page).toHaveURL(/\/hsvrmlist/);
  const grid = page.getByRole("region", { name: "HSVRM-Liste" });
  await expect(grid.getByRole("heading", { level: 1 })).toHaveText(/^HSVRM-Liste \(\d+\)$/);
  await expect(grid.getByText("Verein: Hundesportverein Wuff e.V. · KG 7 · Verein-Nr. 1234")).toBeVisible();
  const year = new Date().getFullYear();
  const toggles = grid.getByRole("group", { name: "Mitglieder des Jahres" });
  await expect(toggles.getByRole("link", { name: String(year) })).toHaveAttribute("aria-current", "true");
  // Every row is a member with an HSVRM number (the demo data gives members one).
  const firstRow = grid.locator("tbody tr").first();
  await expect(firstRow.locator("td").first()).toHaveText(/^HSV-\d+$/);
  const countThisYear = Number((await grid.getByRole("heading", { level: 1 }).textContent())!.match(/\((\d+)\)/)![1]);

  await toggles.getByRole("link", { name: String(year - 10) }).click();
  await expect(page).toHaveURL(new RegExp(`year=${year - 10}`));
  await expect(toggles.getByRole("link", { name: String(year - 10) })).toHaveAttribute("aria-current", "true");
  const countThen = Number((await grid.getByRole("heading", { level: 1 }).textContent())!.match(/\((\d+)\)/)![1]);
  // Ten years ago fewer had joined (memberships in the demo data begin over the last fifteen years).
  expect(countThen).toBeLessThan(countThisYear);

  // The file itself (the year's rows, German headers, real dates, named after the club and the
  // year) is the server's: tests/integration/club-lists.test.ts. Here: the link asks for the year shown.
  await expect(grid.getByRole("link", { name: "Excel-Export" })).toHaveAttribute("href", new RegExp(`/hsvrmlist/export\\?.*year=${year - 10}`));
});

test("Geburtstags-Liste: from today on, the age turned, toggles for the month and for everyone", async ({ page, openAs }) => {
  await openAs("gdpr", "/");
  await openFromListen(page, "Geburtstags-Liste");
  const grid = page.getByRole("region", { name: "Geburtstags-Liste" });
  await expect(grid.getByRole("heading", { level: 1 })).toHaveText(/^Geburtstags-Liste \(\d+\)$/);
  await grid.getByRole("group", { name: "Geburtstage im Zeitraum" }).getByRole("link", { name: "Alle" }).click();
  await expect(page).toHaveURL(/period=all/);
  // The dates run from today through the year: each row's birthday is on or after the one above.
  const dates = await grid.locator("tbody tr td:first-child").allTextContents();
  const days = dates.map((text) => {
    const [day, month, year] = text
      .replace(/^\S+, /, "")
      .split(".")
      .map(Number);
    return Date.UTC(year, month - 1, day);
  });
  expect(days.length).toBeGreaterThan(10);
  expect(days).toEqual([...days].sort((a, b) => a - b));
  const today = new Date();
  expect(days[0]).toBeGreaterThanOrEqual(Date.UTC(today.getFullYear(), today.getMonth(), today.getDate()) - 86_400_000);
  // A round birthday is named in its row.
  const ages = await grid.locator("tbody tr").evaluateAll((rows) => rows.map((row) => [row.children[3]?.textContent, row.children[4]?.textContent]));
  for (const [age, occasion] of ages) expect(occasion === "Runder Geburtstag").toBe(Number(age) % 10 === 0);

  const members = Number((await grid.getByRole("heading", { level: 1 }).textContent())!.match(/\((\d+)\)/)![1]);
  await grid.getByRole("group", { name: "Geburtstage von" }).getByRole("link", { name: "Alle Personen" }).click();
  await expect(page).toHaveURL(/who=everyone/);
  await expect(grid.getByRole("heading", { level: 1 })).not.toHaveText(`Geburtstags-Liste (${members})`);
  const everyone = Number((await grid.getByRole("heading", { level: 1 }).textContent())!.match(/\((\d+)\)/)![1]);
  expect(everyone).toBeGreaterThan(members);
});

// Staff refused both lists and their downloads: tests/integration/role-refusals.test.ts.
