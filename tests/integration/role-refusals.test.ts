/**
 * What a role may not do, as the server answers it: a screen refused with the German toast that
 * names the roles it is for, and actions a role is not offered at all (menu entries, toolbar
 * links, columns, dialog sections). These were browser tests (tests/e2e); nothing of it needs a
 * browser: the redirect, the toast cookie and the markup are the server's.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { fetchApp, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

let staff: string;

beforeAll(async () => {
  await loadDemoData();
  staff = await loginCookie("staff");
});

/** The page's HTML as a browser would get it, React's text separators removed. */
const html = async (path: string, cookie = staff) => (await (await fetchApp(path, { cookie })).text()).replaceAll("<!-- -->", "");

/** The part of `page` from the element that carries `marker` to its closing `tag`. */
function element(page: string, marker: string, tag: string): string {
  const at = page.indexOf(marker);
  expect(at, marker).toBeGreaterThan(-1);
  const start = page.lastIndexOf(`<${tag}`, at);
  return page.slice(start, page.indexOf(`</${tag}>`, at) + tag.length + 3);
}

describe("a screen refused to a role sends home with a German toast naming the roles, and none of the screen", () => {
  it.each([
    ["/fees", "ADMIN, FINANCE", "Kontenblatt"],
    ["/cashbook", "ADMIN, FINANCE", "Kassenbestand"],
    ["/hsvrmlist", "FINANCE, ADMIN, GDPR", "HSVRM-Liste"],
    ["/gdpr", "ADMIN, GDPR", "Datenschutz: Aufbewahrung"],
  ])("%s as staff", async (path, roles, title) => {
    const response = await fetchApp(path, { cookie: staff });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    const message = `Zugriff verweigert. Diese Ansicht ist nur für die Rollen ${roles} freigegeben.`;
    expect(toastOf(response)).toMatchObject({ type: "error", message });
    expect(await response.text()).not.toContain(title);

    // The home page the browser follows to shows it as an alert (the toast cookie it was given).
    const toastCookie = response.headers
      .getSetCookie()
      .find((header) => header.startsWith("wuff_toast="))!
      .split(";")[0];
    const home = (await (await fetchApp("/", { cookie: `${staff}; ${toastCookie}` })).text()).replaceAll("<!-- -->", "");
    expect(home).toContain(`<p role="alert">${message}</p>`);
    expect(home).not.toContain(`>${title}</h1>`);
  });

  it("the lists' downloads as staff: home, no file", async () => {
    const response = await fetchApp("/birthdaylist/export", { cookie: staff });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.get("Content-Disposition")).toBeNull();
  });
});

describe("staff are not offered what their role may not do", () => {
  it("no Datenschutz in the menu, no DSGVO-Auskunft and no 'Mail senden' in the people grid's toolbar", async () => {
    const page = await html("/people");
    const menu = element(page, 'aria-label="Hauptmenü"', "nav");
    expect(menu).toContain('href="/people"');
    expect(menu).not.toContain('href="/gdpr"');
    expect(menu).not.toContain(">Datenschutz<");
    const toolbar = element(page, 'role="toolbar"', "div");
    expect(toolbar).toContain(">Hinzufügen<");
    expect(page).not.toContain("DSGVO-Auskunft");
    expect(page).not.toContain("/gdpr/auskunft/");
    expect(page).not.toContain("Mail senden");
  });

  it("the column chooser offers Geburtstag but neither Mitglied seit nor DSGVO", async () => {
    const chooser = element(await html("/people"), 'aria-label="Spaltenauswahl"', "form");
    expect(chooser).toMatch(/<input type="checkbox" name="visible" value="dateOfBirth"[^>]*\/>Geburtstag<\/label>/);
    expect(chooser).not.toContain("Mitglied seit");
    expect(chooser).not.toContain("DSGVO");
  });

  it("the person dialog shows the Verlauf without the consent", async () => {
    const dialog = await html("/people/1/dogs?dialog=person-edit&dialogId=1");
    const history = element(dialog, 'data-testid="record-history"', "details");
    expect(history).toMatch(/Verlauf \(\d+\)/);
    expect(history).toContain("Angelegt");
    expect(history).not.toContain("DSGVO");
    expect(dialog).not.toContain('data-testid="person-consent"');
  });
});

// The same markup for a role that may: what staff miss above is really there to miss.
describe("ADMIN and GDPR are offered them", () => {
  it("the admin's menu has Datenschutz, the people grid's toolbar DSGVO-Auskunft and 'Mail senden'", async () => {
    const page = await html("/people", await loginCookie("admin"));
    expect(element(page, 'aria-label="Hauptmenü"', "nav")).toContain('href="/gdpr"');
    expect(page).toContain("DSGVO-Auskunft");
    expect(page).toContain("Mail senden");
  });

  it("GDPR's column chooser has Mitglied seit and DSGVO, its person dialog the consent", async () => {
    const gdpr = await loginCookie("gdpr");
    const chooser = element(await html("/people", gdpr), 'aria-label="Spaltenauswahl"', "form");
    expect(chooser).toContain("Mitglied seit");
    expect(chooser).toContain("DSGVO");
    expect(await html("/people/1/dogs?dialog=person-edit&dialogId=1", gdpr)).toContain('data-testid="person-consent"');
  });
});
