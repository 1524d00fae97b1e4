/**
 * A mandate's validity asked two ways (issue 29): `mandateValidOnSql` (what the overdue lists test
 * for every fee, answered from indexes) must say exactly what `mandateValidUntilSql(m) >= day` says
 * (the rule: 36 months after the last use, ending the day before a revocation), for any signature,
 * use before Wuff, revocation, Wuff collections in runs cancelled or not, and day, leap days included.
 */
import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { earliestLastUseValidOn, mandateValidUntil } from "~/lib/banking";
import { addDaysToDate } from "~/lib/format";
import { mandateValidOnSql, mandateValidUntilSql } from "~/models/direct-debits.server";

const db = createDb(env.DB);

const FIRST_DAY = "2021-01-01";
/** A day from 2021 to 2028 (uses and asked days near enough to meet), months' ends and leap days included. */
const day = fc.integer({ min: 0, max: 2921 }).map((offset) => addDaysToDate(FIRST_DAY, offset));
const monthEnd = fc.constantFrom("2020-02-29", "2021-02-28", "2023-01-31", "2023-02-28", "2024-02-29", "2025-02-28", "2027-02-28", "2028-02-29");
const someDay = fc.oneof(day, monthEnd);

const mandateCase = fc.record({
  mandateDate: someDay,
  previousUseOn: fc.option(someDay, { nil: null }),
  revokedOn: fc.option(someDay, { nil: null }),
  collections: fc.array(fc.record({ on: someDay, cancelled: fc.boolean() }), { maxLength: 3 }),
  asked: fc.array(someDay, { minLength: 1, maxLength: 4 }),
});

describe("a mandate's validity on a day", () => {
  it("the earliest last use still valid on a day is the least whose 36 months reach it", () => {
    fc.assert(
      fc.property(someDay, (asked) => {
        const since = earliestLastUseValidOn(asked);
        expect(mandateValidUntil(since) >= asked).toBe(true);
        expect(mandateValidUntil(addDaysToDate(since, -1)) >= asked).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("asked from indexes, it answers as the rule's date does", async () => {
    const [type] = await db.insert(schema.memberTypes).values({ code: "AKTIV", name: "Aktiv" }).returning({ id: schema.memberTypes.id });
    const [{ id: personId }] = await db
      .insert(schema.people)
      .values({ firstName: "Vera", lastName: "Validität", memberTypeId: type.id })
      .returning({ id: schema.people.id });
    const [{ id: feeId }] = await db
      .insert(schema.fees)
      .values({ personId, date: "2024-01-01", text: "Beitrag", amount: 1_000, openAmount: 1_000 })
      .returning({ id: schema.fees.id });
    let sequence = 0;
    await fc.assert(
      fc.asyncProperty(mandateCase, async (example) => {
        sequence += 1;
        const [{ id: mandateId }] = await db
          .insert(schema.sepaMandates)
          .values({
            personId,
            accountHolder: "Vera Validität",
            iban: "DE02120300000000202051",
            reference: `TEST-VALID-${sequence}`,
            mandateDate: example.mandateDate,
            previousUseOn: example.previousUseOn,
            revokedOn: example.revokedOn,
            isActive: false,
          })
          .returning({ id: schema.sepaMandates.id });
        for (const [index, collection] of example.collections.entries()) {
          const [{ id: runId }] = await db.insert(schema.jobs).values({ type: "DIRECT_DEBIT", status: "DONE" }).returning({ id: schema.jobs.id });
          await db.insert(schema.directDebitRuns).values({
            id: runId,
            status: collection.cancelled ? "CANCELLED" : "SUBMITTED",
            messageId: `TEST-${sequence}-${index}`,
            total: 1_000,
            createdBy: "test",
            createdOn: "2024-01-01T00:00:00Z",
          });
          await db.insert(schema.directDebitItems).values({
            runId,
            feeId,
            personId,
            mandateId,
            mandateReference: `TEST-VALID-${sequence}`,
            mandateDate: example.mandateDate,
            accountHolder: "Vera Validität",
            iban: "DE02120300000000202051",
            endToEndId: `TEST-${sequence}-${index}`,
            sequenceType: "RCUR",
            dueDate: collection.on,
            collectionDate: collection.on,
            amount: 1_000,
            cancelledOn: "2024-01-01",
          });
        }
        for (const asked of example.asked) {
          const [row] = await db.all<{ byDate: number; byIndex: number }>(
            sql`SELECT ${mandateValidUntilSql("m")} >= ${asked} AS byDate, ${mandateValidOnSql("m", asked)} AS byIndex
              FROM ${schema.sepaMandates} m WHERE m.id = ${mandateId}`,
          );
          expect({ asked, byIndex: row.byIndex }).toEqual({ asked, byIndex: row.byDate });
        }
      }),
      { numRuns: 200 },
    );
  });
});
