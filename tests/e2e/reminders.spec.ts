import { expect, test } from "@playwright/test";
import { loginAs } from "./support/login";
import { saveReminderLevels } from "./support/reminder-levels";
import { unsentReminderFor } from "./support/test-data";

/**
 * Mahnwesen, Einstellungen: the three reminder levels saved with a fee typed the German way, and a
 * malformed one refused in German with nothing changed; beside the fees, why they are the actual
 * costs (issue 31). (The run itself is in tasks.spec.ts: it
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
  await second.getByLabel("Mahngebühr per Brief").fill("5.5");
  await save.click();
  await expect(form.getByText("Bitte einen Betrag wie 1.234,56 eingeben")).toBeVisible();

  await saveReminderLevels(page, async () => {
    await second.getByLabel("Mahngebühr per Brief").fill("7,50");
    await second.getByLabel("Tage bis zur Mahnung").fill("10");
  });
  await expect(page.getByRole("status").filter({ hasText: "Mahnstufen wurden gespeichert" })).toBeVisible();
  await expect(second.getByLabel("Mahngebühr per Brief")).toHaveValue("7,50");
  await expect(second.getByLabel("Tage bis zur Mahnung")).toHaveValue("10");
  await expect(form.getByRole("group", { name: "Stufe 1: Zahlungserinnerung" }).getByLabel("Mail-Vorlage")).toHaveValue("Zahlungserinnerung (Mahnlauf)");
  await expect(second.getByLabel("Mahngebühr per Mail")).toHaveValue(/^\d+,\d\d$/);
  await expect(form).toContainText("nicht durchsetzbar, wenn sie den zu erwartenden Schaden übersteigt (§ 309 Nr. 5 BGB)");
});

/**
 * Mahnungen, the declared grid: the history under a person and in a fee's dialog, and
 * 'Stornieren' of a reminder whose letter was not sent.
 */
test("Mahnungen: history under the person and under a fee; an unsent reminder cancelled with its fee", async ({ page, javaScriptEnabled }) => {
  // Made before the parallel tests (tests/e2e/test-data.setup.ts): every run sends its letters.
  const { lastName, text, personId, feeId } = await unsentReminderFor(javaScriptEnabled);

  // Under the person: the tab 'Mahnungen', both reminders of the fee.
  await loginAs(page, "finance", `/people/${personId}/reminders`);
  const ofPerson = page.getByRole("region", { name: `Mahnungen an Greta ${lastName}` });
  await expect(ofPerson.locator("tbody tr")).toHaveCount(2);
  await expect(ofPerson.getByRole("cell", { name: "Zahlungserinnerung" })).toBeVisible();
  await expect(ofPerson.getByRole("link", { name: "Stornieren" })).toHaveCount(1);

  // Under the fee: its dialog in the person's Kontenblatt shows the same two, with the sent one's
  // channel and only the unsent one to cancel.
  await page.goto(`/people/${personId}/fees?dialog=fee-edit&dialogId=${feeId}`);
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  const dialog = page.getByRole("dialog", { name: `Offenen Posten '${text}' bearbeiten` });
  const ofFee = dialog.getByRole("region", { name: "Mahnungen zu diesem Posten" });
  await expect(ofFee.locator("tbody tr")).toHaveCount(2);
  await expect(ofFee.locator("tbody tr", { hasText: "Zahlungserinnerung" })).toContainText("Post");
  const pending = ofFee.locator("tbody tr", { hasText: "1. Mahnung" });
  await expect(pending).toContainText("5,00 €");
  await pending.getByRole("link", { name: "Stornieren" }).click();

  // The kit's confirmation; confirmed, the reminder and its fee are cancelled.
  const confirm = page.getByRole("dialog", { name: "1. Mahnung vom 20.10.2026 stornieren" });
  await expect(confirm).toContainText("Die Mahngebühr von 5,00 € wird mit storniert.");
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
  await confirm.getByRole("button", { name: "Ja, stornieren" }).click();
  await expect(page.getByRole("status").filter({ hasText: `1. Mahnung zu ${text} wurde storniert` })).toBeVisible();
  await expect(confirm).toBeHidden();

  await page.goto(`/people/${personId}/reminders`);
  await expect(ofPerson.locator("tbody tr", { hasText: "1. Mahnung" })).toContainText("storniert");
  await expect(ofPerson.getByRole("link", { name: "Stornieren" })).toHaveCount(0);
  await page.goto(`/people/${personId}/fees`);
  const kontenblatt = page.getByRole("region", { name: `Kontenblatt für Greta ${lastName}` });
  await expect(kontenblatt.locator("tbody tr", { hasText: `Mahngebühr ${lastName} (storniert)` })).toContainText("0,00 €");
});
