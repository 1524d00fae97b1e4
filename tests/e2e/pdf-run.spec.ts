import { expect, test } from "@playwright/test";
import { loginAs } from "./support/login";
import { waitForHydration } from "./support/journeys";

/**
 * 'PDFs erzeugen' from Tasks (ADMIN): the confirmation says how many invoices have no PDF, the run
 * is followed to 'Fertig! Es wurden {n} Pdfs erzeugt', and then no invoice is without a PDF. It
 * gives every invoice a PDF: its own projects run it after the Tasks runs (tests/playwright.config.ts).
 */

test("PDFs erzeugen from Tasks, followed to the end", async ({ page, javaScriptEnabled }) => {
  test.setTimeout(180_000);
  await loginAs(page, "admin", "/tasks");
  await waitForHydration(page, javaScriptEnabled);
  const card = page.getByRole("region", { name: "PDFs erzeugen" });
  await card.getByRole("link", { name: "PDFs erzeugen …" }).click();
  let dialog = page.getByRole("dialog", { name: "PDFs erzeugen" });
  await expect(dialog).toContainText(/noch kein PDF|schon ein PDF/);
  await dialog.getByRole("button", { name: "PDFs erzeugen" }).click();
  await expect(page.getByText(/^(PDFs erzeugen gestartet: Pdfs werden vorbereitet \.\.\.|Fertig! Es wurden 0 Pdfs erzeugt)$/).first()).toBeVisible();
  const result = card.getByRole("status", { name: "Ergebnis PDFs erzeugen" });
  await expect(result).toHaveText(/^Fertig! Es wurden \d+ Pdfs erzeugt$/, { timeout: 120_000 });

  // Every invoice has its PDF now: the confirmation says there is nothing to do.
  await waitForHydration(page, javaScriptEnabled);
  await card.getByRole("link", { name: "PDFs erzeugen …" }).click();
  dialog = page.getByRole("dialog", { name: "PDFs erzeugen" });
  await expect(dialog).toContainText("schon ein PDF: Es ist nichts zu erzeugen.");
});
