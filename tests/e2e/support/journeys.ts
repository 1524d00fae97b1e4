/**
 * Steps the browser journeys share: unique names, waiting for hydration, the toast, opening a
 * row's dialog, a person with a dog and saving a participant. One place, so a changed screen is
 * followed in one place.
 */
import { expect, type Locator, type Page } from "@playwright/test";

/** A name unique per run and per project (both projects share one database): no spaces. */
export const unique = (javaScriptEnabled: boolean, base: string) => `${base}${javaScriptEnabled ? "Js" : "Html"}${Date.now().toString(36)}`;

/** A free text unique per run and per project (a comment, a Betreff): words with spaces. */
export const uniqueText = (javaScriptEnabled: boolean, base: string) => `${base} ${javaScriptEnabled ? "js" : "html"} ${Date.now().toString(36)}`;

/** With JavaScript: until the page is hydrated (root.tsx marks <html data-hydrated>). */
export const waitForHydration = (page: Page, javaScriptEnabled: boolean) =>
  javaScriptEnabled ? page.locator("html[data-hydrated]").waitFor() : Promise.resolve();

/** The toast (role status). */
export const toast = (page: Page) => page.getByRole("status");

/** Opens the selected row's edit dialog: double click with JavaScript, the toolbar link without. */
export async function openEdit(grid: Locator, row: Locator, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await row.dblclick();
  else await grid.getByRole("link", { name: "Bearbeiten" }).click();
}

/**
 * A person with exactly one dog, through Mensch/Hund Mini+ (a non-member: the full price
 * applies). Returns the new person's id (the page shows them selected: /people/{id}/...).
 */
export async function personWithDog(page: Page, lastName: string, dogName: string) {
  await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: "Mensch/Hund Mini+" }).click();
  const dialog = page.getByRole("dialog", { name: "Mensch/Hund Mini+" });
  await dialog.getByLabel("Herr/Frau").selectOption({ label: "Frau" });
  await dialog.getByLabel("Besitzer Vorname").fill("Kira");
  await dialog.getByLabel("Besitzer Nachname").fill(lastName);
  await dialog.getByLabel("Hund Name").fill(dogName);
  await dialog.getByLabel("Hund Geschlecht").selectOption({ label: "weiblich" });
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(toast(page)).toHaveText("Person und Hund wurden hinzugefügt");
  await page.waitForURL(/\/people\/\d+\//);
  return Number(/\/people\/(\d+)\//.exec(page.url())![1]);
}

/**
 * Saves the participant dialog as a user would: Speichern, or 'Trotzdem buchen' where the chosen
 * demo course is full (the capacity warning disables Speichern; which courses are full depends on
 * what the other tests booked). The warning comes with the course's price, so call it once the
 * Betrag is shown.
 */
export async function saveParticipant(dialog: Locator) {
  const full = (await dialog.getByRole("alert", { name: "Kurs voll" }).count()) > 0;
  await dialog.getByRole("button", { name: full ? "Trotzdem buchen" : "Speichern" }).click();
}

/**
 * Options for a request of the test itself (`page.request`, `request`) that asks for a connection
 * of its own. Such a request otherwise reuses an idle keep-alive connection, and when the server
 * closes that one at the same moment, the request fails with ECONNRESET ('socket hang up'): a
 * browser sends an idempotent request again then, Playwright's request context does not.
 */
export function ownConnection<Options extends object>(options?: Options): Options & { headers: Record<string, string> } {
  const headers = (options as { headers?: Record<string, string> } | undefined)?.headers;
  return { ...options, headers: { ...headers, Connection: "close" } } as Options & { headers: Record<string, string> };
}
