/**
 * drizzle-orm as patched for speed (patches/drizzle-orm+0.45.4.patch): `is()` keeps its answer per
 * class and kind, and the rows of an answer are mapped with what each column needs worked out once
 * per list of columns. What must not change: the objects a select gives. Checked on random rows
 * against objects built by hand from the same data: columns, SQL fields, nested selections, and a
 * left join whose missing row becomes null (and a present one with only nulls stays an object).
 * Also inValues (app/db/columns.ts): an IN list longer than D1 binds parameters.
 */
import { env } from "cloudflare:test";
import { eq, is, SQL, sql } from "drizzle-orm";
import { Column } from "drizzle-orm/column";
import { integer, sqliteTable, text, SQLiteColumn } from "drizzle-orm/sqlite-core";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { inValues } from "~/db/columns";

const owners = sqliteTable("test_mapping_owners", { id: integer("id").primaryKey(), name: text("name"), active: integer("active", { mode: "boolean" }) });
const pets = sqliteTable("test_mapping_pets", { id: integer("id").primaryKey(), ownerId: integer("owner_id"), name: text("name"), born: text("born") });

const db = createDb(env.DB);

// The tables are this file's own: gone again before another file could list the schema.
afterAll(async () => {
  await env.DB.batch([env.DB.prepare("DROP TABLE IF EXISTS test_mapping_owners"), env.DB.prepare("DROP TABLE IF EXISTS test_mapping_pets")]);
});

describe("drizzle's is() with kept answers", () => {
  it("answers the same for every class and kind, again and again", () => {
    const column = owners.name;
    const expression = sql`1`;
    for (let round = 0; round < 3; round++) {
      expect(is(column, Column)).toBe(true);
      expect(is(column, SQLiteColumn)).toBe(true);
      expect(is(column, SQL)).toBe(false);
      expect(is(expression, SQL)).toBe(true);
      expect(is(expression, Column)).toBe(false);
      expect(is(expression.as("x"), SQL.Aliased)).toBe(true);
      expect(is(expression.as("x"), SQL)).toBe(false);
      expect(is(null, Column)).toBe(false);
      expect(is({ name: "kein Drizzle" }, Column)).toBe(false);
    }
    expect(() => is(column, Date as never)).toThrow(/doesn't look like a Drizzle entity/);
  });
});

describe("drizzle's rows as objects", () => {
  const owner = fc.record({ name: fc.option(fc.string({ maxLength: 12 })), active: fc.option(fc.boolean()) });
  const pet = fc.record({
    owner: fc.nat({ max: 6 }),
    name: fc.option(fc.string({ maxLength: 12 })),
    born: fc.option(fc.constantFrom("2020-01-01", "2024-12-31")),
  });

  it("maps columns, SQL fields, nested selections and left joins as built by hand", async () => {
    await env.DB.batch([
      env.DB.prepare("CREATE TABLE IF NOT EXISTS test_mapping_owners (id INTEGER PRIMARY KEY, name TEXT, active INTEGER)"),
      env.DB.prepare("CREATE TABLE IF NOT EXISTS test_mapping_pets (id INTEGER PRIMARY KEY, owner_id INTEGER, name TEXT, born TEXT)"),
    ]);
    await fc.assert(
      fc.asyncProperty(fc.array(owner, { maxLength: 4 }), fc.array(pet, { maxLength: 6 }), async (ownerRows, petRows) => {
        await env.DB.batch([env.DB.prepare("DELETE FROM test_mapping_owners"), env.DB.prepare("DELETE FROM test_mapping_pets")]);
        const ownersWithIds = ownerRows.map((row, index) => ({ id: index + 1, ...row }));
        const petsWithIds = petRows.map((row, index) => ({ id: index + 1, ownerId: row.owner, name: row.name, born: row.born }));
        if (ownersWithIds.length) await db.insert(owners).values(ownersWithIds);
        if (petsWithIds.length) await db.insert(pets).values(petsWithIds);

        const rows = await db
          .select({
            pet: pets,
            owner: { id: owners.id, name: owners.name, active: owners.active },
            label: sql<string>`coalesce(${pets.name}, '?') || '/' || coalesce(${owners.name}, '-')`.as("label"),
            nested: { upperName: sql<string | null>`upper(${pets.name})`, born: pets.born },
          })
          .from(pets)
          .leftJoin(owners, eq(owners.id, pets.ownerId))
          .orderBy(pets.id);

        const expected = petsWithIds.map((row) => {
          const found = ownersWithIds.find((candidate) => candidate.id === row.ownerId);
          return {
            pet: row,
            // A missing joined row is null; a present one keeps its nulls.
            owner: found ? { id: found.id, name: found.name, active: found.active } : null,
            label: `${row.name ?? "?"}/${found?.name ?? "-"}`,
            nested: { upperName: row.name === null ? null : row.name.toUpperCase(), born: row.born },
          };
        });
        // SQLite's upper() changes ASCII letters only.
        for (const row of expected) if (row.nested.upperName !== null) row.nested.upperName = row.pet.name!.replace(/[a-z]/g, (letter) => letter.toUpperCase());
        expect(rows).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});

describe("inValues: a list of any length as one parameter", () => {
  it("matches exactly the rows whose value is in the list, past D1's 100 bound parameters, and none for an empty list", async () => {
    await env.DB.prepare("CREATE TABLE IF NOT EXISTS test_mapping_pets (id INTEGER PRIMARY KEY, owner_id INTEGER, name TEXT, born TEXT)").run();
    await env.DB.prepare("DELETE FROM test_mapping_pets").run();
    const stored = Array.from({ length: 300 }, (_, index) => ({ id: index + 1, name: `Hund ${index + 1}` }));
    await env.DB.batch(stored.map(({ id, name }) => env.DB.prepare("INSERT INTO test_mapping_pets (id, name) VALUES (?, ?)").bind(id, name)));
    // Ids beyond the stored ones and duplicates included; up to four times D1's limit.
    const lengths: number[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 320 }), { maxLength: 400, size: "max" }), async (ids) => {
        const byId = await db.select({ id: pets.id }).from(pets).where(inValues(pets.id, ids)).orderBy(pets.id);
        lengths.push(ids.length);
        expect(byId.map((row) => row.id)).toEqual([...new Set(ids)].filter((id) => id >= 1 && id <= 300).sort((a, b) => a - b));
        const names = ids.map((id) => `Hund ${id}`);
        const byName = await db
          .select({ id: pets.id })
          .from(pets)
          .where(inValues(sql`${pets.name}`, names))
          .orderBy(pets.id);
        expect(byName).toEqual(byId);
      }),
      { numRuns: 40 },
    );
    expect(Math.max(...lengths)).toBeGreaterThan(100);
    expect(await db.select({ id: pets.id }).from(pets).where(inValues(pets.id, []))).toEqual([]);
  });
});
