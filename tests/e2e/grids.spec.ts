import { type Locator } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { waitForHydration } from "./support/journeys";
import { testDataFor } from "./support/test-data";

/** How a name search compares (DIN 5007, umlauts either way): app/lib/collation.ts nameSearchKey. */
const fold = (text: string) =>
  text.toLowerCase().replace(/ä/g, "a").replace(/ö/g, "o").replace(/ü/g, "u").replace(/ß/g, "ss").replace(/ae/g, "a").replace(/oe/g, "o").replace(/ue/g, "u");

/** 'Müller' -> 'mueller': the way someone types it without umlauts. */
const spelledOut = (name: string) => name.toLowerCase().replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue").replace(/ß/g, "ss");

const countOf = async (grid: Locator) => Number((await grid.getByRole("heading", { level: 1 }).textContent())!.match(/\((\d+)\)/)![1]);

test("Personen and Hunde: the toolbar search finds names with umlauts either way, kept in the URL, a match selected", async ({
  page,
  openAs,
  javaScriptEnabled,
}) => {
  const lastName = (await testDataFor(javaScriptEnabled)).umlautName;
  const typed = spelledOut(lastName);
  await openAs("staff", "/people");
  const grid = page.getByRole("region", { name: "Personen" });
  const all = await countOf(grid);
  const box = grid.getByRole("search", { name: "Personen durchsuchen" }).getByRole("searchbox", { name: "Suchen" });
  await box.fill(typed);
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`[?&]q=${typed}(&|$)`));
  await expect(grid.getByRole("heading", { level: 1 })).not.toHaveText(`Personen (${all})`);
  const found = await countOf(grid);
  expect(found).toBeGreaterThan(0);
  const rows = grid.locator("tbody tr");
  await expect(rows).toHaveCount(Math.min(found, 50));
  for (const text of await rows.allTextContents()) expect(fold(text)).toContain(fold(typed));
  await expect(rows.filter({ hasText: lastName }).first()).toBeVisible();
  // The first match is selected and its tabs follow it; the box still says what was searched.
  await expect(rows.first()).toHaveAttribute("aria-selected", "true");
  const firstName = (await rows.first().locator("td").nth(1).textContent())!.trim();
  const surname = (await rows.first().locator("td").first().textContent())!.trim();
  await expect(page.getByRole("heading", { name: new RegExp(`^Hunde für ${firstName} ${surname} \\(\\d+\\)$`) })).toBeVisible();
  await expect(box).toHaveValue(typed);

  // Typed with its umlauts, in capitals: the same people.
  await box.fill(lastName.toUpperCase());
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(lastName.toUpperCase())}(&|$)`));
  await expect(grid.getByRole("heading", { level: 1 })).toHaveText(`Personen (${found})`);

  // A search with many matches: another one selected, the search and the list stay.
  await box.fill("er");
  await box.press("Enter");
  await expect(page).toHaveURL(/[?&]q=er(&|$)/);
  await expect(grid.getByRole("heading", { level: 1 })).not.toHaveText(`Personen (${found})`);
  const many = await countOf(grid);
  expect(many).toBeGreaterThan(1);
  await rows.nth(1).locator("td").first().getByRole("link").click();
  await expect(rows.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/\/people\/\d+\/[a-z]+\?q=er$/);
  // Still the search's list, not all people. (Its count is not compared with the one before: a
  // test running beside this one may add a person or erase one to 'Gelöschte Person', which
  // matches 'er' too.)
  await expect(grid.getByRole("heading", { level: 1 })).toHaveText(/^Personen \(\d+\)$/);
  expect(await countOf(grid)).toBeLessThan(all);
  await expect(box).toHaveValue("er");

  // Hunde: the owner's name finds their dogs, the same way.
  await page.goto("/dogs");
  const dogs = page.getByRole("region", { name: "Hunde" });
  const dogBox = dogs.getByRole("searchbox", { name: "Suchen" });
  await dogBox.fill(typed);
  await dogBox.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/dogs(/\\d+/[a-z]+)?\\?q=${typed}(&|$)`));
  const dogRows = dogs.locator("tbody tr");
  await expect(dogRows.first()).toHaveAttribute("aria-selected", "true");
  for (const text of await dogRows.allTextContents()) expect(fold(text)).toContain(fold(typed));
});

test("Kursteilnehmer: every course's participants from Listen, the courses' toggles, the Excel link, a row to edit", async ({
  page,
  openAs,
  javaScriptEnabled,
}) => {
  await openAs("staff", "/");
  await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: "Kursteilnehmer", exact: true }).click();
  await expect(page).toHaveURL(/\/coursememberships$/);
  const grid = page.getByRole("region", { name: "Kursteilnehmer" });
  await expect(grid.getByRole("heading", { level: 1 })).toHaveText(/^Kursteilnehmer \(\d+\)$/);
  const year = String(new Date().getFullYear());
  const years = grid.getByRole("group", { name: "Kurse nach Jahr filtern" });
  const status = grid.getByRole("group", { name: "Kurse nach Status filtern" });
  await expect(years.getByRole("link", { name: year })).toHaveAttribute("aria-current", "true");
  const thisYear = await countOf(grid);

  await years.getByRole("link", { name: "Alle" }).click();
  await expect(page).toHaveURL(/year=all/);
  await expect(grid.getByRole("heading", { level: 1 })).not.toHaveText(`Kursteilnehmer (${thisYear})`);
  const everyone = await countOf(grid);
  expect(everyone).toBeGreaterThan(thisYear);
  await status.getByRole("link", { name: "Nur abgeschlossene" }).click();
  await expect(page).toHaveURL(/status=closed/);
  await expect(page).toHaveURL(/year=all/);
  await expect(status.getByRole("link", { name: "Nur abgeschlossene" })).toHaveAttribute("aria-current", "true");
  await expect(grid.getByRole("heading", { level: 1 })).not.toHaveText(`Kursteilnehmer (${everyone})`);
  // The file is the server's (tests/integration/course-memberships.test.ts); the link asks for what is shown.
  const excel = grid.getByRole("link", { name: "Excel-Export" });
  await expect(excel).toHaveAttribute("href", /\/coursememberships\/export\?(?=.*status=closed)(?=.*year=all)/);

  // A participant selected and opened for editing: double click with JavaScript, Bearbeiten without.
  const row = grid.locator("tbody tr").nth(1);
  await row.locator("td a.block").click();
  await expect(row).toHaveAttribute("aria-selected", "true");
  if (javaScriptEnabled) await row.locator("td a.block").dblclick();
  else await grid.getByRole("link", { name: "Bearbeiten" }).click();
  const dialog = page.getByRole("dialog", { name: "Teilnehmer bearbeiten" });
  await expect(dialog).toBeVisible();
  await dialog
    .getByRole("link", { name: "Abbruch" })
    .or(dialog.getByRole("button", { name: "Abbruch" }))
    .click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/status=closed/);
});

// The menus, a row's tabs and a grid's sort headers, pager and toggles are plain anchors that
// their container follows within the app (app/components/plain-links.tsx): with JavaScript no
// click loads a document, without it each is the link it looks like. Either way the page shows
// what was chosen, marked for screen readers.
test("menu, tabs, sort headers, pager and toggles: followed within the app, plain links without JavaScript", async ({ page, openAs, javaScriptEnabled }) => {
  await openAs("staff", "/people");
  await waitForHydration(page, javaScriptEnabled);
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document" && request.frame() === page.mainFrame()) documents.push(request.url());
  });
  const grid = page.getByRole("region", { name: "Personen" });
  const header = (name: string) => grid.getByRole("columnheader", { name: new RegExp(`^${name}`) });

  await header("Vorname").getByRole("link").click();
  await expect(page).toHaveURL(/[?&]sort=firstName(&|$)/);
  await expect(header("Vorname")).toHaveAttribute("aria-sort", "ascending");
  await header("Vorname").getByRole("link").click();
  await expect(page).toHaveURL(/[?&]sort=-firstName(&|$)/);
  await expect(header("Vorname")).toHaveAttribute("aria-sort", "descending");

  const pager = page.getByRole("navigation", { name: "Personen: Seiten" });
  await pager.getByRole("link", { name: "Weiter ›" }).click();
  await expect(pager).toContainText("Seite 2 von");
  await pager.getByRole("link", { name: "‹ Zurück" }).click();
  await expect(pager).toContainText("Seite 1 von");

  const filter = grid.getByRole("group", { name: "Personen filtern" });
  await filter.getByRole("link", { name: "Nur Mitglieder" }).click();
  await expect(filter.getByRole("link", { name: "Nur Mitglieder" })).toHaveAttribute("aria-current", "true");
  await expect(filter.getByRole("link", { name: "Alle" })).not.toHaveAttribute("aria-current");

  const tabs = page.getByRole("navigation", { name: "Bereiche der Person" });
  await tabs.getByRole("link", { name: "Erfolge" }).click();
  await expect(page).toHaveURL(/\/people\/\d+\/certifications(\?|$)/);
  await expect(tabs.getByRole("link", { name: "Erfolge" })).toHaveAttribute("aria-current", "page");
  await expect(tabs.getByRole("link", { name: "Hunde" })).not.toHaveAttribute("aria-current");

  const menu = page.getByRole("navigation", { name: "Hauptmenü" });
  await menu.getByRole("link", { name: "Hunde", exact: true }).click();
  await expect(page).toHaveURL(/\/dogs(\/|$|\?)/);
  await expect(menu.getByRole("link", { name: "Hunde", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(menu.getByRole("link", { name: "Personen", exact: true })).not.toHaveAttribute("aria-current");

  // Seven clicks: without JavaScript seven documents (and the redirects some of them answer).
  if (javaScriptEnabled) expect(documents).toEqual([]);
  else expect(documents.length).toBeGreaterThanOrEqual(7);
});
