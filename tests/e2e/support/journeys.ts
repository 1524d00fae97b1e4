/**
 * Steps the browser journeys share: unique names, waiting for hydration, the toast, opening a
 * row's dialog, choosing a person in a dialog, a person with a dog and saving a participant. One
 * place, so a changed screen is followed in one place.
 */
import { expect, request, test, type APIRequestContext, type APIResponse, type Locator, type Page } from "@playwright/test";

/** A name unique per run and per project (both projects share one database): no spaces. */
export const unique = (javaScriptEnabled: boolean, base: string) => `${base}${javaScriptEnabled ? "Js" : "Html"}${Date.now().toString(36)}`;

/** A free text unique per run and per project (a comment, a Betreff): words with spaces. */
export const uniqueText = (javaScriptEnabled: boolean, base: string) => `${base} ${javaScriptEnabled ? "js" : "html"} ${Date.now().toString(36)}`;

/** With JavaScript: until the page is hydrated (root.tsx marks <html data-hydrated>). */
export const waitForHydration = (page: Page, javaScriptEnabled: boolean) =>
  javaScriptEnabled ? page.locator("html[data-hydrated]").waitFor() : Promise.resolve();

/** The toast (role status). */
export const toast = (page: Page) => page.getByRole("status");

/** In a dialog's person lookup (app/dialogs/lookup.server.ts): searches `term` and chooses the
 *  first person found in the select named `label`. */
export async function chooseFirstPerson(dialog: Locator, label: string, term = "a") {
  await dialog.getByRole("textbox", { name: "Person suchen" }).fill(term);
  await dialog.getByRole("search", { name: "Person suchen" }).getByRole("button", { name: "Suchen" }).click();
  const person = dialog.getByRole("combobox", { name: label });
  await expect(person.locator("option").nth(1)).toBeAttached();
  await person.selectOption({ index: 1 });
}

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

/** A response read in full: what a test looks at, after its connection is gone. */
export type ReadResponse = {
  status(): number;
  headers(): Record<string, string>;
  body(): Promise<Buffer>;
  text(): Promise<string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as Playwright's own APIResponse.json()
  json(): Promise<any>;
};

/**
 * A GET of the test itself (not the browser's), on a connection of its own: a request context of
 * its own, with the page's cookies (or none), made for this request and closed after it. Playwright's
 * request contexts keep idle keep-alive connections and reuse them whatever the request's headers
 * say; when the server closes one at the same moment, the request fails with ECONNRESET ('socket
 * hang up') where a browser would send it again (microsoft/playwright#42698). A context of its own
 * has no idle connection to reuse.
 */
export function getOnOwnConnection(page: Page | undefined, path: string): Promise<ReadResponse> {
  return onOwnConnection(page, (context) => context.get(path));
}

/** Any request of the test on a connection of its own (see getOnOwnConnection), read in full. */
export async function onOwnConnection(page: Page | undefined, send: (context: APIRequestContext) => Promise<APIResponse>): Promise<ReadResponse> {
  const context = await request.newContext({
    baseURL: test.info().project.use.baseURL,
    storageState: page ? await page.context().storageState() : undefined,
  });
  try {
    const response = await send(context);
    const [status, headers, body] = [response.status(), response.headers(), await response.body()];
    return {
      status: () => status,
      headers: () => headers,
      body: async () => body,
      text: async () => body.toString("utf8"),
      json: async () => JSON.parse(body.toString("utf8")),
    };
  } finally {
    await context.dispose();
  }
}

/** The Berlin calendar date `days` before today ('YYYY-MM-DD'), as the app counts its days. */
export function berlinDaysAgo(days: number, now = new Date()): string {
  const today = new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Berlin" }).format(now);
  return new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}
