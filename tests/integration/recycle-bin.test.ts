import { env } from "cloudflare:test";
import { eq, getTableName, sql, type Table } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb, runAtomically } from "~/db/client.server";
import * as schema from "~/db/schema";
import { deletePerson } from "~/models/people.server";
import { recycleStatements, restoreDeletedRecord } from "~/models/recycle-bin.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const actor = { name: "Anna Admin" };

beforeAll(async () => {
  await loadDemoData();
});

type WithId = SQLiteTable & { id: typeof schema.people.id };

/** A fresh record of each entity (nothing refers to it yet), from the demo data's parents. */
const FRESH: [WithId, Record<string, unknown>][] = [
  [schema.locations as unknown as WithId, { name: "Testplatz", city: "Marburg" }],
  [schema.courseMasters as unknown as WithId, { name: "Testkurs-Typ", costFull: 12345 }],
  [schema.certificationMasters as unknown as WithId, { name: "Testerfolg", isDogCertification: true }],
  [schema.people as unknown as WithId, { firstName: "Rita", lastName: "Rückkehr", memberTypeId: 1, dateOfBirth: "1970-02-03", hasGdpr: true }],
  [schema.dogs as unknown as WithId, { ownerId: 1, commonName: "Rex", gender: 1, rabiesValidUntil: "2027-01-01", archived: true }],
  [schema.courses as unknown as WithId, { name: "Testkurs", startYear: 2026, costFull: 9900, statusCode: "PLANNED", courseMasterId: 1 }],
  [schema.courseDates as unknown as WithId, { courseId: 1, startDateTime: "2026-12-01T17:00:00.000Z", comments: "Test" }],
  [schema.courseMemberships as unknown as WithId, { courseId: 2, personId: 3, dogId: 4, statusId: 5, price: 1000, amount: 900 }],
  [schema.attendances as unknown as WithId, { courseDateId: 1, courseMembershipId: 1, present: true }],
  [schema.fees as unknown as WithId, { personId: 2, date: "2026-11-01", text: "Testposten", amount: 1234, openAmount: 1234, kind: "OTHER" }],
  [schema.certifications as unknown as WithId, { personId: 2, certificationMasterId: 3, date: "2026-05-05" }],
  // Drafts only (issue 30): an issued invoice and its rows are never deleted. Invoice 7 is the demo's draft.
  [schema.invoiceHeaders as unknown as WithId, { personId: 2, date: "2026-11-01", amount: 500, openAmount: 0 }],
  [schema.invoiceRows as unknown as WithId, { invoiceId: 7, lineNumber: 9, text: "Testzeile", amount: -250 }],
  [schema.mailshots as unknown as WithId, { name: "Testmailing", recipientQuery: "members", templateName: "t", subject: "Hallo" }],
  [schema.templates as unknown as WithId, { name: "testvorlage", kind: "MAIL", subject: "Hallo {{firstName}}", html: "<p>Hallo</p>", text: "Hallo" }],
];

describe("deleting into the bin and restoring, for every entity", () => {
  it.each(FRESH.map(([table, values]) => [getTableName(table as Table), table, values] as const))(
    "%s: restored field by field, the bin empty again",
    async (_name, table, values) => {
      const [created] = await db
        .insert(table)
        .values({ ...values, createdBy: "Test" } as never)
        .returning();
      // As stored: triggers may have completed the row after RETURNING (a waiting list's rank).
      const [stored] = await db
        .select()
        .from(table)
        .where(eq(table.id, (created as { id: number }).id));
      const original = stored as Record<string, unknown> & { id: number };
      const before = await db.$count(schema.deletedRecords);
      await runAtomically(
        db,
        recycleStatements(db, { main: { table, where: eq(table.id, original.id), identifiers: [sql`'Test'`, sql`${table.id}`] }, deletedBy: actor.name }),
      );
      expect(await db.$count(table, eq(table.id, original.id))).toBe(0);
      const [binned] = await db
        .select()
        .from(schema.deletedRecords)
        .where(eq(schema.deletedRecords.identifier2, String(original.id)))
        .orderBy(sql`id desc`);
      expect(binned.tableName).toBe(getTableName(table as Table));

      const outcome = await restoreDeletedRecord(db, binned.id);
      expect(outcome.status).toBe("restored");
      const [restored] = await db.select().from(table).where(eq(table.id, original.id));
      expect(restored).toEqual(original);
      expect(await db.$count(schema.deletedRecords)).toBe(before);
    },
  );

  it("deletes a person with dogs and restores the whole transaction", async () => {
    const [person] = await db.insert(schema.people).values({ firstName: "Hans", lastName: "Heimkehr", city: "Gießen", memberTypeId: 1 }).returning();
    const dogs = await db
      .insert(schema.dogs)
      .values([
        { ownerId: person.id, commonName: "Anka" },
        { ownerId: person.id, commonName: "Bodo" },
      ])
      .returning();
    expect((await deletePerson(db, person.id, actor)).status).toBe("deleted");
    const [main] = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.identifier1, "Heimkehr"));

    // A dog cannot come back while its owner is still deleted.
    const [dogRecord] = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.identifier1, "Anka"));
    const refused = await restoreDeletedRecord(db, dogRecord.id);
    expect(refused).toEqual({ status: "refused", message: expect.stringContaining("noch gelöscht ist") });
    expect(await db.$count(schema.dogs, eq(schema.dogs.ownerId, person.id))).toBe(0);

    const outcome = await restoreDeletedRecord(db, main.id);
    expect(outcome).toMatchObject({ status: "restored", count: 3 });
    expect(await db.select().from(schema.people).where(eq(schema.people.id, person.id))).toEqual([person]);
    expect(await db.select().from(schema.dogs).where(eq(schema.dogs.ownerId, person.id))).toEqual(dogs);
    expect(await db.$count(schema.deletedRecords, eq(schema.deletedRecords.transactionId, main.transactionId))).toBe(0);
  });
});

describe("the Papierkorb screen", () => {
  it("lists the bin grouped by transaction and restores with the spec's toast", async () => {
    const cookie = await loginCookie("staff");
    const [person] = await db.insert(schema.people).values({ firstName: "Erika", lastName: "Wieder", city: "Marburg", memberTypeId: 1 }).returning();
    await deletePerson(db, person.id, actor);
    const [record] = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.identifier1, "Wieder"));

    const page = await (await fetchApp("/recyclebin", { cookie })).text();
    expect(page).toContain("Gelöschte Datensätze");
    expect(page).toContain(`Transaktion ${record.transactionId}`);
    const dialog = await (await fetchApp(`/recyclebin?dialog=bin-restore&dialogId=${record.id}`, { cookie })).text();
    expect(dialog).toContain("Du bist im Begriff, diesen gelöschten Satz wiederherzustellen.");
    expect(dialog).toContain("Bist du sicher?");
    expect(dialog).toContain("Ja, wiederherstellen");

    const response = await postForm(`/recyclebin?dialog=bin-restore&dialogId=${record.id}`, cookie, { intent: "bin:restore", id: record.id });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/recyclebin");
    expect(toastOf(response)).toEqual({ type: "success", message: "Gelöschter Satz Wieder/Erika/Marburg wurde wiederhergestellt" });
    expect(await db.$count(schema.people, eq(schema.people.id, person.id))).toBe(1);
  });

  it("answers malformed and unknown restores with 4xx and changes nothing", async () => {
    const cookie = await loginCookie("staff");
    const before = await db.$count(schema.deletedRecords);
    for (const id of ["", "abc", "0", "-3", "99999999999", "987654"]) {
      const response = await postForm("/recyclebin", cookie, { intent: "bin:restore", id });
      expect(response.status, id).toBeGreaterThanOrEqual(400);
      expect(response.status, id).toBeLessThan(500);
    }
    expect(await db.$count(schema.deletedRecords)).toBe(before);
  });
});

describe("deleting with confidence", () => {
  it("says what goes with a person, and 'Rückgängig' brings all of it back", async () => {
    const cookie = await loginCookie("admin");
    const [person] = await db.insert(schema.people).values({ firstName: "Udo", lastName: "Umkehr", memberTypeId: 1 }).returning({ id: schema.people.id });
    await db.insert(schema.dogs).values([
      { ownerId: person.id, commonName: "Erster", gender: 1 },
      { ownerId: person.id, commonName: "Zweiter", gender: 2 },
    ]);
    const [master] = await db.select({ id: schema.certificationMasters.id }).from(schema.certificationMasters).limit(1);
    await db.insert(schema.certifications).values({ personId: person.id, certificationMasterId: master.id });

    const confirm = (await (await fetchApp(`/people?dialog=person-delete&dialogId=${person.id}`, { cookie })).text()).replaceAll("<!-- -->", "");
    expect(confirm).toContain("Bist du sicher?");
    expect(confirm).toContain("Mit ihr werden auch gelöscht: 2 Hunde und 1 Erfolg.");
    expect(confirm).toContain("Der Papierkorb bewahrt alles auf");

    const deleted = await postForm("/people", cookie, { intent: "person:delete", id: person.id });
    const toast = toastOf(deleted);
    expect(toast).toMatchObject({ message: "Person wurde gelöscht", undo: expect.any(Number) });
    expect(await db.$count(schema.dogs, eq(schema.dogs.ownerId, person.id))).toBe(0);

    const undone = await postForm("/people", cookie, { intent: "bin:undo", transactionId: toast!.undo! });
    expect(undone.status).toBe(302);
    expect(toastOf(undone)?.message).toBe("Rückgängig gemacht: Person Umkehr/Udo ist wieder da");
    expect(await db.$count(schema.people, eq(schema.people.id, person.id))).toBe(1);
    expect(await db.$count(schema.dogs, eq(schema.dogs.ownerId, person.id))).toBe(2);
    expect(await db.$count(schema.certifications, eq(schema.certifications.personId, person.id))).toBe(1);

    // Twice is once: the transaction is back already.
    const again = await postForm("/people", cookie, { intent: "bin:undo", transactionId: toast!.undo! });
    expect(again.status).toBe(404);
    expect(await db.$count(schema.people, eq(schema.people.id, person.id))).toBe(1);
  });
});
