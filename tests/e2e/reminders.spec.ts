import { expect, test } from "@playwright/test";
import { loginAs } from "./support/login";

/**
 * Mahnwesen, Einstellungen: the three reminder levels saved with a fee typed the German way, and a
 * malformed one refused in German with nothing changed. (The run itself is in tasks.spec.ts: it
 * changes the club's books.)
 */
test("Einstellungen → Mahnwesen: levels saved, a malformed fee refused in German", async ({ page, javaScriptEnabled }) => {
  await loginAs(page, "admin", "/configuration");
  const form = page.getByRole("form", { name: "Mahnwesen" });
  await expect(form).toBeVisible();
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  const second = form.getByRole("group", { name: "Stufe 2: 1. Mahnung" });
  const save = form.getByRole("button", { name: "Mahnstufen übernehmen" });

  // Malformed: refused (without JavaScript by the server, with it already in the browser).
  await second.getByLabel("Mahngebühr").fill("5.5");
  await save.click();
  await expect(form.getByText("Bitte einen Betrag wie 1.234,56 eingeben")).toBeVisible();

  // Both browser projects share these levels: a save that meets the other one's is refused with
  // the current values shown, and typed in again, as a user would.
  for (let attempt = 0; attempt < 3; attempt++) {
    await second.getByLabel("Mahngebühr").fill("7,50");
    await second.getByLabel("Tage bis zur Mahnung").fill("10");
    await save.click();
    const outcome = await Promise.race([
      page.getByRole("status").filter({ hasText: "Mahnstufen wurden gespeichert" }).waitFor().then(() => "saved"),
      page.getByText(/Die Mahnstufen wurden inzwischen/).waitFor().then(() => "conflict"),
    ]);
    if (outcome === "saved") break;
  }
  await expect(page.getByRole("status").filter({ hasText: "Mahnstufen wurden gespeichert" })).toBeVisible();
  await expect(second.getByLabel("Mahngebühr")).toHaveValue("7,50");
  await expect(second.getByLabel("Tage bis zur Mahnung")).toHaveValue("10");
  await expect(form.getByRole("group", { name: "Stufe 1: Zahlungserinnerung" }).getByLabel("Mail-Vorlage")).toHaveValue("Zahlungserinnerung (Mahnlauf)");
});
