import AxeBuilder from "@axe-core/playwright";
import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

// Every test here starts logged in as staff (one session per worker, tests/e2e/support/fixtures.ts).
test.use({ loggedInAs: "staff" });

/**
 * The handset views at 390 x 844, with JavaScript on and off: reached from the handset menu,
 * searching, no sideways scrolling, and every link and button a touch target of 44 px or more.
 */
test.use({ viewport: { width: 390, height: 844 } });

async function openFromHandsetMenu(page: Page, name: string) {
  await page.locator("summary[aria-label='Menü']").click();
  await page.getByRole("navigation", { name: "Mobiles Menü" }).getByRole("list").first().getByRole("link", { name, exact: true }).click();
}

/** No sideways scrolling, and the main area's links, buttons and fields are at least 44 px high. */
async function expectHandsetFriendly(page: Page) {
  // Measured only once the page's stylesheet has loaded: the heading can be there before it (a
  // trace showed the sizes of an unstyled page when the CSS request was still under way).
  await page.waitForLoadState("load");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const small = await page.locator("main").evaluate((main) =>
    [...main.querySelectorAll("a, button, input, select")]
      .filter((element) => (element as HTMLElement).offsetParent !== null)
      .map((element) => ({
        text: (element.textContent || element.getAttribute("aria-label") || "").trim().slice(0, 40),
        height: element.getBoundingClientRect().height,
      }))
      .filter((target) => target.height < 44),
  );
  expect(small).toEqual([]);
}

test("Personen: search by name, call and mail links, dogs with their rabies date", async ({ page }) => {
  await page.goto("/");
  await openFromHandsetMenu(page, "Personen");
  await expect(page).toHaveURL(/\/peoplemobile$/);
  await expect(page.getByRole("heading", { level: 1, name: "Personen" })).toBeVisible();
  const cards = page.getByRole("list", { name: "Personen" }).locator(":scope > li");
  await expect(cards.first()).toBeVisible();
  await expectHandsetFriendly(page);

  // Someone with a mobile number: searched by a part of their name.
  const card = cards.filter({ has: page.getByRole("link", { name: /^Mobil: / }) }).first();
  const name = (await card.getByRole("heading").textContent())!.replace("Mitglied", "").trim();
  const lastName = name.split(" ").at(-1)!;
  await page.getByRole("searchbox", { name: "Person suchen" }).fill(lastName);
  await page.getByRole("search", { name: "Person suchen" }).getByRole("button", { name: "Suchen" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(lastName)}`));
  const found = page.getByRole("listitem", { name, exact: true });
  await expect(found).toBeVisible();
  await expect(found.getByRole("link", { name: /^Mobil: / })).toHaveAttribute("href", /^tel:\+?\d+$/);
  await expect(cards.filter({ hasNotText: lastName })).toHaveCount(0);
  await expectHandsetFriendly(page);

  await page.getByRole("searchbox", { name: "Person suchen" }).fill("Zzzkeinname");
  await page.getByRole("search", { name: "Person suchen" }).getByRole("button", { name: "Suchen" }).click();
  await expect(page.getByText("Niemand gefunden für „Zzzkeinname“")).toBeVisible();
});

test("Hunde: search, owner to call, an expired rabies date in red", async ({ page }) => {
  await page.goto("/");
  await openFromHandsetMenu(page, "Hunde");
  await expect(page).toHaveURL(/\/dogsmobile$/);
  await expectHandsetFriendly(page);
  const cards = page.getByRole("list", { name: "Hunde" }).locator(":scope > li");
  const first = cards.first();
  const dog = (await first.getByRole("heading").textContent())!.trim();
  await page.getByRole("searchbox", { name: "Hund suchen" }).fill(dog);
  await page.getByRole("search", { name: "Hund suchen" }).getByRole("button", { name: "Suchen" }).click();
  await expect(page.getByRole("listitem", { name: dog }).first()).toContainText("Halter:");
  // Rabies dates that ran out are red (the demo data has some among the first dogs).
  await page.getByRole("searchbox", { name: "Hund suchen" }).fill("");
  await page.getByRole("search", { name: "Hund suchen" }).getByRole("button", { name: "Suchen" }).click();
  const expired = page.getByText(/^Tollwut abgelaufen am \d\d\.\d\d\.\d{4}$/).first();
  await expect(expired).toHaveClass(/text-red-800/);
});

test("Laufende Kurse, Kursblatt and Nächste Kurstermine", async ({ page }) => {
  await page.goto("/");
  await openFromHandsetMenu(page, "Laufende Kurse");
  await expect(page).toHaveURL(/\/coursesmobile$/);
  const courses = page.getByRole("list", { name: "Laufende Kurse" }).locator(":scope > li");
  await expect(courses.first()).toContainText("Nächster Termin:");
  await expect(courses.first()).toContainText(/Teilnehmer: \d+/);
  await expectHandsetFriendly(page);
  const course = (await courses.first().getByRole("heading").textContent())!.trim();

  await courses.first().getByRole("link", { name: "Kursblatt öffnen" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Kursblatt: ${course}`);
  const participants = page.getByRole("list", { name: `Teilnehmer von ${course}` }).locator(":scope > li");
  await expect(participants.first()).toContainText(/Bezahlt|Nicht bezahlt/);
  await expectHandsetFriendly(page);

  await page.getByRole("link", { name: "Anderen Kurs wählen" }).click();
  await expect(page.getByText("Welcher Kurs?")).toBeVisible();
  await page.getByRole("list", { name: "Laufende Kurse" }).getByRole("link", { name: course }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Kursblatt: ${course}`);

  await openFromHandsetMenu(page, "Nächste Kurstermine");
  await expect(page).toHaveURL(/\/nextdatesmobile$/);
  await expect(page.getByRole("heading", { level: 1, name: "Nächste Kurstermine" })).toBeVisible();
  // Grouped by day, soonest first.
  const days = page.locator("main section h2");
  await expect(days.first()).toHaveText(/^(Heute|Morgen|\S+), \d\d\.\d\d\.\d{4}$/);
  await expectHandsetFriendly(page);
});

test("a desktop screen with a handset view points there on a phone", async ({ page }) => {
  await page.goto("/people");
  await page.getByRole("link", { name: "Zur Handy-Ansicht: Personen" }).click();
  await expect(page).toHaveURL(/\/peoplemobile$/);
});

test("Kursblatt: choose a date, tick two participants, reload: ticked and counted, also on the desktop Kursblatt", async ({ page, javaScriptEnabled }) => {
  await page.goto("/");
  await openFromHandsetMenu(page, "Kursblatt");
  await expect(page.getByText("Welcher Kurs?")).toBeVisible();
  // Each project its own course (they run at the same time against the same data): the first
  // course with JavaScript, the second without.
  const courseLinks = page.getByRole("list", { name: "Laufende Kurse" }).getByRole("link");
  const courseLink = courseLinks.nth(javaScriptEnabled ? 0 : 1);
  const linkText = (await courseLink.textContent())!.trim();
  await courseLink.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Kursblatt: /);
  const course = (await page.getByRole("heading", { level: 1 }).textContent())!.replace("Kursblatt: ", "");
  expect(linkText.startsWith(course)).toBe(true);
  const courseId = new URL(page.url()).searchParams.get("course");

  // A date: the course's first one (held, as the course is running).
  const chooser = page.getByLabel("Termin");
  const first = await chooser.locator("option").first().getAttribute("value");
  await chooser.selectOption(first!);
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Zeigen" }).click();
  await expect(page).toHaveURL(new RegExp(`date=${first}`));
  await expect(chooser).toHaveValue(first!);
  await expectHandsetFriendly(page);

  const count = page.getByRole("status").filter({ hasText: /anwesend/ });
  const ticks = page.getByRole("button", { name: /^Anwesend: / });
  expect(await ticks.count()).toBeGreaterThanOrEqual(2);
  const names = [(await ticks.nth(0).getAttribute("aria-label"))!, (await ticks.nth(1).getAttribute("aria-label"))!];
  // The demo data may have them ticked already: untick first (a tap each), so the test ticks them.
  for (const name of names) {
    const tick = page.getByRole("button", { name, exact: true });
    if ((await tick.getAttribute("aria-pressed")) === "true") {
      await tick.click();
      await expect(page.getByRole("button", { name, exact: true })).toHaveAttribute("aria-pressed", "false");
    }
  }
  await expect(count).toHaveText(/^\d+ von \d+ anwesend$/);
  const [, before, of] = /^(\d+) von (\d+) anwesend$/.exec((await count.textContent())!)!.map(Number);
  for (const name of names) {
    await page.getByRole("button", { name, exact: true }).click();
    await expect(page.getByRole("button", { name, exact: true })).toHaveAttribute("aria-pressed", "true");
  }
  // Shown at once; with JavaScript saved in the background ('wird gespeichert …' until both arrived).
  await expect(count).toHaveText(`${before + 2} von ${of} anwesend`);

  // Stored: after a reload still ticked and counted.
  await page.reload();
  for (const name of names) await expect(page.getByRole("button", { name, exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(count).toHaveText(`${before + 2} von ${of} anwesend`);
  await expectHandsetFriendly(page);
  if (javaScriptEnabled) {
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => `${violation.id} (${violation.impact})`)).toEqual([]);
  }

  // The desktop Kursblatt: the date's column has the ticks, the participants grid the count.
  await page.goto(`/courseSheet?course=${courseId}`);
  const sheet = page.getByRole("region", { name: `Anwesenheit in ${course}` });
  for (const name of names) {
    const [dog, person] = name.replace("Anwesend: ", "").split(" mit ");
    const row = sheet.getByRole("row", { name: new RegExp(`^${person} · ${dog}`) });
    await expect(row.getByRole("cell").first()).toHaveText("✓anwesend");
    await expect(row.getByRole("cell").last()).toHaveText(/^[1-9]\d* von \d+$/);
  }
  await expect(page.getByRole("columnheader", { name: "Anwesend" }).first()).toBeVisible();
});
