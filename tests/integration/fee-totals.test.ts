/**
 * The sums of the fees the database keeps (fee_totals, app/db/derived.ts): after any sequence of
 * fees written, changed (amount, open amount, invoiced, due date) and deleted, they are exactly the
 * sums over the fees themselves, and the Kontenblatt's and the home page's figures read from them
 * are the ones the fees give.
 */
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { FEE_DEFAULT_SORT, listFees, openAndDueFees, type FeeQuery } from "~/models/fees.server";

const db = createDb(env.DB);
const TODAY = "2026-06-15";

const dueDate = fc.option(fc.constantFrom("2026-06-01", "2026-06-14", "2026-06-15", "2026-07-01"), { nil: null });
const feeValues = fc
  .record({ amount: fc.integer({ min: 0, max: 50_000 }), share: fc.double({ min: 0, max: 1, noNaN: true }), isInvoiced: fc.boolean(), dueDate })
  .map(({ amount, share, isInvoiced, dueDate }) => ({ amount, openAmount: Math.floor(amount * share), isInvoiced, dueDate }));
const step = fc.oneof(
  fc.record({ kind: fc.constant("insert" as const), values: feeValues }),
  fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant("update" as const),
    pick: fc.nat(),
    // One thing at a time, as the dialogs and runs change them: a trigger must not rely on all being set.
    values: fc.oneof(
      feeValues.map(({ amount, openAmount }) => ({ amount, openAmount })),
      fc.record({ isInvoiced: fc.boolean() }),
      fc.record({ dueDate }),
      fc.record({ text: fc.constant("Geändert") }),
    ),
  }),
);

/** fee_totals as it should be: grouped from the fees. */
const derivedTotals = () =>
  db.all(sql`SELECT is_invoiced <> 0 AS is_invoiced, open_amount > 0 AS is_open, CASE WHEN open_amount > 0 THEN coalesce(due_date, '') ELSE '' END AS due_date,
    count(*) AS fees, sum(amount) AS amount, sum(open_amount) AS open_amount FROM fees GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`);
const keptTotals = () => db.all(sql`SELECT is_invoiced, is_open, due_date, fees, amount, open_amount FROM fee_totals ORDER BY 1, 2, 3`);

describe("the sums of the fees the database keeps", () => {
  it("follow each kind of change on its own: due date, invoiced, amounts, delete", async () => {
    const [type] = await db.insert(schema.memberTypes).values({ code: "EINZELN", name: "Einzeln" }).returning({ id: schema.memberTypes.id });
    const [{ id: personId }] = await db
      .insert(schema.people)
      .values({ firstName: "Erna", lastName: "Einzeln", memberTypeId: type.id })
      .returning({ id: schema.people.id });
    const [{ id }] = await db
      .insert(schema.fees)
      .values({ personId, date: "2026-06-01", text: "Posten", amount: 1_000, openAmount: 600, dueDate: "2026-06-01" })
      .returning({ id: schema.fees.id });
    for (const change of [{ dueDate: "2026-07-01" }, { dueDate: null }, { isInvoiced: true }, { amount: 2_000, openAmount: 0 }, { openAmount: 5 }]) {
      await db.update(schema.fees).set(change).where(eq(schema.fees.id, id));
      expect(await keptTotals(), JSON.stringify(change)).toEqual(await derivedTotals());
    }
    await db.delete(schema.fees).where(eq(schema.fees.id, id));
    expect(await keptTotals()).toEqual(await derivedTotals());
  });

  it("are the sums over the fees after any writes, and the toggles' and home page's figures agree", async () => {
    const [type] = await db.insert(schema.memberTypes).values({ code: "AKTIV", name: "Aktiv" }).returning({ id: schema.memberTypes.id });
    const [{ id: personId }] = await db
      .insert(schema.people)
      .values({ firstName: "Susi", lastName: "Summe", memberTypeId: type.id })
      .returning({ id: schema.people.id });
    await fc.assert(
      fc.asyncProperty(fc.array(feeValues, { minLength: 2, maxLength: 5 }), fc.array(step, { minLength: 1, maxLength: 12 }), async (initial, steps) => {
        await db.insert(schema.fees).values(initial.map((values) => ({ personId, date: "2026-06-01", text: "Posten", ...values })));
        for (const change of steps) {
          const ids = (await db.select({ id: schema.fees.id }).from(schema.fees)).map((row) => row.id);
          if (change.kind === "insert") {
            await db.insert(schema.fees).values({ personId, date: "2026-06-01", text: "Posten", ...change.values });
          } else if (ids.length > 0 && change.kind === "update") {
            await db
              .update(schema.fees)
              .set(change.values)
              .where(eq(schema.fees.id, ids[change.pick % ids.length]));
          } else if (ids.length > 0) {
            await db.delete(schema.fees).where(eq(schema.fees.id, ids[change.pick % ids.length]));
          }
        }
        expect(await keptTotals()).toEqual(await derivedTotals());

        // Every toggle of the Kontenblatt: the kept sums against the fees' own (a person's list sums the fees).
        for (const state of ["all", "open", "paid", "due"] as const) {
          for (const billing of ["all", "invoiced", "notInvoiced"] as const) {
            const query: FeeQuery = { state, billing, sort: FEE_DEFAULT_SORT, today: TODAY };
            const kept = await listFees(db, { ...query, page: 1 });
            const summed = await listFees(db, { ...query, personId, page: 1 });
            expect({ state, billing, total: kept.total, sums: kept.sums }).toEqual({ state, billing, total: summed.total, sums: summed.sums });
          }
        }
        const home = await openAndDueFees(db, TODAY);
        const open = await listFees(db, { state: "open", billing: "all", personId, sort: FEE_DEFAULT_SORT, today: TODAY, page: 1 });
        const due = await listFees(db, { state: "due", billing: "all", personId, sort: FEE_DEFAULT_SORT, today: TODAY, page: 1 });
        expect(home).toEqual({ open: { count: open.total, openAmount: open.sums.openAmount }, due: { count: due.total, openAmount: due.sums.openAmount } });
      }),
      { numRuns: 50 },
    );
  });
});
