import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { getOnOwnConnection } from "./support/journeys";

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

test("the started app has demo data in the database", async ({ page, openAs, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "an API request: the browser's JavaScript setting does not matter");
  // The public liveness answer says only that Wuff runs; the counts are in ADMIN's self-test.
  const live = await getOnOwnConnection(page, "/api/public/test");
  expect(live.status()).toBe(200);
  expect(await live.json()).toEqual({ message: "Wuff läuft." });
  await openAs("admin", "/");
  const response = await getOnOwnConnection(page, "/api/protected/test");
  expect(response.status()).toBe(200);
  const body = await response.json();
  // The demo data (150 people) is there; parallel tests may have added some since.
  expect(Number(/(\d+) Personen/.exec(body.checks.d1.detail)?.[1])).toBeGreaterThanOrEqual(150);
  expect(body.checks.r2.ok).toBe(true);
  expect(body.checks.queue.ok).toBe(true);
});

test("the real worker runs its cron trigger on request", async ({ javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "an API request: the browser's JavaScript setting does not matter");
  const response = await getOnOwnConnection(undefined, "/__scheduled?cron=0+6+*+*+*");
  expect(response.status()).toBe(200);
  expect(await response.text()).toBe("Ran scheduled event");
});

// The Startseite of logged-in staff: the panels a role may see, each entry a link into its screen.
const PANELS = {
  courseDates: "Kurstermine heute und morgen",
  overCapacity: "Kurse über der Teilnehmerzahl",
  rabies: "Tollwutimpfung läuft ab",
  birthdays: /^Geburtstage diese Woche/,
  fees: "Offene Posten",
  lastJob: "Letzter Lauf",
};
const panelHeading = (page: Page, name: string | RegExp) => page.getByRole("region", { name: "Auf einen Blick" }).getByRole("heading", { level: 2, name });

async function expectNoSidewaysScrolling(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expect(panelHeading(page, PANELS.courseDates)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // One column: every card starts at the same left edge.
  const lefts = await page.locator("[data-panel]").evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().left)));
  expect(new Set(lefts).size).toBe(1);
}

test("the admin's home page: every panel, the open fees' sum leads to the Kontenblatt's open items", async ({ page, openAs }) => {
  await openAs("admin", "/");
  await expect(page.getByRole("heading", { level: 1, name: "Willkommen bei Wuff!" })).toBeVisible();
  await expect(page.getByText("Du bist noch nicht eingeloggt.")).toHaveCount(0);
  for (const name of Object.values(PANELS)) await expect(panelHeading(page, name)).toBeVisible();
  // Each card holds entries or says in German that it has none.
  for (const card of await page.locator("[data-panel]").all()) await expect(card.locator("li, p").first()).toBeVisible();

  const open = page.locator('[data-panel="fees"]').getByRole("link", { name: /^Offen: [\d.]+,\d\d\s€$/ });
  await expect(open).toHaveAttribute("href", "/fees?state=open");
  await open.click();
  await expect(page).toHaveURL(/\/fees\?state=open$/);
  await expect(page.getByRole("heading", { name: /^Kontenblatt/ }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Nur offene" })).toHaveAttribute("aria-current", "true");

  await expectNoSidewaysScrolling(page);
});

test("staff see the course panels only, and an entry opens its screen", async ({ page, openAs }) => {
  await openAs("staff", "/");
  for (const name of [PANELS.courseDates, PANELS.overCapacity, PANELS.rabies]) await expect(panelHeading(page, name)).toBeVisible();
  for (const name of [PANELS.birthdays, PANELS.fees, PANELS.lastJob]) await expect(panelHeading(page, name)).toHaveCount(0);
  await expect(page.locator('a[href^="/fees"], a[href="/tasks"], a[href^="/birthdaylist"]')).toHaveCount(0);

  // The demo data's running courses have dogs whose vaccination runs out (or ran out): one opens its dog.
  const dog = page.locator('[data-panel="rabies"] li a').first();
  const name = (await dog.textContent())!.replace(/ \(.*\)$/, "");
  const href = (await dog.getAttribute("href"))!;
  expect(href).toMatch(/^\/dogs\/\d+$/);
  await dog.click();
  await expect(page).toHaveURL(new RegExp(`${href}(/coursememberships)?$`));
  await expect(page.locator("tbody tr[aria-selected='true']").first()).toContainText(name);

  await expectNoSidewaysScrolling(page);
});

test("printed, the home page is its cards: no menus, no 'alle anzeigen'", async ({ page, openAs }) => {
  await openAs("admin", "/");
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("banner")).toBeHidden();
  await expect(panelHeading(page, PANELS.courseDates)).toBeVisible();
  await expect(panelHeading(page, PANELS.fees)).toBeVisible();
  await expect(page.getByRole("link", { name: "alle anzeigen" })).toBeHidden();
});
