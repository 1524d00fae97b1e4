/**
 * Direct debits as properties (issue 31): random sequences of new fees, Lastschriftläufe (their
 * messages delivered once or twice, the run then kept, cancelled or handed to the bank), the
 * bank's credits (a whole run, or one transaction), the automatic settlement, returns with each
 * reason code, 'Wieder einziehen' and transfers, through the models and the queue consumer. After
 * every step: no fee is in two standing debits nor paid by two debits, nothing blocked (a stopped
 * fee, a revoked mandate) is collected, a paid debit stands (or its return undid the payment),
 * open amounts are what the journal says, and nobody's credit goes below zero.
 */
import { env } from "cloudflare:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { startRun } from "~/jobs/start.server";
import { parseStatement } from "~/lib/bank-statements.server";
import { mandateReference } from "~/lib/banking";
import { addDaysToDate, todayInBerlin } from "~/lib/format";
import { earliestCollectionDate, settlementDayOf } from "~/lib/pain008";
import { bookEntries, importStatement } from "~/models/bank-statements.server";
import { settleDueDebits } from "~/models/debit-settlements.server";
import { cancelDirectDebitRun, collectAgain, submitDirectDebitRun } from "~/models/direct-debits.server";
import { camtDebitBookings, camtWith } from "../support/camt";
import { deliver } from "../support/jobs";
import { loadDemoData } from "../support/seed";
import { DEMO_USERS } from "../support/sessions";

const db = createDb(env.DB);
const actor = DEMO_USERS.finance;
const today = todayInBerlin();
const REASONS = ["AM04", "MD06", "MS02", "AC04", "MD01", "MD07", "AC06", "MS03"] as const;
let people: number[] = [];
let bankRefs = 0;

beforeAll(async () => {
  await loadDemoData();
  // Other people's fees stay out of these runs: only these three are collected from.
  people = [];
  for (const name of ["Lena", "Lars", "Lotte"]) {
    const [{ id }] = await db.insert(schema.people).values({ firstName: name, lastName: "Lastschrift", memberTypeId: 1 }).returning({ id: schema.people.id });
    await db.insert(schema.sepaMandates).values({
      personId: id,
      accountHolder: `${name} Lastschrift`,
      iban: "DE89370400440532013000",
      reference: mandateReference(id, 1),
      mandateDate: "2026-01-01",
      createdBy: "Test",
      createdOn: "2026-01-01T00:00:00.000Z",
    });
    people.push(id);
  }
});

const standingItems = () =>
  db
    .select({ item: schema.directDebitItems })
    .from(schema.directDebitItems)
    .innerJoin(schema.directDebitRuns, eq(schema.directDebitRuns.id, schema.directDebitItems.runId))
    .where(
      and(
        inArray(schema.directDebitItems.personId, people),
        sql`${schema.directDebitItems.cancelledOn} IS NULL AND ${schema.directDebitRuns.status} <> 'CANCELLED' AND ${schema.directDebitRuns.fileKey} IS NOT NULL`,
      ),
    )
    .then((rows) => rows.map(({ item }) => item));

/** Imports a statement and books its first entry as proposed (when it has a target). */
async function importAndBook(xml: string) {
  const { importId } = await importStatement(db, { fileName: "lastschrift.xml", statement: parseStatement(xml) }, actor);
  const [entry] = await db.select().from(schema.bankStatementEntries).where(eq(schema.bankStatementEntries.importId, importId));
  if (!entry?.targetType || !entry.targetId) return { entry, outcome: null };
  const outcome = await bookEntries(db, importId, [{ entryId: entry.id, target: { type: entry.targetType, id: entry.targetId } }], actor);
  return { entry, outcome };
}

async function run(redeliver: boolean, then: "keep" | "cancel" | "submit", step: string) {
  const stopped = new Set(
    (
      await db
        .select({ id: schema.fees.id })
        .from(schema.fees)
        .where(sql`${schema.fees.collectionStop} IS NOT NULL`)
    ).map((row) => row.id),
  );
  const revoked = new Map(
    (await db.select().from(schema.sepaMandates).where(inArray(schema.sepaMandates.personId, people))).map((mandate) => [mandate.id, mandate.revokedOn]),
  );
  const messages: { body: unknown }[] = [];
  const collecting = { JOBS: { sendBatch: async (batch: { body: unknown }[]) => void messages.push(...batch) } } as unknown as Pick<Env, "JOBS">;
  const params = { date: today, earliest: earliestCollectionDate(today) };
  const outcome = await startRun(collecting, db, { type: "DIRECT_DEBIT", items: people, params, emptyMessage: "Nichts einzuziehen" }, actor);
  if (outcome.status !== "started") return;
  await deliver(redeliver ? [...messages, ...messages] : messages);
  const items = await db.select().from(schema.directDebitItems).where(eq(schema.directDebitItems.runId, outcome.job.id));
  for (const item of items) {
    expect(stopped.has(item.feeId), `${step}: a stopped fee was collected`).toBe(false);
    const revokedOn = revoked.get(item.mandateId);
    expect(revokedOn === null || revokedOn === undefined || item.collectionDate < revokedOn, `${step}: a revoked mandate was collected`).toBe(true);
  }
  const id = outcome.job.id;
  if (then === "cancel") await cancelDirectDebitRun(db, id, actor);
  if (then === "submit") await submitDirectDebitRun(db, id, actor);
}

/** The bank credits a run as one sum, or one transaction of it, for what was submitted. */
async function credit(pick: number, whole: boolean, step: string) {
  const items = await standingItems();
  const item = items[pick % Math.max(1, items.length)];
  if (!item) return;
  const named = await db
    .select()
    .from(schema.directDebitItems)
    .where(whole ? eq(schema.directDebitItems.runId, item.runId) : eq(schema.directDebitItems.endToEndId, item.endToEndId));
  const cents = named.reduce((sum, each) => sum + each.amount, 0);
  const ref = `GUT-${bankRefs++}`;
  const xml = whole
    ? camtWith([{ ref, cents, text: `SEPA-Sammler WUFF-LS-${item.runId}` }])
    : camtDebitBookings([{ kind: "credit", ref, cents, endToEndId: item.endToEndId }]);
  const { entry, outcome } = await importAndBook(xml);
  if (entry.proposal === "MATCHED") {
    expect(entry.targetType, `${step}: the credit names its run`).toBe("DEBIT_RUN");
    expect(outcome?.status, `${step}: booked`).toBe("booked");
  }
}

/** The bank returns a transaction (with the reason), whether it was paid already or not. */
async function returned(pick: number, reason: string, step: string) {
  const items = await standingItems();
  const item = items[pick % Math.max(1, items.length)];
  if (!item) return;
  const transaction = items.filter((each) => each.endToEndId === item.endToEndId);
  const openBefore = await openOf(transaction.map((each) => each.feeId));
  const xml = camtDebitBookings([
    { kind: "return", ref: `RET-${bankRefs++}`, cents: transaction.reduce((sum, each) => sum + each.amount, 0), endToEndId: item.endToEndId, reason },
  ]);
  const { entry, outcome } = await importAndBook(xml);
  expect(entry.proposal, `${step}: a return`).toBe("RETURN");
  expect(outcome?.status, `${step}: booked`).toBe("booked");
  const [booked] = await db.select().from(schema.bankStatementEntries).where(eq(schema.bankStatementEntries.id, entry.id));
  // What the debits paid on the fees is open again (what became the person's credit is taken back from it).
  const reopened = (await openOf(transaction.map((each) => each.feeId))) - openBefore;
  expect(reopened >= 0 && reopened <= (booked.applied ?? 0), `${step}: reopened ${reopened} of ${booked.applied}`).toBe(true);
  const standing = await standingItems();
  expect(
    standing.some((each) => each.endToEndId === item.endToEndId),
    `${step}: the returned transaction stands no more`,
  ).toBe(false);
}

const openOf = async (feeIds: number[]) =>
  (await db.select({ open: schema.fees.openAmount }).from(schema.fees).where(inArray(schema.fees.id, feeIds))).reduce((sum, row) => sum + row.open, 0);

/** What must hold after every step. */
async function expectBooksHold(step: string) {
  const twiceStanding = await db.all(sql`SELECT i.fee_id FROM direct_debit_items i JOIN direct_debit_runs r ON r.id = i.run_id
    WHERE i.cancelled_on IS NULL AND r.status <> 'CANCELLED' GROUP BY i.fee_id HAVING count(*) > 1`);
  expect(twiceStanding, `${step}: a fee in two standing debits`).toEqual([]);
  const paidTwice = await db.all(sql`SELECT i.fee_id FROM payments y JOIN direct_debit_items i ON y.entry_key = 'debit:' || i.id
    WHERE NOT EXISTS (SELECT 1 FROM payments r WHERE r.reverses_payment_id = y.id) GROUP BY i.fee_id HAVING count(*) > 1`);
  expect(paidTwice, `${step}: a fee collected twice`).toEqual([]);
  const paidButGone =
    await db.all(sql`SELECT i.id FROM payments y JOIN direct_debit_items i ON y.entry_key = 'debit:' || i.id JOIN direct_debit_runs r ON r.id = i.run_id
    WHERE NOT EXISTS (SELECT 1 FROM payments x WHERE x.reverses_payment_id = y.id) AND (i.cancelled_on IS NOT NULL OR r.status = 'CANCELLED')`);
  expect(paidButGone, `${step}: a returned or cancelled debit still counts as paid`).toEqual([]);
  const wrongOpen =
    await db.all(sql`SELECT f.id, f.amount, f.open_amount FROM fees f WHERE f.person_id IN (SELECT value FROM json_each(${JSON.stringify(people)}))
    AND (f.open_amount <> f.amount - coalesce((SELECT sum(a.amount) FROM payment_allocations a WHERE a.fee_id = f.id), 0) OR f.open_amount < 0 OR f.open_amount > f.amount)`);
  expect(wrongOpen, `${step}: open amounts are what the journal says`).toEqual([]);
  const negativeCredit =
    await db.all(sql`SELECT y.person_id, sum(y.amount) - coalesce((SELECT sum(a.amount) FROM payment_allocations a JOIN payments z ON z.id = a.payment_id
      WHERE z.person_id = y.person_id), 0) AS credit FROM payments y WHERE y.person_id IN (SELECT value FROM json_each(${JSON.stringify(people)}))
    GROUP BY y.person_id HAVING credit < 0`);
  expect(negativeCredit, `${step}: the journal balances (no negative credit)`).toEqual([]);
}

const operation = fc.oneof(
  fc.record({ kind: fc.constant("fee" as const), person: fc.nat(2), amount: fc.integer({ min: 1, max: 20_000 }), dueIn: fc.integer({ min: -10, max: 40 }) }),
  fc.record({ kind: fc.constant("run" as const), redeliver: fc.boolean(), then: fc.constantFrom("keep" as const, "cancel" as const, "submit" as const) }),
  fc.record({ kind: fc.constant("credit" as const), pick: fc.nat(30), whole: fc.boolean() }),
  fc.record({ kind: fc.constant("settle" as const) }),
  fc.record({ kind: fc.constant("return" as const), pick: fc.nat(30), reason: fc.constantFrom(...REASONS) }),
  fc.record({ kind: fc.constant("collectAgain" as const), pick: fc.nat(10) }),
  fc.record({ kind: fc.constant("transfer" as const), pick: fc.nat(30) }),
);

describe("direct debits hold under any sequence of runs, settlements, returns and re-presentations", () => {
  it("never collect a fee twice, never collect what is blocked, and keep the journal balanced", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (operations) => {
        for (const [index, op] of operations.entries()) {
          const step = `${index + 1}. ${JSON.stringify(op)}`;
          switch (op.kind) {
            case "fee":
              await db.insert(schema.fees).values({
                personId: people[op.person],
                date: today,
                dueDate: addDaysToDate(today, op.dueIn),
                text: "Kursgebühr",
                amount: op.amount,
                openAmount: op.amount,
                sendInvoice: false,
              });
              break;
            case "run":
              await run(op.redeliver, op.then, step);
              break;
            case "credit":
              await credit(op.pick, op.whole, step);
              break;
            case "settle": {
              await db.update(schema.configuration).set({ debitAutoSettle: true }).where(eq(schema.configuration.id, 1));
              const day = settlementDayOf(addDaysToDate(today, 60));
              await settleDueDebits(db, day, actor);
              expect(await settleDueDebits(db, day, actor), `${step}: settled once`).toBe(0);
              await db.update(schema.configuration).set({ debitAutoSettle: false }).where(eq(schema.configuration.id, 1));
              break;
            }
            case "return":
              await returned(op.pick, op.reason, step);
              break;
            case "collectAgain": {
              const returns = await db
                .select({ id: schema.bankStatementEntries.id })
                .from(schema.bankStatementEntries)
                .where(and(eq(schema.bankStatementEntries.isReturn, true), eq(schema.bankStatementEntries.status, "BOOKED")));
              const entry = returns[op.pick % Math.max(1, returns.length)];
              if (entry) await collectAgain(db, entry.id, actor);
              break;
            }
            case "transfer": {
              // The person pays a fee in collection by transfer: a later debit credit becomes their credit.
              const open = await db
                .select()
                .from(schema.fees)
                .where(and(inArray(schema.fees.personId, people), sql`${schema.fees.openAmount} > 0`));
              const fee = open[op.pick % Math.max(1, open.length)];
              if (fee) await importAndBook(camtWith([{ ref: `UEB-${bankRefs++}`, cents: fee.openAmount, text: `Posten ${fee.id} ${fee.text}` }]));
              break;
            }
          }
          await expectBooksHold(step);
        }
      }),
      { numRuns: 25, seed: 20261129 },
    );
    // The sequences reached what they are about.
    const count = async (query: ReturnType<typeof sql>) => ((await db.all<{ n: number }>(query))[0]?.n ?? 0) as number;
    const ours = (column = "person_id") => sql`${sql.raw(column)} IN (SELECT value FROM json_each(${JSON.stringify(people)}))`;
    const reached = {
      paidByCredit: await count(sql`SELECT count(*) AS n FROM bank_statement_entries WHERE target_type = 'DEBIT_RUN' AND status = 'BOOKED'`),
      paidAutomatically: await count(sql`SELECT count(*) AS n FROM fees WHERE ${ours()} AND payment_comments LIKE '%als bezahlt gebucht%'`),
      paymentUndoneByReturn: await count(
        sql`SELECT count(*) AS n FROM payments r JOIN payments y ON y.id = r.reverses_payment_id WHERE ${ours("y.person_id")} AND y.entry_key LIKE 'debit:%'`,
      ),
      returnedUnpaid: await count(sql`SELECT count(*) AS n FROM bank_statement_entries WHERE is_return = 1 AND status = 'BOOKED' AND applied = 0`),
      presentedAgain: await count(sql`SELECT count(*) AS n FROM (SELECT fee_id FROM direct_debit_items WHERE ${ours()} GROUP BY fee_id HAVING count(*) > 1)`),
      stopped: await count(sql`SELECT count(*) AS n FROM fees WHERE ${ours()} AND collection_stop IS NOT NULL`),
      mandateBlocked: await count(sql`SELECT count(*) AS n FROM sepa_mandates WHERE ${ours()} AND revoked_on IS NOT NULL`),
      cancelledRuns: await count(sql`SELECT count(*) AS n FROM direct_debit_runs WHERE status = 'CANCELLED'`),
    };
    for (const [what, n] of Object.entries(reached)) expect(n, what).toBeGreaterThan(0);
  });
});
