import { expect, test } from "@playwright/test";
import { noAxeViolations, signInMailsTo } from "./support/portal";
import { testDataFor } from "./support/test-data";

/**
 * Mein Wuff (issue 32 item 1) as a member finds it on the phone: the address typed in, the link
 * from the mail (maildev), its page's button, whom to act for (a family shares the address),
 * signed in, signed out. With JavaScript and without.
 */

test("Mein Wuff: sign in with the link from the mail on a phone, and sign out", async ({ page, javaScriptEnabled }) => {
  const person = (await testDataFor(javaScriptEnabled)).portalPerson;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/mein");
  await expect(page.getByRole("heading", { level: 1, name: "Bei Mein Wuff anmelden" })).toBeVisible();
  await noAxeViolations(page, javaScriptEnabled);
  await page.getByLabel("E-Mail-Adresse").fill(person.email);
  await page.getByRole("button", { name: "Anmeldelink anfordern" }).click();
  await expect(page.getByRole("status")).toHaveText(/^Wenn die Adresse bei uns bekannt ist, ist jetzt ein Anmeldelink an sie unterwegs\./);

  // The mail leaves after the answer: wait until it is there, as the member waits for it.
  await expect.poll(async () => (await signInMailsTo(person.email)).length, { timeout: 30_000 }).toBe(1);
  const [mail] = await signInMailsTo(person.email);
  const link = /http:\/\/\S+\/mein\/link\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0];

  await page.goto(link);
  await noAxeViolations(page, javaScriptEnabled);
  await page.getByRole("button", { name: "Jetzt anmelden" }).click();
  // A family shares the address: first whom the portal acts for.
  await expect(page.getByRole("heading", { level: 1, name: "Für wen möchtest du handeln?" })).toBeVisible();
  await noAxeViolations(page, javaScriptEnabled);
  await expect(page.getByRole("button", { name: `Paul ${person.lastName}` })).toBeVisible();
  await page.getByRole("button", { name: `${person.firstName} ${person.lastName}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Hallo ${person.firstName}` })).toBeVisible();
  await expect(page.getByText(`Du bist bei Mein Wuff angemeldet für ${person.firstName} ${person.lastName}.`)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await noAxeViolations(page, javaScriptEnabled);

  // The same link a second time: refused in German.
  await page.goto(link);
  await page.getByRole("button", { name: "Jetzt anmelden" }).click();
  await expect(page.getByRole("alert")).toContainText("Dieser Anmeldelink gilt nicht (mehr)");

  await page.goto("/mein");
  await page.getByRole("button", { name: "Abmelden" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Du bist abgemeldet." })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Bei Mein Wuff anmelden" })).toBeVisible();
});
