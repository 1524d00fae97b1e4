/**
 * Names sort by DIN 5007 (Ä with A, Ö with O, Ü with U, ß as ss, without case) in the grids, in
 * the page a row is on and in the Excel export: all from the indexed key columns.
 */
import { env } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { readSheet } from "read-excel-file/universal";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { PAGE_SIZE, type SortSpec } from "~/lib/grid";
import { listCertificationMasters, listCertifications, pageOfCertification } from "~/models/certifications.server";
import { listMemberships, pageOfMembership } from "~/models/course-memberships.server";
import { listDogs, pageOfDog } from "~/models/dogs.server";
import { listFees, pageOfFee } from "~/models/fees.server";
import { listAllPeople, listPeople, pageOfPerson } from "~/models/people.server";
import { fetchApp } from "../support/app";
import { gridOf } from "../support/grid-html";
import { loginCookie } from "../support/sessions";
import { insertPeople } from "../support/seed";

const db = createDb(env.DB);

/** Inserted in this order: Straße before Strasse, so the id decides between the equal keys. */
const NAMES = ["Zander", "Ärmel", "Östringer", "Özdemir", "Übel", "Grötzinger", "Gruszecki", "Abel", "Straße", "Strasse"];
const DIN_ORDER = ["Abel", "Ärmel", "Grötzinger", "Gruszecki", "Östringer", "Özdemir", "Straße", "Strasse", "Übel", "Zander"];
/** Descending: equal keys (Straße, Strasse) keep the id order in both directions, so the grid stays stable. */
const DIN_ORDER_DESCENDING = ["Zander", "Übel", "Straße", "Strasse", "Özdemir", "Östringer", "Gruszecki", "Grötzinger", "Ärmel", "Abel"];
const MASTERS = ["Zughundeprüfung", "Übungsleiter", "Ausdauertest", "Ökotest", "agility"];
const MASTER_ORDER = ["agility", "Ausdauertest", "Ökotest", "Übungsleiter", "Zughundeprüfung"];

const ascending = (id: string): SortSpec => ({ id, descending: false });
const descending = (id: string): SortSpec => ({ id, descending: true });
const idOf = new Map<string, number>();

beforeAll(async () => {
  await db.insert(schema.memberTypes).values({ id: 1, code: "NONE", name: "Kein Mitglied" });
  const people = await insertPeople(
    db,
    NAMES.map((lastName) => ({ firstName: "Erika", lastName, memberTypeId: 1 })),
  );
  for (const person of people) idOf.set(person.lastName, person.id);
  // Every person has a dog of their name and an Erfolg of one of the masters.
  await db.insert(schema.dogs).values(NAMES.map((commonName) => ({ commonName, ownerId: idOf.get(commonName)! })));
  const masters = await db
    .insert(schema.certificationMasters)
    .values(MASTERS.map((name) => ({ name, isPersonCertification: true })))
    .returning({ id: schema.certificationMasters.id });
  await db
    .insert(schema.certifications)
    .values(people.map((person, index) => ({ personId: person.id, certificationMasterId: masters[index % masters.length].id })));
});

describe("names sort by DIN 5007", () => {
  it("in the people list, ascending and descending, and its first name ties", async () => {
    const list = (sort: SortSpec) => listPeople(db, { filter: "all", sort, page: 1, withProtected: false });
    expect((await list(ascending("lastName"))).rows.map((row) => row.lastName)).toEqual(DIN_ORDER);
    // Equal keys (Straße, Strasse) keep the id order in both directions: the grid stays stable.
    expect((await list(descending("lastName"))).rows.map((row) => row.lastName)).toEqual(DIN_ORDER_DESCENDING);
    await db.insert(schema.people).values([
      { firstName: "Özlem", lastName: "Abel", memberTypeId: 1 },
      { firstName: "Zoe", lastName: "Abel", memberTypeId: 1 },
      { firstName: "ärmel", lastName: "Abel", memberTypeId: 1 },
    ]);
    const abels = (await list(ascending("lastName"))).rows.filter((row) => row.lastName === "Abel").map((row) => row.firstName);
    expect(abels).toEqual(["ärmel", "Erika", "Özlem", "Zoe"]);
    const firstNames = (await list(ascending("firstName"))).rows.map((row) => row.firstName);
    expect(firstNames.slice(0, 2)).toEqual(["ärmel", "Erika"]);
    expect(firstNames.slice(-2)).toEqual(["Özlem", "Zoe"]);
    await db.delete(schema.people).where(inArray(schema.people.firstName, ["Özlem", "Zoe", "ärmel"]));
  });

  it("in the dogs list by name and by owner, and in the page of a dog", async () => {
    for (const sort of [ascending("commonName"), ascending("ownerFullName")]) {
      const { rows } = await listDogs(db, { list: "current", sort, page: 1 });
      expect(rows.map((row) => row.commonName)).toEqual(DIN_ORDER);
      for (const [index, row] of rows.entries()) {
        expect(await pageOfDog(db, row.id, { list: "current", sort }, 3), row.commonName).toBe(Math.floor(index / 3) + 1);
      }
    }
  });

  it("counts the dogs of the list, of an owner and of a name search (the owner's name too)", async () => {
    const total = async (query: { ownerId?: number; term?: string }) =>
      (await listDogs(db, { list: "current", sort: ascending("commonName"), page: 1, ...query })).total;
    expect(await total({})).toBe(NAMES.length);
    expect(await total({ ownerId: idOf.get("Übel") })).toBe(1);
    // 'ubel' finds Übel's dog by its name, 'Erika' every dog by its owner's first name.
    expect(await total({ term: "ubel" })).toBe(1);
    expect(await total({ term: "Erika" })).toBe(NAMES.length);
    expect(await total({ term: "Erika", ownerId: idOf.get("Abel") })).toBe(1);
    expect(await total({ term: "niemand" })).toBe(0);
    expect((await listDogs(db, { list: "archived", sort: ascending("commonName"), page: 1 })).total).toBe(0);
  });

  it("in the Kontenblatt: a day's fees by person (the default), and every fee by person", async () => {
    // Two days of fees, each day's in reverse name order: newest day first, then DIN 5007 by person.
    const fees = ["2026-03-01", "2026-03-02"].flatMap((date) =>
      [...NAMES]
        .reverse()
        .map((lastName) => ({ personId: idOf.get(lastName)!, date, text: `Beitrag ${lastName}`, amount: 100, openAmount: 100, kind: "OTHER" as const })),
    );
    // One statement each: D1 binds at most 100 variables per statement.
    await db.batch(fees.map((fee) => db.insert(schema.fees).values(fee)) as [never, ...never[]]);
    const list = (sort: SortSpec) => listFees(db, { state: "all", billing: "all", sort, page: 1 });
    const byDate = (await list(descending("date"))).rows;
    expect(byDate.map((row) => [row.date, row.text])).toEqual(
      ["2026-03-02", "2026-03-01"].flatMap((date) => DIN_ORDER.map((lastName) => [date, `Beitrag ${lastName}`])),
    );
    for (const [index, row] of byDate.entries()) {
      expect(await pageOfFee(db, row.id, { state: "all", billing: "all", sort: descending("date") }, 4), row.text).toBe(Math.floor(index / 4) + 1);
    }
    // By person: each person's two fees together; Straße and Strasse have equal keys, so theirs mix.
    const sameKey = (text: string) => text.replace("Strasse", "Straße");
    const byPerson = (await list(ascending("personName"))).rows.map((row) => sameKey(row.text));
    expect(byPerson).toEqual(DIN_ORDER.flatMap((lastName) => [sameKey(`Beitrag ${lastName}`), sameKey(`Beitrag ${lastName}`)]));
    await db.delete(schema.fees);
  });

  it("in the Erfolge by person and by Erfolgsart, and in the Erfolgsarten", async () => {
    const byPerson = await listCertifications(db, { sort: ascending("personName"), page: 1 });
    expect(byPerson.rows.map((row) => row.personName)).toEqual(DIN_ORDER.map((name) => `Erika ${name}`));
    for (const [index, row] of byPerson.rows.entries()) {
      expect(await pageOfCertification(db, row.id, { sort: ascending("personName") }, 4)).toBe(Math.floor(index / 4) + 1);
    }
    const byMaster = await listCertifications(db, { sort: ascending("certificationName"), page: 1 });
    expect([...new Set(byMaster.rows.map((row) => row.certificationName))]).toEqual(MASTER_ORDER);
    const masters = await listCertificationMasters(db, { sort: ascending("name"), page: 1 });
    expect(masters.rows.map((row) => row.name)).toEqual(MASTER_ORDER);
  });

  it("in a course's participants by person and by dog, and in the page of a participant", async () => {
    await db.insert(schema.membershipStatuses).values({ code: "CONFIRMED", name: "Angemeldet", appliesTo: "COURSE" }).onConflictDoNothing();
    const [status] = await db
      .select({ id: schema.membershipStatuses.id })
      .from(schema.membershipStatuses)
      .where(eq(schema.membershipStatuses.code, "CONFIRMED"));
    const [course] = await db.insert(schema.courses).values({ name: "Namen", startYear: 2026 }).returning({ id: schema.courses.id });
    const ownDogs = await db.select({ id: schema.dogs.id, ownerId: schema.dogs.ownerId }).from(schema.dogs);
    // One by one: a multi-row insert would pass D1's 100 bound variables.
    for (const dog of ownDogs) {
      await db.insert(schema.courseMemberships).values({ courseId: course.id, personId: dog.ownerId, dogId: dog.id, statusId: status.id });
    }
    for (const id of ["fullName", "dogCommonName"]) {
      const { rows } = await listMemberships(db, { courseId: course.id, sort: ascending(id), page: 1 });
      expect(
        rows.map((row) => row.dogCommonName),
        id,
      ).toEqual(DIN_ORDER);
      expect((await listMemberships(db, { courseId: course.id, sort: descending(id), page: 1 })).rows.map((row) => row.dogCommonName)).toEqual(
        DIN_ORDER_DESCENDING,
      );
      for (const [index, row] of rows.entries()) {
        expect(await pageOfMembership(db, row.id, { courseId: course.id, sort: ascending(id) }, 4)).toBe(Math.floor(index / 4) + 1);
      }
    }
    await db.delete(schema.courseMemberships).where(eq(schema.courseMemberships.courseId, course.id));
    await db.delete(schema.courses).where(eq(schema.courses.id, course.id));
  });

  it("in the page a person is on, which agrees with the list for every sort direction", async () => {
    for (const sort of [ascending("lastName"), descending("lastName"), ascending("firstName")]) {
      const all = await listAllPeople(db, { filter: "all", sort, withProtected: false });
      for (const [index, person] of all.entries()) {
        expect(await pageOfPerson(db, person.id, { filter: "all", sort, withProtected: false }, 3), `${person.lastName} ${JSON.stringify(sort)}`).toBe(
          Math.floor(index / 3) + 1,
        );
      }
    }
    // NOCASE put Ärmel after Zander, on the last page.
    expect(await pageOfPerson(db, idOf.get("Ärmel")!, { filter: "all", sort: ascending("lastName"), withProtected: false }, 3)).toBe(1);
  });

  it("in the grid's HTML", async () => {
    const cookie = await loginCookie("staff");
    const html = (await (await fetchApp("/people?sort=lastName", { cookie })).text()).replaceAll("<!-- -->", "");
    // The rows of the people grid (the first table body; the page names the selected person before).
    const rows = html.slice(html.indexOf("<tbody"), html.indexOf("</tbody>"));
    const positions = DIN_ORDER.map((name) => rows.indexOf(`>${name}<`));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  // Moved from the browser (tests/e2e/name-order.spec.ts): the Nachname header's link turns the
  // filtered list around and back, the filter kept, every row of the list in DIN order both ways.
  it("in the filtered grid's HTML, descending and back by the Nachname header's link, the filter kept", async () => {
    const cookie = await loginCookie("staff");
    const grid = async (path: string) => gridOf(await (await fetchApp(path, { cookie })).text(), "Personen");
    const nachname = (page: Awaited<ReturnType<typeof grid>>) => page.columns.find((column) => column.label === "Nachname")!;
    const start = await grid("/people?filter=nonmembers");
    expect(nachname(start).sort).toBe("ascending");
    const down = await grid(nachname(start).href!);
    expect(nachname(down).href).toMatch(/[?&]filter=nonmembers\b/);
    expect(nachname(down).sort).toBe("descending");
    const column = down.columns.indexOf(nachname(down));
    // Equal keys (Straße, Strasse) keep the id order in both directions.
    expect(down.rows.map((row) => row[column])).toEqual(DIN_ORDER_DESCENDING);
    const up = await grid(nachname(down).href!);
    expect(nachname(up).sort).toBe("ascending");
    expect(up.rows.map((row) => row[column])).toEqual(DIN_ORDER);
  });

  it("in the Excel export Mitgliederliste.xlsx", async () => {
    const response = await fetchApp("/people/export?sort=lastName", { cookie: await loginCookie("admin") });
    expect(response.status).toBe(200);
    const [header, ...rows] = await readSheet(await response.arrayBuffer());
    const column = header.indexOf("Nachname");
    expect(rows.map((row) => row[column])).toEqual(DIN_ORDER);
    const descendingExport = await fetchApp("/people/export?sort=-lastName", { cookie: await loginCookie("admin") });
    const [, ...reversed] = await readSheet(await descendingExport.arrayBuffer());
    expect(reversed.map((row) => row[column])[0]).toBe("Zander");
    expect(reversed.map((row) => row[column]).at(-1)).toBe("Abel");
  });

  it("reads the grids' name orders from the key indexes instead of sorting every row", async () => {
    const plan = async (query: string) =>
      (await env.DB.prepare(`EXPLAIN QUERY PLAN ${query}`).all<{ detail: string }>()).results.map((row) => row.detail).join("\n");
    const people = await plan(
      `SELECT people.*, member_types.name FROM people LEFT JOIN member_types ON member_types.id = people.member_type_id
       ORDER BY last_name_key, first_name_key, people.id LIMIT ${PAGE_SIZE}`,
    );
    expect(people).toContain("people_name_key_idx");
    expect(people).not.toContain("TEMP B-TREE");
    const dogs = await plan(
      `SELECT dogs.*, people.full_name FROM dogs JOIN people ON people.id = dogs.owner_id
       WHERE archived = 0 ORDER BY common_name_key, dogs.id LIMIT ${PAGE_SIZE}`,
    );
    expect(dogs).toContain("dogs_archived_name_key_idx");
    expect(dogs).not.toContain("TEMP B-TREE");
    // A person's dogs (the Hunde tab) in the same order: that owner's only, not every dog by name.
    const ownersDogs = await plan(
      `SELECT dogs.*, people.full_name FROM dogs JOIN people ON people.id = dogs.owner_id
       WHERE archived = 0 AND owner_id = 1 ORDER BY common_name_key, dogs.id LIMIT ${PAGE_SIZE}`,
    );
    expect(ownersDogs).toContain("dogs_owner_idx (owner_id=? AND archived=?)");
    expect(ownersDogs).not.toContain("TEMP B-TREE");
    // The grid's count without a name search reads the index alone, no owner joined.
    expect(await plan("SELECT count(*) FROM dogs WHERE archived = 0")).toMatch(/COVERING INDEX/);
    // The Kontenblatt sorts each day's fees by person: the keys come from people_id_name_keys_idx,
    // not worked out from every fee's person (personNameKeys).
    const fees = await plan(
      `SELECT fees.id FROM fees JOIN people ON people.id = fees.person_id WHERE fees.date >= ''
       ORDER BY fees.date DESC, (SELECT k.last_name_key FROM people AS k INDEXED BY people_id_name_keys_idx WHERE k.id = fees.person_id) LIMIT ${PAGE_SIZE}`,
    );
    expect(fees).toContain("fees_date_idx");
    expect(fees).toMatch(/SEARCH k USING (COVERING )?INDEX people_id_name_keys_idx/);
    // A course's participants by name: both people's keys and the dog's from their id indexes.
    const participants = await plan(
      `SELECT m.id FROM course_memberships m WHERE m.course_id = 1
       ORDER BY (SELECT k.last_name_key FROM people AS k INDEXED BY people_id_name_keys_idx WHERE k.id = m.person_id),
         (SELECT k.common_name_key FROM dogs AS k INDEXED BY dogs_id_name_key_idx WHERE k.id = m.dog_id)`,
    );
    expect(participants).toMatch(/SEARCH k USING (COVERING )?INDEX dogs_id_name_key_idx/);
  });
});
