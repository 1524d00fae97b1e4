import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { readSheet } from "read-excel-file/universal";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { nameSortKey } from "~/lib/collation";
import { PAGE_SIZE } from "~/lib/grid";
import { PHONE_MESSAGE, ZIP_MESSAGE } from "~/lib/form-fields";
import * as schema from "~/db/schema";
import { DOG_DEFAULT_SORT, listDogs } from "~/models/dogs.server";
import { PEOPLE_DEFAULT_SORT, listPeople, nextSessionsForPerson } from "~/models/people.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { gridOf } from "../support/grid-html";
import { loadDemoData } from "../support/seed";
import { loginCookie, type DemoUserName } from "../support/sessions";

const db = createDb(env.DB);
let data: Awaited<ReturnType<typeof loadDemoData>>;

beforeAll(async () => {
  data = await loadDemoData();
});

/** A member with membership dates and GDPR consent on the first page of the grid. */
let memberWithDates: () => { id: number; memberSince: string; hasGdpr: boolean };
beforeAll(async () => {
  const { rows } = await listPeople(db, { filter: "all", sort: PEOPLE_DEFAULT_SORT, page: 1, withProtected: true });
  const row = rows.find((person) => person.memberSince && person.hasGdpr)!;
  memberWithDates = () => ({ id: row.id, memberSince: row.memberSince!, hasGdpr: row.hasGdpr! });
});

const newPerson = {
  intent: "person:save",
  salutation: "Frau",
  firstName: "Erika",
  lastName: "Neumann",
  city: "Marburg",
  email: "erika.neumann@example.org",
  dateOfBirth: "1.4.1985",
  memberTypeId: 2,
  isMember: true,
  memberSince: "01.01.2026",
  hasGdpr: true,
};

describe("the people list", () => {
  it("filters members and non-members, sorts by last then first name and counts all rows", async () => {
    const all = await listPeople(db, { filter: "all", sort: PEOPLE_DEFAULT_SORT, page: 1, withProtected: false });
    expect(all.total).toBe(data.people.length);
    // By the DIN 5007 keys (Ärmel with A): see name-order.test.ts.
    const keys = all.rows.map((row) => [nameSortKey(row.lastName), nameSortKey(row.firstName)] as const);
    const ordered = [...keys].sort(([l1, f1], [l2, f2]) => (l1 < l2 ? -1 : l1 > l2 ? 1 : f1 < f2 ? -1 : f1 > f2 ? 1 : 0));
    expect(keys).toEqual(ordered);
    const members = await listPeople(db, { filter: "members", sort: PEOPLE_DEFAULT_SORT, page: 1, withProtected: false });
    const others = await listPeople(db, { filter: "nonmembers", sort: PEOPLE_DEFAULT_SORT, page: 1, withProtected: false });
    expect(members.rows.every((row) => row.isMember)).toBe(true);
    expect(others.rows.every((row) => !row.isMember)).toBe(true);
    expect(members.total + others.total).toBe(all.total);
    // Joined names land in their own columns.
    expect(all.rows.find((row) => row.id === memberWithDates().id)?.memberType).toMatch(/Mitglied/);
  });

  it("pages through the list", async () => {
    const first = await listPeople(db, { filter: "all", sort: PEOPLE_DEFAULT_SORT, page: 1, withProtected: false, pageSize: 100 });
    const second = await listPeople(db, { filter: "all", sort: PEOPLE_DEFAULT_SORT, page: 2, withProtected: false, pageSize: 100 });
    expect(first.rows).toHaveLength(100);
    expect(second.rows).toHaveLength(data.people.length - 100);
    expect(second.total).toBe(data.people.length);
  });

  it("lists the next sessions of a person's courses, soonest first, none in the past", async () => {
    const membership = data.courseMemberships.find((m) => data.courses[m.courseId - 1].statusCode !== "FINISHED" && m.statusId !== 6)!;
    const sessions = await nextSessionsForPerson(db, membership.personId, new Date("2026-11-22T00:00:00Z"));
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((session) => session.startDateTime >= "2026-11-22")).toBe(true);
    expect(sessions.map((s) => s.startDateTime)).toEqual([...sessions.map((s) => s.startDateTime)].sort());
  });
});

describe("membership dates and GDPR reach only ADMIN and GDPR", () => {
  it.each<[DemoUserName, boolean]>([
    ["staff", false],
    ["finance", false],
    ["gdpr", true],
    ["admin", true],
  ])("%s: in the grid data and the edit dialog", async (who, sees) => {
    const person = memberWithDates();
    const cookie = await loginCookie(who);
    // Everyone asks for the columns; the grid sends shown values only, formatted as shown.
    const choice = new URLSearchParams([["grid", "people"], ...["lastName", "memberSince", "hasGdpr"].map((id) => ["visible", id])]);
    expect((await fetchApp("/preferences/columns", { method: "POST", cookie, body: choice })).status).toBe(200);
    const grid = await (await fetchApp(`/people/${person.id}/dogs.data`, { cookie })).text();
    const dialog = await (await fetchApp(`/people/${person.id}/dogs?dialog=person-edit&dialogId=${person.id}`, { cookie })).text();
    const formatted = person.memberSince!.split("-").reverse().join(".");
    for (const text of [grid, dialog]) {
      expect(text.includes("memberSince"), who).toBe(sees);
      expect(text.includes(formatted), who).toBe(sees);
      expect(text.includes("hasGdpr"), who).toBe(sees);
    }
    expect(dialog.includes(formatted), who).toBe(sees);
    expect(dialog.includes("Mitglied seit"), who).toBe(sees);
  });

  it("a user without the role cannot write them either", async () => {
    const person = memberWithDates();
    const [before] = await db.select().from(schema.people).where(eq(schema.people.id, person.id!));
    const response = await postForm(`/people/${person.id}/dogs`, await loginCookie("staff"), {
      intent: "person:save",
      id: before.id,
      rowVersion: before.rowVersion,
      firstName: before.firstName,
      lastName: before.lastName,
      memberTypeId: before.memberTypeId,
      isMember: before.isMember,
      memberSince: "01.01.1990",
      memberUntil: "02.01.1990",
    });
    expect(response.status).toBe(302);
    const [after] = await db.select().from(schema.people).where(eq(schema.people.id, person.id!));
    expect([after.memberSince, after.memberUntil, after.hasGdpr]).toEqual([before.memberSince, before.memberUntil, before.hasGdpr]);
    expect(after.lastModifiedBy).toBe("Sven Mitarbeiter");
  });
});

describe("adding, editing and deleting a person through the dialogs", () => {
  it("adds a person with audit fields and shows them selected", async () => {
    const response = await postForm("/people/1/dogs?dialog=person-add", await loginCookie("admin"), newPerson);
    expect(response.status).toBe(302);
    const [created] = await db.select().from(schema.people).where(eq(schema.people.lastName, "Neumann"));
    expect(created).toMatchObject({ firstName: "Erika", dateOfBirth: "1985-04-01", memberSince: "2026-01-01", hasGdpr: true, createdBy: "Anna Admin" });
    expect(response.headers.get("Location")).toMatch(new RegExp(`^/people/${created.id}/dogs(\\?|$)`));
    expect(response.headers.get("Location")).not.toContain("dialog=");
    expect(toastOf(response)).toEqual({ type: "success", message: "Person wurde angelegt" });
  });

  it.each([
    [{ lastName: "" }, "Nachname ist erforderlich"],
    [{ firstName: "" }, "Vorname ist erforderlich"],
    [{ dateOfBirth: "31.04.2026" }, "Das Datum 31.04.2026 gibt es nicht"],
    [{ email: "keine-mail" }, "Bitte eine gültige E-Mail-Adresse eingeben"],
    [{ lastName: "x".repeat(5000) }, "Höchstens 100 Zeichen"],
    [{ memberTypeId: "abc" }, "Mitgliedsart ist erforderlich"],
    [{ memberSince: "01.01.2026", memberUntil: "01.01.2020" }, "„Mitglied bis“ darf nicht vor „Mitglied seit“ liegen"],
    // The one PLZ and phone rule (`optionalZip`, `optionalPhone` in app/lib/form-fields.ts), shared with Einstellungen.
    [{ zip: "31.02.2026" }, ZIP_MESSAGE],
    [{ zip: "3503" }, ZIP_MESSAGE],
    [{ homePhone: "-1" }, PHONE_MESSAGE],
    [{ mobilePhone: "31.02.2026" }, PHONE_MESSAGE],
    [{ mobilePhone: "0170 abc" }, PHONE_MESSAGE],
  ])("refuses %j with a German message and changes nothing", async (change, message) => {
    const before = await db.$count(schema.people);
    const response = await postForm("/people/1/dogs?dialog=person-add", await loginCookie("admin"), { ...newPerson, lastName: "Ungültig", ...change });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
    expect(await db.$count(schema.people)).toBe(before);
  });

  it("keeps PLZ and phone numbers as people write them", async () => {
    const response = await postForm("/people/1/dogs?dialog=person-add", await loginCookie("admin"), {
      ...newPerson,
      lastName: "Nummernreich",
      zip: " 35037 ",
      homePhone: "06421 / 98 76 5",
      mobilePhone: "+49 (0) 170 123 45-67",
    });
    expect(response.status).toBe(302);
    const [created] = await db.select().from(schema.people).where(eq(schema.people.lastName, "Nummernreich"));
    expect(created).toMatchObject({ zip: "35037", homePhone: "06421 / 98 76 5", mobilePhone: "+49 (0) 170 123 45-67" });
  });

  it("refuses a save based on an old version, names who changed it and keeps their change", async () => {
    const person = data.people[10];
    const cookie = await loginCookie("admin");
    const [original] = await db.select().from(schema.people).where(eq(schema.people.id, person.id!));
    const form = {
      intent: "person:save",
      id: original.id,
      rowVersion: original.rowVersion,
      firstName: original.firstName,
      memberTypeId: original.memberTypeId,
    };
    const first = await postForm(`/people/${original.id}/dogs`, await loginCookie("finance"), { ...form, lastName: "Erste-Änderung" });
    expect(first.status).toBe(302);
    const second = await postForm(`/people/${original.id}/dogs`, cookie, { ...form, lastName: "Zweite-Änderung" });
    expect(second.status).toBe(409);
    const html = await second.text();
    expect(html).toContain("Der Datensatz wurde inzwischen von Fritz Finanz am");
    expect(html).toContain("Erste-Änderung");
    const [stored] = await db.select().from(schema.people).where(eq(schema.people.id, original.id));
    expect(stored.lastName).toBe("Erste-Änderung");
    expect(stored.rowVersion).toBe(original.rowVersion + 1);
  });

  it("deletes a person with dogs into the recycle bin as one transaction", async () => {
    const cookie = await loginCookie("admin");
    const added = await postForm("/people/1/dogs", cookie, { ...newPerson, firstName: "Bin", lastName: "Papierkorb" });
    const personId = Number(added.headers.get("Location")!.split("/")[2]);
    await postForm(`/people/${personId}/dogs`, cookie, { intent: "dog:save", ownerId: personId, commonName: "Rex", gender: 1 });
    await postForm(`/people/${personId}/dogs`, cookie, { intent: "dog:save", ownerId: personId, commonName: "Rosi", gender: 2 });

    const response = await postForm(`/people/${personId}/dogs?dialog=person-delete&dialogId=${personId}`, cookie, { intent: "person:delete", id: personId });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Person wurde gelöscht", undo: expect.any(Number) });
    expect(response.headers.get("Location")).toMatch(/^\/people(\?|$)/);
    expect(await db.$count(schema.people, eq(schema.people.id, personId))).toBe(0);
    expect(await db.$count(schema.dogs, eq(schema.dogs.ownerId, personId))).toBe(0);

    const binned = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.identifier1, "Papierkorb"));
    expect(binned).toHaveLength(1);
    const transaction = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.transactionId, binned[0].transactionId));
    expect(transaction.map((record) => record.tableName).sort()).toEqual(["dogs", "dogs", "people"]);
    expect(transaction.every((record) => record.deletedBy === "Anna Admin")).toBe(true);
    const [record] = JSON.parse(binned[0].json);
    expect(record).toMatchObject({ id: personId, first_name: "Bin", last_name: "Papierkorb", city: "Marburg", member_since: "2026-01-01" });
  });

  it("refuses to delete a person with fees and says why", async () => {
    const feeOwner = data.fees[0].personId;
    const response = await postForm(`/people/${feeOwner}/dogs`, await loginCookie("admin"), { intent: "person:delete", id: feeOwner });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("Die Person kann nicht gelöscht werden: Es gibt");
    expect(await db.$count(schema.people, eq(schema.people.id, feeOwner))).toBe(1);
  });

  it("answers unknown ids and malformed deletes with 4xx and changes nothing", async () => {
    const cookie = await loginCookie("admin");
    const before = await db.$count(schema.people);
    for (const id of ["999999", "abc", "-1", "99999999999999"]) {
      const response = await postForm("/people/1/dogs", cookie, { intent: "person:delete", id });
      expect(response.status, id).toBeGreaterThanOrEqual(400);
      expect(response.status, id).toBeLessThan(500);
    }
    const unknownIntent = await postForm("/people/1/dogs", cookie, { intent: "drop-tables" });
    expect(unknownIntent.status).toBe(400);
    expect(await db.$count(schema.people)).toBe(before);
  });
});

describe("dogs through the dialogs", () => {
  it("adds, edits and deletes a dog; the delete goes into the bin", async () => {
    const cookie = await loginCookie("staff");
    const ownerId = data.people[20].id!;
    const added = await postForm(`/dogs/1/coursememberships?dialog=dog-add`, cookie, {
      intent: "dog:save",
      ownerId,
      commonName: "Wuffi",
      gender: 0,
      rabiesValidUntil: "01.01.2020",
    });
    expect(added.status).toBe(302);
    const [dog] = await db.select().from(schema.dogs).where(eq(schema.dogs.commonName, "Wuffi"));
    expect(dog).toMatchObject({ ownerId, gender: 0, rabiesValidUntil: "2020-01-01", createdBy: "Sven Mitarbeiter" });
    expect(added.headers.get("Location")).toMatch(new RegExp(`^/dogs/${dog.id}/coursememberships`));

    const edited = await postForm(`/dogs/${dog.id}/coursememberships`, cookie, {
      intent: "dog:save",
      id: dog.id,
      rowVersion: dog.rowVersion,
      ownerId,
      commonName: "Wuffi",
      gender: 2,
      archived: true,
    });
    expect(edited.status).toBe(302);
    expect(edited.headers.get("Location")).toContain("list=archived");
    const [changed] = await db.select().from(schema.dogs).where(eq(schema.dogs.id, dog.id));
    expect(changed).toMatchObject({ gender: 2, archived: true, rowVersion: dog.rowVersion + 1, lastModifiedBy: "Sven Mitarbeiter" });

    const deleted = await postForm(`/dogs/${dog.id}/coursememberships`, cookie, { intent: "dog:delete", id: dog.id });
    expect(toastOf(deleted)).toEqual({ type: "success", message: "Hund wurde gelöscht", undo: expect.any(Number) });
    expect(await db.$count(schema.dogs, eq(schema.dogs.id, dog.id))).toBe(0);
    const [binned] = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.identifier1, "Wuffi"));
    expect(binned.tableName).toBe("dogs");
    expect(JSON.parse(binned.json)[0]).toMatchObject({ id: dog.id, common_name: "Wuffi", archived: 1 });
  });

  it("refuses a dog for an owner that does not exist", async () => {
    const response = await postForm("/dogs/1/coursememberships", await loginCookie("staff"), {
      intent: "dog:save",
      ownerId: 999999,
      commonName: "Geist",
      gender: 1,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Diese Person gibt es nicht (mehr)");
    expect(await db.$count(schema.dogs, eq(schema.dogs.commonName, "Geist"))).toBe(0);
  });
});

describe("a link to a row on another page of the list", () => {
  it("opens the page the row is on, with the row selected and its actions", async () => {
    const { rows, total } = await listDogs(db, { list: "current", sort: DOG_DEFAULT_SORT, page: 2 });
    const dog = rows[0];
    const html = (await (await fetchApp(`/dogs/${dog.id}/coursememberships`, { cookie: await loginCookie("staff") })).text()).replaceAll("<!-- -->", "");
    expect(html).toContain(`<tr aria-selected="true" data-row-id="${dog.id}">`);
    expect(html).toContain(`Seite 2 von ${Math.ceil(total / PAGE_SIZE)}`);
    expect(html).toContain(`dialog=dog-edit&amp;dialogId=${dog.id}`);
  });
});

describe("Mensch/Hund Mini+", () => {
  const quickAdd = { personGender: "2", ownerFirstName: "Hanna", ownerLastName: "Schnell", dogCommonName: "Flocke", dogGender: "2", memberTypeId: "0" };

  it("adds a non-member with the dog in one step and shows both", async () => {
    const response = await postForm("/quickAdd", await loginCookie("staff"), quickAdd);
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Person und Hund wurden hinzugefügt" });
    const [person] = await db.select().from(schema.people).where(eq(schema.people.lastName, "Schnell"));
    const [dog] = await db.select().from(schema.dogs).where(eq(schema.dogs.ownerId, person.id));
    const [none] = await db.select().from(schema.memberTypes).where(eq(schema.memberTypes.code, "NONE"));
    expect(person).toMatchObject({ salutation: "Frau", firstName: "Hanna", memberTypeId: none.id, isMember: false });
    expect(dog).toMatchObject({ commonName: "Flocke", gender: 2 });
    expect(response.headers.get("Location")).toMatch(new RegExp(`^/people/${person.id}/dogs\\?dog=${dog.id}(&page=\\d+)?$`));
  });

  it("inserts nothing when a person of that name exists", async () => {
    const existing = data.people[5];
    const before = [await db.$count(schema.people), await db.$count(schema.dogs)];
    const response = await postForm("/quickAdd", await loginCookie("staff"), {
      ...quickAdd,
      ownerFirstName: existing.firstName,
      ownerLastName: existing.lastName,
    });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("Es gibt bereits eine Person mit diesem Namen");
    expect([await db.$count(schema.people), await db.$count(schema.dogs)]).toEqual(before);
  });

  it("stops when member type NONE does not exist exactly once", async () => {
    await db.update(schema.memberTypes).set({ code: "NONE_GONE" }).where(eq(schema.memberTypes.code, "NONE"));
    try {
      const before = await db.$count(schema.people);
      const response = await postForm("/quickAdd", await loginCookie("staff"), { ...quickAdd, ownerLastName: "OhneTyp" });
      expect(response.status).toBe(409);
      expect(await response.text()).toContain("Could not find a membership type with code NONE");
      expect(await db.$count(schema.people)).toBe(before);
    } finally {
      await db.update(schema.memberTypes).set({ code: "NONE" }).where(eq(schema.memberTypes.code, "NONE_GONE"));
    }
  });

  it("requires every field with the spec's messages", async () => {
    const response = await postForm("/quickAdd", await loginCookie("staff"), {});
    expect(response.status).toBe(400);
    const html = await response.text();
    for (const message of [
      "Männlich/weiblich ist erforderlich",
      "Vorname ist erforderlich",
      "Nachname ist erforderlich",
      "Name ist erforderlich",
      "Geschlecht ist erforderlich",
    ]) {
      expect(html).toContain(message);
    }
  });
});

describe("Mitgliederliste.xlsx", () => {
  it("is a real xlsx download of the people list", async () => {
    const response = await fetchApp("/people/export?filter=members", { cookie: await loginCookie("admin") });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="Mitgliederliste.xlsx"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    // A zip (PK) of reasonable size: the rows are in it.
    expect([bytes[0], bytes[1]]).toEqual([0x50, 0x4b]);
    expect(bytes.length).toBeGreaterThan(4000);
  });
});

describe("/people without a selected person", () => {
  it("shows the list's first person with their dogs, also after another person became the first", async () => {
    const cookie = await loginCookie("admin");
    const { rows } = await listPeople(db, { filter: "all", sort: PEOPLE_DEFAULT_SORT, page: 1, withProtected: false });
    const first = rows[0];
    // Twice: the second request reads the tab of the person it expects first together with the list.
    for (let i = 0; i < 2; i++) {
      const html = (await (await fetchApp("/people", { cookie })).text()).replaceAll("<!-- -->", "");
      expect(html).toContain(`Hunde für ${first.firstName} ${first.lastName}`);
    }
    const [newcomer] = await db
      .insert(schema.people)
      .values({ salutation: "Frau", firstName: "Anna", lastName: "Aaberg", memberTypeId: 1, isMember: false })
      .returning({ id: schema.people.id });
    await db.insert(schema.dogs).values({ commonName: "Zorro", ownerId: newcomer.id });
    const html = (await (await fetchApp("/people", { cookie })).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Hunde für Anna Aaberg");
    expect(html).toContain("Zorro");
  });
});

describe("contact at a tap", () => {
  it("phone numbers and e-mail addresses are tel: and mailto: links in the grid and the dialog", async () => {
    const cookie = await loginCookie("staff");
    const [person] = await db
      .insert(schema.people)
      .values({
        firstName: "Tina",
        lastName: "Telefon",
        memberTypeId: 1,
        email: "tina.telefon@example.org",
        mobilePhone: "+49 (0) 170 123 45-67",
        homePhone: "06421 / 98 76 5",
      })
      .returning({ id: schema.people.id });
    const choice = new URLSearchParams([["grid", "people"], ...["lastName", "email", "mobilePhone"].map((id) => ["visible", id])]);
    expect((await fetchApp("/preferences/columns", { method: "POST", cookie, body: choice })).status).toBe(200);
    // Newest first: the new person is on the first page.
    const grid = (await (await fetchApp(`/people?sort=-id`, { cookie })).text()).replaceAll("<!-- -->", "");
    const row = grid.slice(grid.indexOf(`data-row-id="${person.id}"`), grid.indexOf("</tr>", grid.indexOf(`data-row-id="${person.id}"`)));
    expect(row).toContain('href="mailto:tina.telefon@example.org"');
    expect(row).toContain('href="tel:+491701234567"');
    expect(row).toContain(">+49 (0) 170 123 45-67</a>");

    const dialog = (await (await fetchApp(`/people/${person.id}/dogs?dialog=person-edit&dialogId=${person.id}`, { cookie })).text()).replaceAll("<!-- -->", "");
    expect(dialog).toMatch(/<a href="tel:\+491701234567"[^>]*>Anrufen<span class="sr-only"> \(Mobil \+49 \(0\) 170 123 45-67\)<\/span><\/a>/);
    expect(dialog).toMatch(/<a href="tel:0642198765"[^>]*>Anrufen<span class="sr-only"> \(Telefon 06421 \/ 98 76 5\)/);
    expect(dialog).toMatch(/<a href="mailto:tina.telefon@example.org"[^>]*>Schreiben<span class="sr-only"> \(E-Mail tina.telefon@example.org\)/);
    // The phone fields are telephone inputs (a phone's keypad).
    expect(dialog).toMatch(/<input[^>]*type="tel"[^>]*name="mobilePhone"|<input[^>]*name="mobilePhone"[^>]*type="tel"/);
  });

  it("an empty field offers no link", async () => {
    const [person] = await db.insert(schema.people).values({ firstName: "Otto", lastName: "Ohnenummer", memberTypeId: 1 }).returning({ id: schema.people.id });
    const dialog = await (await fetchApp(`/people/${person.id}/dogs?dialog=person-edit&dialogId=${person.id}`, { cookie: await loginCookie("staff") })).text();
    const start = dialog.indexOf('<dialog open=""');
    expect(start).toBeGreaterThan(0);
    const form = dialog.slice(start);
    expect(form).not.toContain('href="tel:');
    expect(form).not.toContain('href="mailto:');
  });
});

// Moved from the browser (tests/e2e/people.spec.ts): the toggles and the sorting headers are links,
// the grid the server's markup, the export a download; following a link is what a click does.
describe("the people grid's filter, sorting and export, as finance gets them", () => {
  // A FINANCE user of its own: the grid's default columns (the other tests here choose columns
  // for the demo users).
  const finance = { id: "finance-grid", name: "Frieda Finanz", email: "frieda@wuff.example", roles: ["FINANCE" as const] };
  const grid = async (path: string) => gridOf(await (await fetchApp(path, { cookie: await loginCookie(finance) })).text(), "Personen");

  it("the filter toggles show members only and non-members only, marked and kept in the URL", async () => {
    const all = await grid("/people");
    const toggles = all.toggles("Personen filtern");
    expect(toggles.get("Alle")?.current).toBe(true);
    expect(toggles.get("Nur Mitglieder")?.href).toMatch(/[?&]filter=members\b/);
    const memberColumn = all.columns.findIndex((column) => column.label === "Mitglied");
    expect(memberColumn).toBeGreaterThanOrEqual(0);

    const members = await grid(toggles.get("Nur Mitglieder")!.href);
    expect(members.toggles("Personen filtern").get("Nur Mitglieder")?.current).toBe(true);
    expect(members.count).toBeLessThan(all.count);
    expect(members.rows.length).toBeGreaterThan(0);
    expect(members.rows.every((row) => row[memberColumn] === "checked")).toBe(true);

    const others = await grid(members.toggles("Personen filtern").get("Nur Nichtmitglieder")!.href);
    expect(others.toggles("Personen filtern").get("Nur Nichtmitglieder")?.current).toBe(true);
    expect(others.count).toBeLessThan(all.count);
    expect(others.rows.length).toBeGreaterThan(0);
    expect(others.rows.every((row) => row[memberColumn] === "unchecked")).toBe(true);
  });

  it("a header's link sorts by its column, ascending then descending, marked with aria-sort", async () => {
    const first = await grid("/people");
    const header = (page: typeof first) => page.columns.find((column) => column.label === "Vorname")!;
    expect(header(first).sort).toBe("none");
    expect(header(first).href).toMatch(/[?&]sort=firstName\b/);
    const ascending = await grid(header(first).href!);
    expect(header(ascending).sort).toBe("ascending");
    expect(header(ascending).href).toMatch(/[?&]sort=-firstName\b/);
    const descending = await grid(header(ascending).href!);
    expect(header(descending).sort).toBe("descending");
    const column = descending.columns.indexOf(header(descending));
    const firstNames = descending.rows.slice(0, 5).map((row) => row[column]);
    expect(firstNames.map(nameSortKey)).toEqual([...firstNames.map(nameSortKey)].sort().reverse());
  });

  it("Excel-Export: Mitgliederliste.xlsx with the grid's visible columns and every filtered row", async () => {
    const members = await grid("/people?filter=members");
    const response = await fetchApp("/people/export?filter=members", { cookie: await loginCookie(finance) });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="Mitgliederliste.xlsx"');
    const rows = await readSheet(await response.arrayBuffer());
    expect(rows[0]).toEqual(members.columns.map((column) => column.label));
    // Every row of the filter, not just the grid's first page.
    expect(rows).toHaveLength(members.count + 1);
    expect(rows[1][0]).toBe(members.rows[0][0]);
    const memberColumn = (rows[0] as string[]).indexOf("Mitglied");
    expect(rows.slice(1).every((row) => row[memberColumn] === "ja")).toBe(true);
  });
});
