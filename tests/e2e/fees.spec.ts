import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { chooseFirstPerson, toast, uniqueText } from "./support/journeys";
import { readSheet } from "read-excel-file/node";

// Every test here starts logged in as finance (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "finance" });

const count = async (page: Page) => Number((await page.getByRole("heading", { level: 1 }).textContent())!.match(/\(([\d.]+)\)/)![1].replaceAll(".", ""));

test("Kontenblatt: both toggle groups and the sums, a fee through the dialog's rules, Kontenblatt.xlsx", async ({ page, javaScriptEnabled }, testInfo) => {
  const text = uniqueText(javaScriptEnabled, "Leine");
  await page.goto("/fees");
  const grid = page.getByRole("region", { name: "Kontenblatt" });
  const footer = grid.locator("tfoot");
  await expect(footer).toContainText("€");

  // Toggle groups: payment state and billing. What each filter shows is checked on its rows (the
  // other project of this run changes fees in the same database meanwhile, so counts read one
  // after the other need not agree).
  const state = grid.getByRole("group", { name: "Offene Posten nach Zahlung filtern" });
  const billing = grid.getByRole("group", { name: "Offene Posten nach Rechnung filtern" });
  const cells = async (header: string) => grid.locator(`tbody tr td:nth-child(${(await headerIndex(page, header)) + 1})`);
  await state.getByRole("link", { name: "Nur offene" }).click();
  await expect(state.getByRole("link", { name: "Nur offene" })).toHaveAttribute("aria-current", "true");
  await billing.getByRole("link", { name: "Nur ohne Rechnung" }).click();
  await expect(billing.getByRole("link", { name: "Nur ohne Rechnung" })).toHaveAttribute("aria-current", "true");
  expect(await count(page)).toBeGreaterThan(0);
  expect(await (await cells("Offener Betrag")).allTextContents()).not.toContain("0,00 €");
  for (const box of await (await cells("Berechnet")).getByRole("checkbox").all()) await expect(box).not.toBeChecked();
  await expect((await cells("Offen")).getByRole("checkbox", { checked: false })).toHaveCount(0);
  await billing.getByRole("link", { name: "Alle" }).click();
  await expect(billing.getByRole("link", { name: "Alle" })).toHaveAttribute("aria-current", "true");
  await expect((await cells("Offen")).getByRole("checkbox", { checked: false })).toHaveCount(0);
  await state.getByRole("link", { name: "Nur bezahlte" }).click();
  await expect(state.getByRole("link", { name: "Nur bezahlte" })).toHaveAttribute("aria-current", "true");
  await expect(grid.locator("tfoot")).toContainText("0,00 €");
  await expect((await cells("Offen")).getByRole("checkbox", { checked: true })).toHaveCount(0);
  await state.getByRole("link", { name: "Nur fällige" }).click();
  await expect(state.getByRole("link", { name: "Nur fällige" })).toHaveAttribute("aria-current", "true");
  expect((await (await cells("Fällig am")).allTextContents()).map((text) => text.trim())).not.toContain("");
  await state.getByRole("link", { name: "Alle" }).click();
  await expect(state.getByRole("link", { name: "Alle" })).toHaveAttribute("aria-current", "true");

  // Add a fee collected directly, not yet paid.
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await grid.getByRole("link", { name: "Hinzufügen" }).click();
  const add = page.getByRole("dialog", { name: "Offenen Posten hinzufügen" });
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await chooseFirstPerson(add, "Person");
  await add.getByLabel("Text").fill(text);
  await add.getByLabel("Betrag", { exact: true }).fill("12,50");
  await add.getByLabel("Per Rechnung").uncheck();
  await add.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Offener Posten wurde angelegt");
  const row = grid.locator("tbody tr", { hasText: text });
  await expect(row).toHaveAttribute("aria-selected", "true");
  await expect(row).toContainText("12,50 €");

  // Edit: unticking Offen sets the open amount to 0 and clears the due date; a Buchungskommentar.
  if (javaScriptEnabled) await row.dblclick();
  else await grid.getByRole("link", { name: "Bearbeiten" }).click();
  const edit = page.getByRole("dialog", { name: `Offenen Posten '${text}' bearbeiten` });
  await expect(edit.getByLabel("Offener Betrag")).toHaveValue("12,50");
  await edit.getByLabel("Fällig am").fill("01.12.2026");
  await edit.getByLabel("Offen", { exact: true }).uncheck();
  if (javaScriptEnabled) await expect(edit.getByLabel("Offener Betrag")).toHaveCount(0);
  await edit.getByLabel(/^Buchungskommentar/).fill("bar bezahlt");
  await edit.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Offener Posten wurde gespeichert");
  await expect(row.locator("td").nth(await headerIndex(page, "Offener Betrag"))).toHaveText("0,00 €");
  await expect(row).toContainText("bar bezahlt");
  await expect(row.locator("td").nth(await headerIndex(page, "Fällig am"))).toHaveText("");

  // Kontenblatt.xlsx with the sums
  const [download] = await Promise.all([page.waitForEvent("download"), grid.getByRole("link", { name: "Excel-Export" }).click()]);
  expect(download.suggestedFilename()).toBe("Kontenblatt.xlsx");
  const file = testInfo.outputPath("Kontenblatt.xlsx");
  await download.saveAs(file);
  const sheet = await readSheet(file);
  // Header, the fees (the other project may add or delete some meanwhile: ours must be there), Summe.
  expect(sheet.slice(1, -1).some((line) => line.includes(text))).toBe(true);
  expect(sheet.length).toBeGreaterThan(3);
  expect(sheet.at(-1)![0]).toBe("Summe");
  expect(typeof sheet.at(-1)![sheet[0].indexOf("Betrag")]).toBe("number");
});

async function headerIndex(page: Page, header: string) {
  const headers = (await page.getByRole("region", { name: "Kontenblatt" }).getByRole("columnheader").allTextContents()).map((text) =>
    text.replace(/[▲▼]/g, "").trim(),
  );
  return headers.indexOf(header);
}
