import { expect, test, type Locator, type Page } from "@playwright/test";
import { readSheet } from "read-excel-file/node";
import { nameSortKey } from "../../app/lib/collation";
import { loginAs } from "./support/login";

/** Adds a non-member through the person dialog (with and without JavaScript). */
async function addPerson(page: Page, grid: Locator, firstName: string, lastName: string) {
  await grid.getByRole("link", { name: "Hinzufügen" }).click();
  const dialog = page.getByRole("dialog", { name: "Person hinzufügen" });
  await dialog.getByLabel("Anrede").selectOption("Frau");
  await dialog.getByLabel("Vorname", { exact: true }).fill(firstName);
  await dialog.getByLabel("Nachname", { exact: true }).fill(lastName);
  await dialog.getByLabel("Mitgliedsart").selectOption({ label: "Kein Mitglied" });
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByRole("status")).toHaveText("Person wurde angelegt");
  await expect(grid.locator("tbody tr[aria-selected='true']")).toContainText(lastName);
}

/** Last and first name of every row of the list, page by page (50 rows a page) from the first,
 *  where the grid must be. */
async function wholeList(grid: Locator): Promise<string[][]> {
  const pages = grid.getByRole("navigation", { name: "Personen: Seiten" });
  const position = async () => {
    const match = ((await pages.textContent()) ?? "").match(/Seite (\d+) von (\d+)/);
    return match ? [Number(match[1]), Number(match[2])] : [1, 1];
  };
  let [page, last] = await position();
  expect(page).toBe(1);
  const rows: string[][] = [];
  for (;;) {
    rows.push(
      ...(await grid
        .locator("tbody tr")
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].slice(0, 2).map((td) => td.textContent?.trim() ?? "")))),
    );
    if (page >= last) return rows;
    await pages.getByRole("link", { name: /Weiter/ }).click();
    await expect(pages).toContainText(`Seite ${++page} von`);
    [page, last] = await position();
  }
}

/** Every DIN 5007 key is at least the one before it. */
const inDinOrder = (names: string[]) => names.every((name, index) => index === 0 || nameSortKey(names[index - 1]) <= nameSortKey(name));

test("names sort by DIN 5007 in the grid and the export: Ärmel with A, before Zander", async ({ page, javaScriptEnabled }, testInfo) => {
  // A first name of this run and project (both projects share one database).
  const firstName = `Sortierprobe${javaScriptEnabled ? "Js" : "Html"}${Date.now().toString(36)}`;
  await loginAs(page, "admin", "/people?filter=nonmembers");
  const grid = page.getByRole("region", { name: "Personen" });
  await addPerson(page, grid, firstName, "Zander");
  await addPerson(page, grid, firstName, "Ärmel");
  // The list from its first page (no selected row that would keep it on that row's page).
  await page.goto("/people?filter=nonmembers");

  const header = grid.getByRole("columnheader", { name: /Nachname/ });
  const positionsOfOurs = (rows: string[][]) => ({
    armel: rows.findIndex(([last, first]) => last === "Ärmel" && first === firstName),
    zander: rows.findIndex(([last, first]) => last === "Zander" && first === firstName),
  });
  // Sorted by Nachname already (the default); the header link turns it around and back.
  await header.getByRole("link").click();
  await expect(header).toHaveAttribute("aria-sort", "descending");
  const down = await wholeList(grid);
  expect(positionsOfOurs(down).zander).toBeGreaterThanOrEqual(0);
  expect(positionsOfOurs(down).zander).toBeLessThan(positionsOfOurs(down).armel);
  expect(inDinOrder(down.map(([last]) => last).reverse())).toBe(true);

  await header.getByRole("link").click();
  await expect(header).toHaveAttribute("aria-sort", "ascending");
  await expect(page).toHaveURL(/filter=nonmembers/);
  const up = await wholeList(grid);
  expect(positionsOfOurs(up).armel).toBeGreaterThanOrEqual(0);
  expect(positionsOfOurs(up).armel).toBeLessThan(positionsOfOurs(up).zander);
  expect(inDinOrder(up.map(([last]) => last))).toBe(true);

  // The export has the grid's order.
  const [download] = await Promise.all([page.waitForEvent("download"), grid.getByRole("link", { name: "Excel-Export" }).click()]);
  const file = testInfo.outputPath("Mitgliederliste.xlsx");
  await download.saveAs(file);
  const [headers, ...rows] = await readSheet(file);
  const lastNameColumn = headers.indexOf("Nachname");
  const firstNameColumn = headers.indexOf("Vorname");
  const exported = rows.map((row) => String(row[lastNameColumn]));
  expect(inDinOrder(exported)).toBe(true);
  const ours = rows.filter((row) => row[firstNameColumn] === firstName).map((row) => row[lastNameColumn]);
  expect(ours).toEqual(["Ärmel", "Zander"]);
});
