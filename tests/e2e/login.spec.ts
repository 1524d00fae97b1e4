import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { DEMO_NAMES, loginThroughProvider, logout, type DemoUser } from "./support/login";

// The tests of the login flow itself (the provider's form, landing on the page asked for, logout,
// idle logout) log in through the provider in the browser (loginThroughProvider); the others use
// the fast login over HTTP (loginAs).

const EVERYONE = ["Startseite", "Personen", "Hunde", "Erfolge", "Kurse", "Kursblatt", "Mensch/Hund Mini+", "Kalender", "Papierkorb"];
const PRIVACY = ["Datenschutz"];
const FINANCE = ["Kontenblatt", "Rechnungen", "Zahlungen", "Kasse", "Buchhaltung", "Spenden", "Mahnwesen"];
const ADMIN = ["Kurs-Typen", "Tasks", "Einstellungen"];

/** The sidebar of each role, in the spec's order; the Listen group follows. */
/** Screens whose title differs from their menu label (spec 000 §2). */
const SCREEN_HEADINGS: Record<string, string> = { Papierkorb: "Gelöschte Datensätze", Datenschutz: "Datenschutz: Aufbewahrung" };

const EXPECTED_MENU: Record<DemoUser, { main: string[]; lists: string[] }> = {
  staff: { main: EVERYONE, lists: ["Kursdaten", "Kursteilnehmer"] },
  gdpr: { main: [...EVERYONE, ...PRIVACY], lists: ["HSVRM-Liste", "Geburtstags-Liste", "Kursdaten", "Kursteilnehmer"] },
  finance: { main: [...EVERYONE, ...FINANCE], lists: ["HSVRM-Liste", "Geburtstags-Liste", "Kursdaten", "Kursteilnehmer"] },
  admin: { main: [...EVERYONE, ...PRIVACY, ...FINANCE, ...ADMIN], lists: ["HSVRM-Liste", "Geburtstags-Liste", "Kursdaten", "Kursteilnehmer"] },
};

/** The roles whose test clicks through every entry of their menu. */
const WALKED: DemoUser[] = ["admin", "staff"];

async function sidebarLabels(page: Page): Promise<string[]> {
  return (await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link").allTextContents()).map((text) => text.trim());
}

for (const user of Object.keys(EXPECTED_MENU) as DemoUser[]) {
  test(`${user} logs in at the provider, lands on the page asked for, sees the menu of the role and logs out`, async ({ page, javaScriptEnabled }) => {
    await loginThroughProvider(page, user, "/courses");
    await expect(page).toHaveURL(/\/courses$/);
    await expect(page.getByRole("heading", { name: /^Kurse \(\d+\)$/ })).toBeVisible();
    await expect(page.getByText("Du bist noch nicht eingeloggt.")).toHaveCount(0);

    const { main, lists } = EXPECTED_MENU[user];
    expect(await sidebarLabels(page)).toEqual([...main, ...lists]);
    await expect(page.getByRole("navigation", { name: "Hauptmenü" }).getByText("Listen")).toBeVisible();
    // The active entry is marked.
    await expect(page.getByRole("link", { name: "Kurse", exact: true })).toHaveAttribute("aria-current", "page");

    // Every entry of the menu opens its screen (titled with the entry's label), none an error: walked
    // by the admin (every entry there is) and by staff (the fewest rights, the most left out of each
    // screen). FINANCE's and GDPR's screens are walked by their own journeys as those roles (fees,
    // invoices, bank statements; gdpr, change history, the lists), and every role's screens and
    // their client-side data answer through the worker: tests/integration/access-matrix.test.ts.
    for (const label of WALKED.includes(user) ? [...main.slice(1), ...lists] : []) {
      await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: label, exact: true }).click();
      const heading = SCREEN_HEADINGS[label] ?? label;
      const escaped = heading.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      await expect(page.getByRole("heading", { name: new RegExp(`^${escaped}( \\(\\d+\\))?$`) }).first()).toBeVisible();
      await expect(page.getByText("Das hat nicht geklappt")).toHaveCount(0);
      // The quick add is a dialog over the page: close it again.
      if (label === "Mensch/Hund Mini+") await page.getByRole("dialog").getByRole("link", { name: "Abbruch" }).click();
    }

    await page.getByRole("link", { name: "Startseite" }).click();
    await expect(page.getByRole("heading", { name: "Willkommen bei Wuff!" })).toBeVisible();
    await expect(page.getByText("Du bist noch nicht eingeloggt.")).toHaveCount(0);

    await logout(page, javaScriptEnabled);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText(`Willkommen, ${DEMO_NAMES[user]}`)).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Anmelden" })).toBeVisible();
    // The session is over: a protected page asks for the login again.
    await page.goto("/people");
    await expect(page.getByRole("heading", { name: "Bei Wuff anmelden" })).toBeVisible();
  });
}

test("a wrong password is refused by the provider in German", async ({ page }) => {
  await page.goto("/people");
  await page.getByLabel("Benutzername").fill("admin");
  await page.getByLabel("Passwort").fill("falsch");
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page.getByRole("alert")).toHaveText("Benutzername oder Passwort ist falsch.");
});

// A screen refused to a role (home, the German toast naming the roles): tests/integration/role-refusals.test.ts.

test("the Listen group opens and closes", async ({ page, openAs }) => {
  await openAs("gdpr", "/people");
  const nav = page.getByRole("navigation", { name: "Hauptmenü" });
  await expect(nav.getByRole("link", { name: "HSVRM-Liste" })).toBeVisible();
  await nav.getByText("Listen").click();
  await expect(nav.getByRole("link", { name: "HSVRM-Liste" })).toBeHidden();
  await nav.getByText("Listen").click();
  await expect(nav.getByRole("link", { name: "HSVRM-Liste" })).toBeVisible();
});

test.describe("on a handset", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the sidebar is hidden and the burger menu opens the handset entries, and closes on choosing one", async ({ page, openAs }) => {
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Menü" })).toHaveCount(0);
    await expect(page.locator("summary[aria-label='Menü']")).toHaveCount(0);

    await openAs("staff", "/people");
    await expect(page.getByRole("navigation", { name: "Hauptmenü" })).toBeHidden();
    await expect(page.getByRole("button", { name: "Abmelden" })).toBeInViewport({ ratio: 1 });
    const burger = page.locator("summary[aria-label='Menü']");
    await expect(burger).toBeVisible();
    const menu = page.getByRole("navigation", { name: "Mobiles Menü" });
    await expect(menu).toBeHidden();

    await burger.click();
    await expect(menu).toBeVisible();
    const handsetEntries = menu.getByRole("list").first();
    expect((await handsetEntries.getByRole("link").allTextContents()).map((t) => t.trim())).toEqual([
      "Personen",
      "Hunde",
      "Laufende Kurse",
      "Kursblatt",
      "Nächste Kurstermine",
    ]);
    // Below a separator: the screens that already work on a phone.
    expect((await menu.getByRole("list", { name: "Weitere Bildschirme" }).getByRole("link").allTextContents()).map((t) => t.trim())).toEqual([
      "Personen",
      "Hunde",
      "Erfolge",
      "Mensch/Hund Mini+",
      "Kalender",
      "Papierkorb",
    ]);
    await handsetEntries.getByRole("link", { name: "Hunde" }).click();
    await expect(page).toHaveURL(/\/dogsmobile$/);
    await expect(page.getByRole("heading", { name: "Hunde" })).toBeVisible();
    await expect(menu).toBeHidden();

    // The close button closes it too.
    await burger.click();
    await expect(menu).toBeVisible();
    await burger.click();
    await expect(menu).toBeHidden();
  });
});

test("after the idle time a countdown runs: activity cancels it, otherwise the user is logged out", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "the idle timer is JavaScript; without it the server ends idle sessions");
  // The page's clock is ours: the configured 600 s idle time and 10 s countdown pass on command.
  await page.clock.install();
  await loginThroughProvider(page, "staff");
  await page.locator("html[data-hydrated]").waitFor();
  const dialog = page.getByRole("dialog", { name: "Bist du noch da?" });

  await page.clock.runFor(599_000);
  await expect(dialog).toHaveCount(0);
  await page.clock.runFor(2_000);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(/Du wirst in \d+ Sekunden wegen Inaktivität abgemeldet\./);

  // Moving the mouse is activity: the countdown stops, the user stays.
  await page.mouse.move(200, 200);
  await page.mouse.move(300, 300);
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Willkommen, Sven Mitarbeiter")).toBeVisible();

  await page.clock.runFor(601_000);
  await expect(dialog).toBeVisible();
  await page.clock.runFor(11_000);
  await expect(page.getByText("Du bist noch nicht eingeloggt.")).toBeVisible();
  await expect(page.getByRole("status")).toHaveText(/Du wurdest wegen Inaktivität abgemeldet\./);
});

test("the pages keep to their Content Security Policy: no script, style or form is blocked", async ({ page, javaScriptEnabled, baseURL }) => {
  test.skip(!javaScriptEnabled, "without JavaScript no script could be blocked");
  const appOrigin = new URL(baseURL!).origin;
  // Chromium reports each blocked script, style, connection or form as a console error that names
  // the policy; the event is reported too, for what the console might word differently.
  const violations: string[] = [];
  page.on("console", (message) => {
    const fromApp = page.url().startsWith(appOrigin);
    if (fromApp && /Content Security Policy|CSP-Verstoß/.test(message.text())) violations.push(message.text());
  });
  page.on("pageerror", (error) => violations.push(`Fehler: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP-Verstoß: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });

  await loginThroughProvider(page, "admin", "/people");
  await page.locator("html[data-hydrated]").waitFor();
  const response = await page.goto("/people");
  expect(response?.headers()["content-security-policy"]).toContain("'nonce-");
  await page.locator("html[data-hydrated]").waitFor();
  // A dialog loaded on demand, validated in the browser (zod), and closed again.
  const grid = page.getByRole("region", { name: "Personen" });
  await grid.getByRole("link", { name: "Hinzufügen" }).click();
  const dialog = page.getByRole("dialog", { name: "Person hinzufügen" });
  await dialog.getByLabel("Vorname", { exact: true }).fill("Erika");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(dialog.getByText("Nachname ist erforderlich")).toBeVisible();
  await dialog.getByRole("link", { name: "Abbruch" }).click();
  await expect(dialog).toHaveCount(0);
  // Client navigation (.data requests), another dialog route and the logout at the provider.
  await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: "Hunde", exact: true }).click();
  await expect(page.getByRole("region", { name: "Hunde" })).toBeVisible();
  await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: "Mensch/Hund Mini+" }).click();
  await page.getByRole("dialog").getByLabel("Besitzer Vorname").fill("Hanna");
  await page.getByRole("dialog").getByRole("link", { name: "Abbruch" }).click();
  // The error page (a return path with a backslash), hydrated: still the logged-in top bar.
  await page.goto("/quickAdd?returnTo=%5Cevil.example");
  await page.locator("html[data-hydrated]").waitFor();
  await expect(page.getByText("400 Die Rücksprungadresse ist ungültig.")).toBeVisible();
  await expect(page.getByText("Willkommen, Anna Admin")).toBeVisible();
  await logout(page, javaScriptEnabled);

  expect(violations).toEqual([]);
});
