import { expect, type Page } from "@playwright/test";

export type DemoUser = "admin" | "finance" | "gdpr" | "staff";

export const DEMO_NAMES: Record<DemoUser, string> = {
  admin: "Anna Admin",
  finance: "Fritz Finanz",
  gdpr: "Dana Datenschutz",
  staff: "Sven Mitarbeiter",
};

/** Logs in through the local provider's form, starting from `path` (which needs a login). */
export async function loginAs(page: Page, user: DemoUser, path = "/people") {
  await page.goto(path);
  await expect(page.getByRole("heading", { name: "Bei Wuff anmelden" })).toBeVisible();
  await page.getByLabel("Benutzername").fill(user);
  await page.getByLabel("Passwort").fill("wuff");
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page.getByText(`Willkommen, ${DEMO_NAMES[user]}`)).toBeVisible();
}

/** Logs out with the top bar button; without JavaScript the provider asks for one more click. */
export async function logout(page: Page, javaScriptEnabled: boolean) {
  await page.getByRole("button", { name: "Abmelden" }).click();
  if (!javaScriptEnabled) {
    await expect(page.getByRole("heading", { name: "Von Wuff abmelden" })).toBeVisible();
    await page.getByRole("button", { name: "Abmelden" }).click();
  }
  await expect(page.getByText("Du bist noch nicht eingeloggt.")).toBeVisible();
}
