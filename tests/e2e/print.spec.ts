import { expect, test } from "./support/fixtures";

// Every test here starts logged in as staff (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "staff" });

/** Width of an A4 sheet inside 12 mm margins, in CSS pixels (186 mm at 96 dpi). */
const A4_CONTENT_WIDTH = 703;

test("a printed list: no menus or toolbars, every row of the page, readable on A4", async ({ page }) => {
  await page.goto("/people");
  const grid = page.getByRole("region", { name: "Personen" });
  const rows = grid.locator("tbody tr");
  await expect(rows.nth(20)).toBeVisible();
  const rowCount = await rows.count();
  // On screen the list is a scroll box that shows only part of the page's rows.
  await expect(rows.last()).not.toBeInViewport();

  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("banner")).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Hauptmenü" })).toBeHidden();
  await expect(grid.getByRole("toolbar")).toBeHidden();
  await expect(grid.getByRole("link", { name: "Weiter ›" })).toBeHidden();
  await expect(page.getByRole("separator", { name: "Aufteilung ändern" })).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Bereiche der Person" })).toBeHidden();
  // What the list holds stays: the title with its count, the chosen toggle, the rows shown.
  await expect(grid.getByRole("heading", { name: /^Personen \(\d+\)$/ })).toBeVisible();
  await expect(grid.getByRole("link", { name: "Alle" })).toBeVisible();
  await expect(grid.getByRole("link", { name: "Nur Mitglieder" })).toBeHidden();
  await expect(grid.getByText(/^Zeilen 1–\d+ von \d+$/)).toBeVisible();

  // Every row of the page is laid out in full: no scroll box or fixed height clips the list.
  await expect(rows).toHaveCount(rowCount);
  const scrollBox = grid.locator("div:has(> table)");
  await expect(scrollBox).toHaveCSS("overflow-y", "visible");
  await expect(scrollBox).toHaveCSS("max-height", "none");
  await expect(grid.locator("thead")).toHaveCSS("position", "static");
  const clippedBy = await rows.last().evaluate((row) => {
    const clipping: string[] = [];
    for (let element = row.parentElement; element; element = element.parentElement) {
      const style = getComputedStyle(element);
      if ((style.overflowY !== "visible" || style.overflowX !== "visible") && element.scrollHeight > element.clientHeight + 1) clipping.push(element.tagName);
    }
    return clipping;
  });
  expect(clippedBy).toEqual([]);
  const lastRow = (await rows.last().boundingBox())!;
  expect(lastRow.y + lastRow.height).toBeLessThanOrEqual(await page.evaluate(() => document.documentElement.scrollHeight));

  // Readable on A4: 8 pt cells that wrap, so no column is cut off at the sheet's edge.
  await expect(rows.first().locator("td").first()).toHaveCSS("font-size", /^10\.66\d*px$/);
  await page.setViewportSize({ width: A4_CONTENT_WIDTH, height: 1000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(A4_CONTENT_WIDTH);
  const table = (await grid.locator("table").boundingBox())!;
  expect(table.x + table.width).toBeLessThanOrEqual(A4_CONTENT_WIDTH);

  // Printed for real: the page's rows run onto a second A4 sheet instead of ending with the box.
  const pdf = (await page.pdf({ format: "A4" })).toString("latin1");
  expect(pdf.match(/\/Type\s*\/Page[^s]/g)?.length ?? 0).toBeGreaterThanOrEqual(rowCount >= 40 ? 2 : 1);
});

// Phone numbers and e-mail addresses as tel: and mailto: links, in the grid and the dialog:
// tests/integration/people.test.ts ('contact at a tap').

test("the printed Kursblatt: the course in the title and its participants, no menus or course choice", async ({ page }) => {
  await page.goto("/courseSheet");
  const select = page.getByLabel("Kurs", { exact: true });
  const course = (await select.locator("option:checked").textContent())!.trim();
  const participants = page.getByRole("region", { name: `Teilnehmer für '${course}'` });
  await expect(participants.locator("tbody tr").first()).toBeVisible();

  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Kursblatt: ${course}`);
  await expect(page.getByRole("navigation", { name: "Hauptmenü" })).toBeHidden();
  await expect(select).toBeHidden();
  await expect(participants.getByRole("toolbar")).toBeHidden();
  await expect(participants.locator("tbody tr").first()).toBeVisible();
});
