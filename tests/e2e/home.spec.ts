import { expect, test } from "@playwright/test";

test("the home page greets anonymous visitors in German", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Willkommen bei Wuff!" })).toBeVisible();
  await expect(page.getByText("Du bist noch nicht eingeloggt.")).toBeVisible();
  await expect(page.locator("header")).toContainText("Wuff");
  await expect(page).toHaveTitle("Wuff");
});

test("an unknown path leads home", async ({ page }) => {
  await page.goto("/gibt-es-nicht");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Willkommen bei Wuff!" })).toBeVisible();
});

test("the started app has demo data in the database", async ({ request, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "an API request: the browser's JavaScript setting does not matter");
  const response = await request.get("/api/public/test");
  expect(response.status()).toBe(200);
  const body = await response.json();
  // The demo data (150 people) is there; parallel tests may have added some since.
  expect(Number(/(\d+) Personen/.exec(body.checks.d1.detail)?.[1])).toBeGreaterThanOrEqual(150);
  expect(body.checks.r2.ok).toBe(true);
  expect(body.checks.queue.ok).toBe(true);
});

test("the real worker runs its cron trigger on request", async ({ request, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "an API request: the browser's JavaScript setting does not matter");
  const response = await request.get("/__scheduled?cron=0+6+*+*+*");
  expect(response.status()).toBe(200);
  expect(await response.text()).toBe("Ran scheduled event");
});
