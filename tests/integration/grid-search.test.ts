/**
 * The toolbar search of Personen and Hunde (issue 29 item 15): names found as German users spell
 * them (DIN 5007: umlauts and ß either way, any case), the search kept in the URL (a GET form, so
 * without JavaScript too) with the toggles, paging back to page 1, the selected row and its tabs
 * kept; the phone lists find the same.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { nameSearchKey } from "~/lib/collation";
import { handsetDogs, handsetPeople } from "~/models/handset.server";
import { fetchApp } from "../support/app";
import { gridOf } from "../support/grid-html";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const page = async (path: string, cookie: string) => (await (await fetchApp(path, { cookie })).text()).replaceAll("<!-- -->", "");

/** Names no demo person has, spelled every way. */
const NAMES = [
  { firstName: "Jürgen", lastName: "Sücherböck" },
  { firstName: "Hanna", lastName: "Suecherboeck" },
  { firstName: "Paul", lastName: "Sucherbock" },
  { firstName: "Greta", lastName: "Großkreuzer" },
  { firstName: "Ömer", lastName: "Grosskreuzer" },
] as const;
const ids: Record<string, number> = {};

beforeAll(async () => {
  await loadDemoData();
  for (const name of NAMES) {
    const [person] = await db
      .insert(schema.people)
      .values({ ...name, memberTypeId: 1 })
      .returning({ id: schema.people.id });
    ids[name.lastName + name.firstName] = person.id;
    await db.insert(schema.dogs).values({ commonName: `Bärli ${name.firstName}`, ownerId: person.id, gender: 1 });
  }
});

const lastNames = (html: string) => gridOf(html, "Personen").rows.map((row) => row[0]);

describe("the name search key (DIN 5007)", () => {
  it("folds umlauts, ß and case, and reads umlauts spelled out as the umlaut", () => {
    for (const spelling of ["Müller", "MÜLLER", "Mueller", "muller", "MUELLER"]) expect(nameSearchKey(spelling)).toBe("muller");
    expect(nameSearchKey("Straße")).toBe(nameSearchKey("Strasse"));
    expect(nameSearchKey("Öztürk")).toBe("ozturk");
  });
});

describe("Personen: the search in the toolbar", () => {
  it("is a GET form named q with the placeholder 'Name', also without JavaScript", async () => {
    const html = await page("/people", await loginCookie("staff"));
    expect(html).toMatch(/<form[^>]*method="get"[^>]*role="search"[^>]*aria-label="Personen durchsuchen"/);
    expect(html).toMatch(/<input[^>]*type="search"[^>]*name="q"[^>]*placeholder="Name"/);
  });

  it.each([
    ["Sücherböck", ["Sucherbock", "Sücherböck", "Suecherboeck"]],
    ["suecherboeck", ["Sucherbock", "Sücherböck", "Suecherboeck"]],
    ["SUCHERBOCK", ["Sucherbock", "Sücherböck", "Suecherboeck"]],
    ["großkreuz", ["Großkreuzer", "Grosskreuzer"]],
    ["Grosskreuzer", ["Großkreuzer", "Grosskreuzer"]],
    ["Ömer Gross", ["Grosskreuzer"]],
    ["grosskreuzer, greta", ["Großkreuzer"]],
    ["oemer", ["Grosskreuzer"]],
  ])("'%s' finds %j (Personen and the phone's Personen alike)", async (term, expected) => {
    const html = await page(`/people?q=${encodeURIComponent(term)}`, await loginCookie("staff"));
    const grid = gridOf(html, "Personen");
    expect(grid.count).toBe(expected.length);
    expect(lastNames(html).sort()).toEqual([...expected].sort());
    expect(html).toContain(`value="${term}"`);
    const phone = await handsetPeople(db, term);
    expect(phone.people.map((person) => person.fullName).sort()).toEqual(
      NAMES.filter((name) => expected.includes(name.lastName) && grid.rows.some((row) => row[1] === name.firstName))
        .map((name) => `${name.firstName} ${name.lastName}`)
        .sort(),
    );
  });

  it("keeps the toggle, the sort and the selected person with their tabs; links from the grid keep the search; a new search starts on page 1", async () => {
    const cookie = await loginCookie("staff");
    const selected = ids["SücherböckJürgen"];
    const html = await page(`/people/${selected}/coursememberships?q=sucherbock&filter=nonmembers&sort=-firstName`, cookie);
    const grid = gridOf(html, "Personen");
    expect(grid.count).toBe(3);
    expect(grid.rows.map((row) => row[1])).toEqual(["Paul", "Jürgen", "Hanna"]);
    expect(html).toContain(`Kurse für Jürgen Sücherböck`);
    // The selected row is Jürgen's; another row's link and the sort links keep q and the toggle.
    expect(html).toMatch(new RegExp(`data-row-id="${selected}"[^>]*aria-selected="true"|aria-selected="true"[^>]*data-row-id="${selected}"`));
    const hrefs = [...html.matchAll(/href="(\/people[^"]*)"/g)].map(([, href]) => href.replaceAll("&amp;", "&"));
    expect(hrefs.some((href) => href.startsWith(`/people/${ids["SucherbockPaul"]}/coursememberships?`) && href.includes("q=sucherbock"))).toBe(true);
    for (const column of grid.columns.filter((c) => c.href)) expect(column.href).toContain("q=sucherbock");
    expect(grid.toggles("Personen filtern").get("Alle")!.href).toContain("q=sucherbock");
    // The form sends the grid's other state along but never the page: a new search is page 1.
    const form = html.slice(html.indexOf('role="search"'), html.indexOf("</form>", html.indexOf('role="search"')));
    expect(form).toContain('name="filter" value="nonmembers"');
    expect(form).toContain('name="sort" value="-firstName"');
    expect(form).not.toContain('name="page"');
  });

  it("a search that hides the selected person selects the first match, on the same tab; none found keeps the selection", async () => {
    const cookie = await loginCookie("staff");
    const other = ids["SücherböckJürgen"];
    const response = await fetchApp(`/people/${other}/dogs?q=grosskreuzer&filter=all&cmPage=2`, { cookie });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/people/${ids["GroßkreuzerGreta"]}/dogs?q=grosskreuzer&filter=all`);
    const none = await fetchApp(`/people/${other}/dogs?q=zzqx`, { cookie });
    expect(none.status).toBe(200);
  });

  it("a search nobody matches says so; the Excel export lists what the search finds", async () => {
    const cookie = await loginCookie("staff");
    const html = await page("/people?q=zzqx", cookie);
    expect(gridOf(html, "Personen").count).toBe(0);
    const excel = await fetchApp("/people/export?q=gro%C3%9Fkreuzer", { cookie });
    expect(excel.status).toBe(200);
  });

  it("a search longer than the box allows is a German 400, not a 500", async () => {
    const response = await fetchApp(`/people?q=${"a".repeat(40)}`, { cookie: await loginCookie("staff") });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Der Suchbegriff ist zu lang");
  });
});

describe("Hunde: the search in the toolbar", () => {
  it("finds dogs by their name or their owner's, umlauts either way, kept with the list toggle", async () => {
    const cookie = await loginCookie("staff");
    const byDog = gridOf(await page("/dogs?q=baerli", cookie), "Hunde");
    expect(byDog.count).toBe(NAMES.length);
    const byOwner = gridOf(await page(`/dogs?q=${encodeURIComponent("Großkreuzer")}`, cookie), "Hunde");
    expect(byOwner.rows.map((row) => row[0]).sort()).toEqual(["Bärli Greta", "Bärli Ömer"]);
    expect(gridOf(await page("/dogs?q=baerli&list=archived", cookie), "Hunde").count).toBe(0);
    const html = await page("/dogs?q=baerli", cookie);
    expect(html).toMatch(/<input[^>]*type="search"[^>]*name="q"[^>]*placeholder="Hund oder Besitzer"/);
    const phone = await handsetDogs(db, "BAERLI");
    expect(phone.dogs).toHaveLength(NAMES.length);
  });
});
