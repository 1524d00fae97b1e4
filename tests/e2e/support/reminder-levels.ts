import { type Locator, type Page } from "@playwright/test";

/**
 * Einstellungen → Mahnwesen: types `fill` into the form and presses 'Mahnstufen übernehmen' until
 * the save is confirmed. Both browser projects save these levels: a save that meets the other
 * one's is refused with the current values shown (the rowVersion check), and typed in again, as a
 * user would (at most three times).
 */
export async function saveReminderLevels(page: Page, fill: (form: Locator) => Promise<void>): Promise<void> {
  const form = page.getByRole("form", { name: "Mahnwesen" });
  for (let attempt = 0; attempt < 3; attempt++) {
    await fill(form);
    await form.getByRole("button", { name: "Mahnstufen übernehmen" }).click();
    const outcome = await Promise.race([
      page
        .getByRole("status")
        .filter({ hasText: "Mahnstufen wurden gespeichert" })
        .waitFor()
        .then(() => "saved"),
      page
        .getByText(/Die Mahnstufen wurden inzwischen/)
        .waitFor()
        .then(() => "conflict"),
    ]);
    if (outcome === "saved") return;
  }
}
