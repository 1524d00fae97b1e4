/**
 * The lists: the HSVRM-Liste (members of a year with their dogs, headed by the association data,
 * Excel named after the club and the year with real dates) and the Geburtstags-Liste (from today
 * through the year, the age turned, round birthdays named, month and member toggles).
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { nextBirthday } from "~/lib/birthdays";
import { addDaysToDate, todayInBerlin } from "~/lib/format";
import { fetchApp } from "../support/app";
import { readXlsx } from "../support/excel";
import { gridOf } from "../support/grid-html";
import { loginCookie } from "../support/sessions";
import { insertPeople } from "../support/seed";

const db = createDb(env.DB);
const today = todayInBerlin();
const thisYear = Number(today.slice(0, 4));
/** A page's HTML without React's text separators. */
const page = async (path: string, who: "finance" | "admin" | "gdpr" = "finance") =>
  (await (await fetchApp(path, { cookie: await loginCookie(who) })).text()).replaceAll("<!-- -->", "");

/** Someone born `years` years before the day `daysFromToday` days from today (their birthday then). */
const bornBefore = (years: number, daysFromToday: number) => {
  const day = addDaysToDate(today, daysFromToday);
  return `${Number(day.slice(0, 4)) - years}${day.slice(4)}`;
};

beforeAll(async () => {
  const [type] = await db.insert(schema.memberTypes).values({ code: "AKTIV", name: "Aktiv" }).returning({ id: schema.memberTypes.id });
  await db.insert(schema.configuration).values({ id: 1, hsvrmVereinName: "Hundefreunde Ölbach & Umgebung", hsvrmKG: 7, hsvrmVereinNr: 1234 });
  const person = (values: Partial<typeof schema.people.$inferInsert> & { lastName: string }) => ({ firstName: "Test", memberTypeId: type.id, ...values });
  const inserted = await insertPeople(db, [
    person({
      lastName: "Aktuell",
      hsvrmNr: "H-100",
      isMember: true,
      memberSince: "2015-03-01",
      dateOfBirth: "1980-05-17",
      streetNumber: "Hauptstr. 1",
      zip: "35037",
      city: "Marburg",
    }),
    person({ lastName: "Ehemalig", isMember: false, memberSince: "2010-01-01", memberUntil: `${thisYear - 1}-06-30` }),
    person({ lastName: "Neu", isMember: true, memberSince: `${thisYear}-02-01` }),
    person({ lastName: "Gast", isMember: false }),
    // Birthdays: today (turning 50, round), in three days (33), yesterday (next year), a non-member in two days.
    person({ lastName: "Heute", isMember: true, memberSince: "2000-01-01", dateOfBirth: bornBefore(50, 0) }),
    person({ lastName: "Bald", isMember: true, memberSince: "2000-01-01", dateOfBirth: bornBefore(33, 3) }),
    person({ lastName: "Gestern", isMember: true, memberSince: "2000-01-01", dateOfBirth: bornBefore(40, -1) }),
    person({ lastName: "Nichtmitglied", isMember: false, dateOfBirth: bornBefore(20, 2) }),
  ]);
  const id = (lastName: string) => inserted.find((row) => row.lastName === lastName)!.id;
  await db.insert(schema.dogs).values([
    { ownerId: id("Aktuell"), commonName: "Bella", breed: "Labrador" },
    { ownerId: id("Aktuell"), commonName: "Anton", breed: "" },
    { ownerId: id("Aktuell"), commonName: "Alt", archived: true },
  ]);
});

describe("HSVRM-Liste", () => {
  it("shows this year's members with their dogs under the association data", async () => {
    const html = await page("/hsvrmlist");
    expect(html).toContain("Verein: Hundefreunde Ölbach &amp; Umgebung · KG 7 · Verein-Nr. 1234");
    expect(html).toContain(">Aktuell<");
    expect(html).toContain(">Neu<");
    // Archived dogs are left out; the dogs by name, with their breed where known.
    expect(html).toContain(">Anton, Bella (Labrador)<");
    // Not a member this year: the one who left last year, the guest.
    expect(html).not.toContain(">Ehemalig<");
    expect(html).not.toContain(">Gast<");
  });

  it("lists the members of an earlier year, including those who have left since", async () => {
    const html = await page(`/hsvrmlist?year=${thisYear - 1}`, "gdpr");
    expect(html).toContain(">Ehemalig<");
    expect(html).toContain(">Aktuell<");
    // Joined this year: not a member last year.
    expect(html).not.toContain(">Neu<");
  });

  it("exports the year as one sheet named after the club and the year, with German headers and real dates", async () => {
    const response = await fetchApp(`/hsvrmlist/export?year=${thisYear}`, { cookie: await loginCookie("admin") });
    expect(response.status).toBe(200);
    const disposition = response.headers.get("Content-Disposition")!;
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(`HSVRM-Liste_Hundefreunde-Ölbach-&-Umgebung_${thisYear}.xlsx`)}`);
    expect(disposition).toContain(`filename="HSVRM-Liste_Hundefreunde-Oelbach-Umgebung_${thisYear}.xlsx"`);
    const rows = await readXlsx(response);
    expect(rows[0]).toEqual(["HSVRM-Nr.", "Nachname", "Vorname", "Geburtsdatum", "Straße", "PLZ", "Ort", "Mitglied seit", "Mitgliedsart", "Hunde"]);
    const aktuell = rows.find((row) => row[1] === "Aktuell")!;
    expect(aktuell[0]).toBe("H-100");
    // Dates are dates in Excel, not text.
    expect(aktuell[3]).toEqual(new Date(Date.UTC(1980, 4, 17)));
    expect(aktuell[7]).toEqual(new Date(Date.UTC(2015, 2, 1)));
    expect(aktuell[9]).toBe("Anton, Bella (Labrador)");
    expect(rows.some((row) => row[1] === "Ehemalig")).toBe(false);
  });

  // Moved from the browser (tests/e2e/lists.spec.ts): the download of an earlier year has exactly
  // the rows its grid counts, every one a member who had joined by the end of that year.
  it("exports an earlier year with the rows its grid counts, all joined by the end of that year", async () => {
    const year = thisYear - 1;
    const grid = gridOf(await page(`/hsvrmlist?year=${year}`), "HSVRM-Liste");
    expect(grid.toggles("Mitglieder des Jahres").get(String(year))?.current).toBe(true);
    expect(grid.count).toBeGreaterThan(0);
    const response = await fetchApp(`/hsvrmlist/export?year=${year}`, { cookie: await loginCookie("finance") });
    expect(response.headers.get("Content-Disposition")).toContain(`_${year}.xlsx"`);
    const rows = await readXlsx(response);
    expect(rows).toHaveLength(grid.count + 1);
    const joined = rows.slice(1).map((row) => row[7]);
    expect(joined.every((value) => value instanceof Date && value.getUTCFullYear() <= year)).toBe(true);
  });

  it("refuses a year that is not a year without changing the list to something else", async () => {
    const response = await fetchApp("/hsvrmlist?year=19xx", { cookie: await loginCookie("finance") });
    expect(response.status).toBeLessThan(500);
  });
});

describe("Geburtstags-Liste", () => {
  it("orders the coming birthdays from today through the year, with the age turned and round ones named", async () => {
    const html = await page("/birthdaylist?period=all");
    const order = ["Heute", "Bald", "Gestern"].map((name) => html.indexOf(`>${name}<`));
    expect(order.every((position) => position > 0)).toBe(true);
    // Today's first, yesterday's last (its next one is a year away).
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const heute = html.slice(html.indexOf(">Heute<") - 400, html.indexOf(">Heute<") + 400);
    expect(heute).toContain(">50<");
    expect(heute).toContain("Runder Geburtstag");
    const bald = html.slice(html.indexOf(">Bald<"), html.indexOf(">Bald<") + 300);
    expect(bald).toContain(">33<");
    expect(bald).not.toContain("Runder Geburtstag");
    // Members only by default: the non-member is listed for everyone.
    expect(html).not.toContain(">Nichtmitglied<");
    expect(await page("/birthdaylist?period=all&who=everyone")).toContain(">Nichtmitglied<");
  });

  it("shows this month's birthdays by default and next month's on request", async () => {
    const thisMonth = await page("/birthdaylist");
    const nextMonth = await page("/birthdaylist?period=nextMonth");
    const month = today.slice(5, 7);
    for (const name of ["Heute", "Bald", "Gestern"]) {
      const { date } = nextBirthday((await db.select().from(schema.people).where(eq(schema.people.lastName, name)))[0].dateOfBirth!, today);
      const inThisMonth = date.slice(5, 7) === month;
      expect(thisMonth.includes(`>${name}<`), name).toBe(inThisMonth);
      if (!inThisMonth && date.slice(5, 7) === String((Number(month) % 12) + 1).padStart(2, "0")) expect(nextMonth).toContain(`>${name}<`);
    }
  });

  it("exports the birthdays of the chosen period", async () => {
    const response = await fetchApp("/birthdaylist/export?period=all", { cookie: await loginCookie("gdpr") });
    const rows = await readXlsx(response);
    expect(rows[0]).toEqual(["Geburtstag", "Nachname", "Vorname", "Wird", "Anlass", "Geburtsdatum", "Mitglied", "Mobil", "E-Mail"]);
    expect(rows[1][1]).toBe("Heute");
    expect(rows[1][3]).toBe(50);
    expect(rows[1][4]).toBe("Runder Geburtstag");
  });
});

describe("nextBirthday", () => {
  it("counts today as the birthday, moves past ones to next year and keeps 29 February on the 28th in other years", () => {
    expect(nextBirthday("1990-11-23", "2026-11-23")).toEqual({ date: "2026-11-23", age: 36, round: false });
    expect(nextBirthday("1986-11-22", "2026-11-23")).toEqual({ date: "2027-11-22", age: 41, round: false });
    expect(nextBirthday("1980-02-29", "2026-11-23")).toEqual({ date: "2027-02-28", age: 47, round: false });
    expect(nextBirthday("1980-02-29", "2027-03-01")).toEqual({ date: "2028-02-29", age: 48, round: false });
    expect(nextBirthday("1977-01-05", "2026-12-31")).toEqual({ date: "2027-01-05", age: 50, round: true });
  });
});
