/**
 * Das Kassenbuch (issue 35 item 2): one ordered sequence of Kasse entries with consecutive receipt
 * numbers and a running balance that never goes below zero; the journal's cash payments are its
 * entries (written with the payment, in its statement); entries are never changed or deleted, a
 * correction is a counter-entry at most once; the Tagesabschluss; the screens by role; and a
 * property test over random sales, refunds, expenses, deposits, corrections and back-dated tries.
 * The rules are the database's (app/db/cash-book.ts): hand-made statements are refused as well.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb, runAtomically } from "~/db/client.server";
import * as schema from "~/db/schema";
import { addDaysToDate, formatMoneyInput, todayInBerlin } from "~/lib/format";
import { bookCashEntry, cashBalance, listCashDays, reverseCashEntry } from "~/models/cash-book.server";
import { entryInsert, personCredit, refundCredit } from "~/models/payments.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const actor = { name: "Fritz Finanz" };
const today = todayInBerlin();
let personId: number;

const all = async <T>(query: string) => (await env.DB.prepare(query).all<T>()).results;
const one = async <T>(query: string) => (await all<T>(query))[0];

/** A cash payment of the person (a sale at the desk: unallocated, their credit), as the journal books it. */
async function cashSale(amount: number, date = today) {
  const entryKey = `test:${crypto.randomUUID()}`;
  await runAtomically(db, [
    entryInsert({ entryKey, personId, date, amount, method: "CASH", source: "CASH_RECEIPT", text: "Verkauf an der Kasse" }, actor, new Date().toISOString()),
  ]);
  return (await one<{ id: number }>(`SELECT id FROM payments WHERE entry_key = '${entryKey}'`)).id;
}

/** What must hold after anything: the Kassenbuch is one sequence whose figures follow from its entries. */
async function expectBooksHold() {
  const broken = await one<{ balance: number; order: number; numbers: number; negative: number; unpaired: number; stray: number }>(`
    WITH book AS (
      SELECT id, date, seq, balance, amount, sum(amount) OVER (ORDER BY id) AS running,
        lag(date) OVER (ORDER BY id) AS before, lag(date) OVER (ORDER BY id) AS beforeDate, lag(seq) OVER (ORDER BY id) AS beforeSeq
      FROM cash_entries WHERE cash_box_id = 1)
    SELECT
      (SELECT count(*) FROM book WHERE balance <> running) AS balance,
      (SELECT count(*) FROM book WHERE before IS NOT NULL AND date < before) AS "order",
      (SELECT count(*) FROM book WHERE seq <> CASE WHEN beforeDate IS NULL OR substr(beforeDate, 1, 4) <> substr(date, 1, 4) THEN 1 ELSE beforeSeq + 1 END ) AS numbers,
      (SELECT count(*) FROM book WHERE balance < 0) AS negative,
      (SELECT count(*) FROM payments p WHERE p.method = 'CASH' AND (SELECT count(*) FROM cash_entries c WHERE c.payment_id = p.id) <> 1) AS unpaired,
      (SELECT count(*) FROM cash_entries c WHERE c.payment_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.id = c.payment_id AND p.method = 'CASH')) AS stray`);
  expect(broken).toEqual({ balance: 0, order: 0, numbers: 0, negative: 0, unpaired: 0, stray: 0 });
  const { balance } = await cashBalance(db);
  const { total } = await one<{ total: number }>("SELECT coalesce(sum(amount), 0) AS total FROM cash_entries WHERE cash_box_id = 1");
  expect(balance, "the balance is the sum of the entries").toBe(total);
}

/** Everything a refused operation must leave as it was. */
const snapshot = () =>
  one<{ entries: number; payments: number; total: number }>(
    "SELECT (SELECT count(*) FROM cash_entries) AS entries, (SELECT count(*) FROM payments) AS payments, (SELECT coalesce(sum(amount), 0) FROM cash_entries) AS total",
  );

beforeAll(async () => {
  await loadDemoData();
  [{ id: personId }] = await db.insert(schema.people).values({ firstName: "Karl", lastName: "Kasse", memberTypeId: 1 }).returning({ id: schema.people.id });
});

describe("the Kassenbuch", () => {
  it("holds the demo's cash payments in date order with receipt numbers, and the demo's expense and bank deposit", async () => {
    const entries = await all<{ receipt: string; kind: string; amount: number; balance: number }>(
      "SELECT receipt_number AS receipt, kind, amount, balance FROM cash_entries ORDER BY id",
    );
    expect(entries.length).toBeGreaterThan(3);
    expect(entries[0].receipt).toMatch(/^K-\d{4}-0001$/);
    expect(entries.map((entry) => entry.kind)).toContain("EXPENSE");
    expect(entries.at(-1)).toMatchObject({ kind: "BANK_DEPOSIT" });
    expect(entries.at(-1)!.balance).toBeGreaterThan(0);
    await expectBooksHold();
  });

  it("books a journal cash payment's entry in the payment's own statement: a batch that fails writes neither", async () => {
    const before = await snapshot();
    const paymentId = await cashSale(1500);
    const [entry] = await db.select().from(schema.cashEntries).where(eq(schema.cashEntries.paymentId, paymentId));
    expect(entry).toMatchObject({ kind: "PAYMENT", amount: 1500, date: today, createdBy: "Fritz Finanz" });
    expect(entry.receiptNumber).toMatch(new RegExp(`^K-${today.slice(0, 4)}-\\d{4}$`));
    // The same batch failing after the payment (a repeated key): no payment, no entry.
    const key = `test:${crypto.randomUUID()}`;
    const payment = (amount: number) =>
      entryInsert({ entryKey: key, personId, date: today, amount, method: "CASH", source: "CASH_RECEIPT", text: "doppelt" }, actor, new Date().toISOString());
    await expect(runAtomically(db, [payment(700), payment(800)])).rejects.toThrow(/UNIQUE/);
    expect(await snapshot()).toEqual({ entries: before.entries + 1, payments: before.payments + 1, total: before.total + 1500 });
    await expectBooksHold();
  });

  it("numbers the entries consecutively and books an entry without a person once per form", async () => {
    const key = crypto.randomUUID();
    const first = await bookCashEntry(db, { kind: "DEPOSIT", date: today, amount: 10_000, text: "Einlage aus der Vereinskasse", key }, actor);
    const second = await bookCashEntry(
      db,
      { kind: "EXPENSE", date: today, amount: 1_250, text: "Briefmarken", account: "4910", key: crypto.randomUUID() },
      actor,
    );
    expect(first.status).toBe("booked");
    expect(second.status).toBe("booked");
    if (first.status !== "booked" || second.status !== "booked") return;
    expect(Number(second.receiptNumber.slice(-4))).toBe(Number(first.receiptNumber.slice(-4)) + 1);
    expect(await bookCashEntry(db, { kind: "DEPOSIT", date: today, amount: 10_000, text: "Einlage aus der Vereinskasse", key }, actor)).toEqual({
      status: "already",
    });
    const [expense] = await db.select().from(schema.cashEntries).where(eq(schema.cashEntries.id, second.id));
    expect(expense).toMatchObject({ amount: -1_250, account: "4910", kind: "EXPENSE" });
    await expectBooksHold();
  });

  it("refuses a balance below zero with the German message, and writes nothing of the batch", async () => {
    const { balance } = await cashBalance(db);
    const before = await snapshot();
    const outcome = await bookCashEntry(db, { kind: "BANK_DEPOSIT", date: today, amount: balance + 1, text: "zu viel", key: crypto.randomUUID() }, actor);
    expect(outcome).toMatchObject({ status: "refused", field: "amount" });
    expect(outcome.status === "refused" && outcome.message).toMatch(
      /^Der Kassenbestand reicht nicht: In der Kasse sind .*\u00a0€, ausgezahlt werden sollen .*\u00a0€\./,
    );
    expect(await snapshot()).toEqual(before);

    // A cash refund of a credit beyond the Kasse: the journal entry is refused with it.
    const credit = `test:${crypto.randomUUID()}`;
    await runAtomically(db, [
      entryInsert(
        { entryKey: credit, personId, date: today, amount: balance + 50_000, method: "TRANSFER", source: "MANUAL", text: "Guthaben" },
        actor,
        new Date().toISOString(),
      ),
    ]);
    const withCredit = await snapshot();
    const refund = await refundCredit(db, { personId, amount: balance + 100, payment: { method: "CASH", date: today, key: crypto.randomUUID() } }, actor);
    expect(refund).toMatchObject({ status: "refused", message: expect.stringMatching(/^Der Kassenbestand reicht nicht/) });
    expect(await snapshot()).toEqual(withCredit);

    // The same through the dialog 'Guthaben erstatten' (a form post): the message, not a 500.
    const [{ id: paymentId }] = await all<{ id: number }>(`SELECT id FROM payments WHERE entry_key = '${credit}'`);
    const response = await postForm("/payments", await loginCookie("finance"), {
      intent: "payment:refund",
      id: paymentId,
      amount: formatMoneyInput(balance + 100),
      paidBy: "CASH",
      paidOn: "",
      paymentKey: crypto.randomUUID(),
    });
    expect(response.status).toBe(400);
    expect((await response.text()).replaceAll("<!-- -->", "")).toContain("Der Kassenbestand reicht nicht");
    expect(await snapshot()).toEqual(withCredit);

    // A hand-made statement is refused by the database itself.
    await expect(
      env.DB.prepare(
        `INSERT INTO cash_entries (cash_box_id, seq, date, kind, amount, balance, text, created_by, created_on)
         VALUES (1, 999, '${today}', 'WITHDRAWAL', -99999999, 0, 'Hand', 'x', 'x')`,
      ).run(),
    ).rejects.toThrow(/cash book: below zero/);
    // By transfer the Kasse is not touched.
    expect(await refundCredit(db, { personId, amount: 100, payment: { method: "TRANSFER", date: today, key: crypto.randomUUID() } }, actor)).toMatchObject({
      status: "refunded",
    });
    expect((await snapshot()).entries).toBe(withCredit.entries);
    await expectBooksHold();
  });

  it("refuses an entry dated before the last one; the same day is fine", async () => {
    const before = await snapshot();
    const outcome = await bookCashEntry(db, { kind: "DEPOSIT", date: addDaysToDate(today, -1), amount: 100, text: "zu spät", key: crypto.randomUUID() }, actor);
    expect(outcome).toMatchObject({ status: "refused", field: "date" });
    expect(outcome.status === "refused" && outcome.message).toMatch(/^Das Kassenbuch ist bis zum \d\d\.\d\d\.\d{4} geschrieben/);
    await expect(cashSale(100, addDaysToDate(today, -1))).rejects.toThrow(/cash book: back-dated/);
    expect(await snapshot()).toEqual(before);
    expect((await bookCashEntry(db, { kind: "DEPOSIT", date: today, amount: 100, text: "heute", key: crypto.randomUUID() }, actor)).status).toBe("booked");
  });

  it("never changes or deletes an entry (triggers), and corrects by one counter-entry", async () => {
    const [last] = await all<{ id: number }>("SELECT id FROM cash_entries ORDER BY id DESC LIMIT 1");
    await expect(env.DB.prepare(`UPDATE cash_entries SET text = 'anders' WHERE id = ${last.id}`).run()).rejects.toThrow(/frozen: cash book/);
    await expect(env.DB.prepare(`DELETE FROM cash_entries WHERE id = ${last.id}`).run()).rejects.toThrow(/frozen: cash book/);

    const booked = await bookCashEntry(db, { kind: "EXPENSE", date: today, amount: 300, text: "Falsch gebucht", key: crypto.randomUUID() }, actor);
    if (booked.status !== "booked") throw new Error("not booked");
    const reversed = await reverseCashEntry(db, booked.id, today, actor);
    expect(reversed).toMatchObject({ status: "booked" });
    const [counter] = await db.select().from(schema.cashEntries).where(eq(schema.cashEntries.reversesEntryId, booked.id));
    expect(counter).toMatchObject({ amount: 300, kind: "EXPENSE", date: today });
    expect(await reverseCashEntry(db, booked.id, today, actor)).toMatchObject({ status: "refused", message: expect.stringMatching(/schon storniert/) });
    expect(await reverseCashEntry(db, counter.id, today, actor)).toMatchObject({ status: "refused", message: expect.stringMatching(/Stornobuchung/) });
    // A second counter-entry by hand: refused by the database.
    const { balance } = await cashBalance(db);
    await expect(
      env.DB.prepare(
        `INSERT INTO cash_entries (cash_box_id, seq, date, kind, amount, balance, text, reverses_entry_id, created_by, created_on)
         SELECT 1, seq + 1, '${today}', 'EXPENSE', 300, ${balance + 300}, 'nochmal', ${booked.id}, 'x', 'x' FROM cash_entries ORDER BY id DESC LIMIT 1`,
      ).run(),
    ).rejects.toThrow(/UNIQUE|cash book/);

    // A journal cash payment is undone as the journal undoes it: the payment's counter-entry and the Kasse's.
    const paymentId = await cashSale(2_000);
    const [entry] = await db.select().from(schema.cashEntries).where(eq(schema.cashEntries.paymentId, paymentId));
    expect(await reverseCashEntry(db, entry.id, today, actor)).toMatchObject({ status: "booked" });
    const [journal] = await db.select().from(schema.payments).where(eq(schema.payments.reversesPaymentId, paymentId));
    expect(journal).toMatchObject({ amount: -2_000, method: "CASH", source: "REVERSAL" });
    const [kasse] = await db.select().from(schema.cashEntries).where(eq(schema.cashEntries.paymentId, journal.id));
    expect(kasse).toMatchObject({ amount: -2_000, reversesEntryId: entry.id });
    await expectBooksHold();
  });

  it("shows the Tagesabschluss: per day opening, in, out, closing, each day opening with the last one's closing", async () => {
    const { rows } = await listCashDays(db, { period: "all", sort: { id: "date", descending: false }, today, page: 1, pageSize: 1000 });
    expect(rows.length).toBeGreaterThan(1);
    for (const [index, day] of rows.entries()) {
      expect(day.closing, day.date).toBe(day.opening + day.amountIn - day.amountOut);
      if (index > 0) expect(day.opening, day.date).toBe(rows[index - 1].closing);
    }
    const last = rows.at(-1)!;
    expect(last.date).toBe(today);
    expect(last.closing).toBe((await cashBalance(db)).balance);
  });
});

describe("the screen Kasse", () => {
  it.each(["/cashbook", "/cashbook/days", "/cashbook/print", "/cashbook/export"])("%s: staff are sent home with the German toast", async (path) => {
    const response = await fetchApp(path, { cookie: await loginCookie("staff") });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(toastOf(response)).toMatchObject({ type: "error", message: "Zugriff verweigert. Diese Ansicht ist nur für die Rollen ADMIN, FINANCE freigegeben." });
  });

  it("lists the book with receipt numbers and balance, the day figures and the print pages for FINANCE and ADMIN", async () => {
    for (const user of ["finance", "admin"] as const) {
      const html = (await (await fetchApp("/cashbook?period=all", { cookie: await loginCookie(user) })).text()).replaceAll("<!-- -->", "");
      expect(html).toContain("Kassenbestand:");
      expect(html).toMatch(/K-\d{4}-0001/);
      expect(html).toContain("Bestand");
    }
    const cookie = await loginCookie("finance");
    const days = (await (await fetchApp("/cashbook/days?period=all", { cookie })).text()).replaceAll("<!-- -->", "");
    expect(days).toContain("Endbestand");
    const print = (await (await fetchApp("/cashbook/print?period=thisMonth", { cookie })).text()).replaceAll("<!-- -->", "");
    expect(print).toContain("Übertrag (Bestand zu Beginn)");
    expect(print).toContain("Tagesabschluss: Summe und Endbestand");
    const excel = await fetchApp("/cashbook/export?period=all", { cookie });
    expect(excel.status).toBe(200);
    expect(excel.headers.get("Content-Disposition")).toContain("Kassenbuch.xlsx");
  });

  it("books 'Buchung erfassen' and 'Stornieren' by form posts (FINANCE); staff may not", async () => {
    const cookie = await loginCookie("finance");
    const key = crypto.randomUUID();
    const fields = {
      intent: "cashEntry:save",
      kind: "EXPENSE",
      date: today.split("-").reverse().join("."),
      amount: "4,20",
      text: "Kaffee für die Prüfer",
      formKey: key,
    };
    const refused = await postForm("/cashbook", await loginCookie("staff"), fields);
    expect(refused.status).toBe(302);
    expect(await db.$count(schema.cashEntries, eq(schema.cashEntries.entryKey, `form:${key}`))).toBe(0);
    const response = await postForm("/cashbook", cookie, fields);
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toMatch(/^Beleg K-\d{4}-\d{4} gebucht: Ausgabe 4,20\u00a0€$/);
    const [entry] = await db
      .select()
      .from(schema.cashEntries)
      .where(eq(schema.cashEntries.entryKey, `form:${key}`));
    expect(entry).toMatchObject({ amount: -420, createdBy: expect.any(String) });
    const again = await postForm("/cashbook", cookie, fields);
    expect(again.status).toBe(409);

    const cancel = await postForm("/cashbook", cookie, { intent: "cashEntry:reverse", id: entry.id });
    expect(cancel.status).toBe(302);
    expect(toastOf(cancel)?.message).toMatch(/^Storniert: Gegenbuchung Beleg K-/);
    expect(await db.$count(schema.cashEntries, eq(schema.cashEntries.reversesEntryId, entry.id))).toBe(1);
    expect((await postForm("/cashbook", cookie, { intent: "cashEntry:reverse", id: entry.id })).status).toBe(409);

    // Too much out: the dialog answers with the German message beside the amount.
    const tooMuch = await postForm("/cashbook", cookie, { ...fields, amount: "999999,00", formKey: crypto.randomUUID() });
    expect(tooMuch.status).toBe(400);
    expect((await tooMuch.text()).replaceAll("<!-- -->", "")).toContain("Der Kassenbestand reicht nicht");
    await expectBooksHold();
  });
});

describe("property: random sales, refunds, expenses, deposits and corrections keep the Kassenbuch", () => {
  type Op =
    | { type: "sale"; amount: number }
    | { type: "refund"; amount: number }
    | { type: "expense" | "deposit" | "bank" | "withdrawal"; amount: number }
    | { type: "correction"; pick: number }
    | { type: "backdated"; amount: number };
  const amount = fc.integer({ min: 1, max: 30_000 });
  const operation: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ type: fc.constant("sale" as const), amount }),
    fc.record({ type: fc.constant("refund" as const), amount }),
    fc.record({ type: fc.constantFrom("expense" as const, "deposit" as const, "bank" as const, "withdrawal" as const), amount }),
    fc.record({ type: fc.constant("correction" as const), pick: fc.nat() }),
    fc.record({ type: fc.constant("backdated" as const), amount }),
  );
  const KINDS = { expense: "EXPENSE", deposit: "DEPOSIT", bank: "BANK_DEPOSIT", withdrawal: "WITHDRAWAL" } as const;

  it("balance = sum of entries, never below zero, refused operations change nothing (seed 20261130)", async () => {
    // Corrections pick among the entries the property wrote (the demo's payments settle fees).
    const [{ start }] = await all<{ start: number }>("SELECT coalesce(max(id), 0) AS start FROM cash_entries");
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (operations) => {
        for (const op of operations) {
          const before = await snapshot();
          const { balance } = await cashBalance(db);
          let booked: boolean;
          switch (op.type) {
            case "sale":
              await cashSale(op.amount);
              booked = true;
              break;
            case "refund": {
              const credit = await personCredit(db, personId);
              const outcome = await refundCredit(
                db,
                { personId, amount: op.amount, payment: { method: "CASH", date: today, key: crypto.randomUUID() } },
                actor,
              );
              booked = outcome.status === "refunded";
              expect(booked, `refund ${op.amount} of credit ${credit}, Kasse ${balance}`).toBe(op.amount <= credit && op.amount <= balance);
              break;
            }
            case "correction": {
              const open = await all<{ id: number; amount: number }>(
                `SELECT id, amount FROM cash_entries c WHERE id > ${start} AND reverses_entry_id IS NULL
                  AND NOT EXISTS (SELECT 1 FROM cash_entries r WHERE r.reverses_entry_id = c.id) ORDER BY id DESC LIMIT 20`,
              );
              const target = open[op.pick % Math.max(open.length, 1)];
              if (!target) {
                booked = false;
                break;
              }
              const outcome = await reverseCashEntry(db, target.id, today, actor);
              booked = outcome.status === "booked";
              if (!booked && balance - target.amount < 0) {
                expect(outcome.status === "refused" && outcome.message).toMatch(/^Der Kassenbestand reicht nicht/);
              }
              if (target.amount < 0) expect(booked, "cancelling cash out always fits").toBe(true);
              break;
            }
            case "backdated": {
              const { lastDate } = await cashBalance(db);
              const outcome = await bookCashEntry(
                db,
                { kind: "DEPOSIT", date: addDaysToDate(lastDate!, -1), amount: op.amount, text: "zurück", key: null },
                actor,
              );
              expect(outcome).toMatchObject({ status: "refused", field: "date" });
              booked = false;
              break;
            }
            default: {
              const kind = KINDS[op.type];
              const outcome = await bookCashEntry(db, { kind, date: today, amount: op.amount, text: op.type, key: null }, actor);
              booked = outcome.status === "booked";
              expect(booked, `${kind} ${op.amount} with ${balance} in the Kasse`).toBe(kind === "DEPOSIT" || op.amount <= balance);
              if (!booked) expect(outcome.status === "refused" && outcome.message).toMatch(/^Der Kassenbestand reicht nicht/);
            }
          }
          const after = await snapshot();
          if (!booked) expect(after, `${op.type} refused: nothing changed`).toEqual(before);
          else expect(after.entries, `${op.type}: entries written`).toBeGreaterThan(before.entries);
          const { total } = await one<{ total: number }>("SELECT coalesce(sum(amount), 0) AS total FROM cash_entries WHERE cash_box_id = 1");
          expect((await cashBalance(db)).balance).toBe(total);
          expect(total).toBeGreaterThanOrEqual(0);
        }
        await expectBooksHold();
      }),
      { seed: 20261130, numRuns: 120 },
    );
  }, 300_000);
});
