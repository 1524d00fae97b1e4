/**
 * Das Zahlungsjournal (issue 30 item 4): the screen Zahlungen and a person's tab, 'Zurückbuchen'
 * by a counter-entry, 'Guthaben erstatten' and 'Guthaben verrechnen', each by requests as a user
 * (and a hand-made request) sends them; the journal itself is never changed.
 */
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { parseStatement } from "~/lib/bank-statements.server";
import { importStatement } from "~/models/bank-statements.server";
import { issueInvoice, saveInvoiceRow } from "~/models/invoices.server";
import { personCredit } from "~/models/payments.server";
import { camtWith } from "../support/camt";
import { fetchApp, postForm, toastOf } from "../support/app";
import { issueTestInvoice } from "../support/invoices";
import { loadDemoData } from "../support/seed";
import { DEMO_USERS, loginCookie } from "../support/sessions";

const db = createDb(env.DB);
let personId: number;
let nextNumber = 2_026_800;

const page = async (path: string, user: "finance" | "staff" | "admin" = "finance") => fetchApp(path, { cookie: await loginCookie(user) });
const post = async (fields: Record<string, string | number>, path = "/payments") => postForm(path, await loginCookie("finance"), fields);

/** An issued invoice of the test person over `amount` cents with one row, open in full. */
async function issuedInvoice(amount: number) {
  const [header] = await db.insert(schema.invoiceHeaders).values({ personId, date: "2026-11-01", dueDate: "2026-12-01", amount, openAmount: 0 }).returning();
  await db.insert(schema.invoiceRows).values({ invoiceId: header.id, lineNumber: 1, text: "Probe", amount });
  await issueTestInvoice(header.id, nextNumber++);
  return header.id;
}

const openOf = async (invoiceId: number) =>
  (await db.select({ open: schema.invoiceHeaders.openAmount }).from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, invoiceId)))[0].open;

/** The invoice dialog's 'Ist Offen' lowered to `open`: a transfer booked in the journal; returns its entry. */
async function payByDialog(invoiceId: number, open: string) {
  const [header] = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, invoiceId));
  const response = await post(
    {
      intent: "invoice:save",
      id: invoiceId,
      rowVersion: header.rowVersion,
      date: "01.11.2026",
      dueDate: "01.12.2026",
      isOpen: open === "0,00" ? "" : "on",
      openAmount: open,
      paidBy: "TRANSFER",
      paidOn: "10.11.2026",
      paymentKey: crypto.randomUUID(),
    },
    "/invoices",
  );
  expect(response.status).toBe(302);
  const [entry] = await db
    .select({ id: schema.payments.id })
    .from(schema.payments)
    .innerJoin(schema.paymentAllocations, eq(schema.paymentAllocations.paymentId, schema.payments.id))
    .where(eq(schema.paymentAllocations.invoiceId, invoiceId))
    .orderBy(sql`${schema.payments.id} DESC`)
    .limit(1);
  return entry.id;
}

beforeAll(async () => {
  await loadDemoData();
  [{ id: personId }] = await db.insert(schema.people).values({ firstName: "Zora", lastName: "Zahler", memberTypeId: 1 }).returning({ id: schema.people.id });
});

describe("the screen Zahlungen", () => {
  it("lists the journal for FINANCE and ADMIN, with the demo's entries, filters and the Excel file; staff are turned away", async () => {
    const response = await page("/payments");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Zahlungen");
    expect(html).toContain("Überweisung");
    expect(html).toContain("Bar");
    // Filtered by method, the other methods' entries are gone.
    const cash = await (await page("/payments?method=CASH")).text();
    expect(cash).toContain("Barzahlung");
    expect(cash).not.toContain("Überweisung ReNr");
    expect((await page("/payments", "admin")).status).toBe(200);
    const staff = await page("/payments", "staff");
    expect([302, 403]).toContain(staff.status);
    const excel = await page("/payments/export");
    expect(excel.headers.get("Content-Disposition")).toBe('attachment; filename="Zahlungen.xlsx"');
  });

  it("shows a person's entries in their tab 'Zahlungen'", async () => {
    const invoiceId = await issuedInvoice(4_000);
    await payByDialog(invoiceId, "15,00");
    const html = await (await page(`/people/${personId}/payments`)).text();
    expect(html).toContain("Zahlungen von Zora Zahler");
    expect(html).toContain("25,00");
  });
});

describe("Zurückbuchen", () => {
  it("undoes an entry by a counter-entry that names it: what it paid is open again; the entry stays; a second time is refused", async () => {
    const invoiceId = await issuedInvoice(6_000);
    const entryId = await payByDialog(invoiceId, "10,00");
    expect(await openOf(invoiceId)).toBe(1_000);
    const before = await db.select().from(schema.payments).where(eq(schema.payments.id, entryId));
    const response = await post({ intent: "payment:reverse", id: entryId });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe(`Zahlung Nr. ${entryId} wurde zurückgebucht`);
    expect(await openOf(invoiceId)).toBe(6_000);
    expect(await db.select().from(schema.payments).where(eq(schema.payments.id, entryId))).toEqual(before);
    const [counter] = await db.select().from(schema.payments).where(eq(schema.payments.reversesPaymentId, entryId));
    expect(counter).toMatchObject({ amount: -5_000, source: "REVERSAL", method: "TRANSFER" });
    const again = await post({ intent: "payment:reverse", id: entryId });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Diese Zahlung ist schon zurückgebucht.");
    const ofCounter = await post({ intent: "payment:reverse", id: counter.id });
    expect(ofCounter.status).toBe(409);
    expect(await ofCounter.text()).toContain("Eine Gegenbuchung wird nicht selbst zurückgebucht");
    expect(await openOf(invoiceId)).toBe(6_000);
  });

  it("refuses a direct debit (its return or the run's cancellation undoes it), with nothing written", async () => {
    const [debit] = await db.select().from(schema.payments).where(eq(schema.payments.method, "DIRECT_DEBIT")).limit(1);
    const [cash] = await db.select().from(schema.payments).where(eq(schema.payments.source, "CASH_RECEIPT")).limit(1);
    expect(cash).toBeDefined();
    if (debit) {
      const response = await post({ intent: "payment:reverse", id: debit.id });
      expect(response.status).toBe(409);
    }
    const count = await db.$count(schema.payments);
    for (const id of ["0", "999999", "abc", "-1", "1".repeat(30)]) {
      const response = await post({ intent: "payment:reverse", id });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    expect(await db.$count(schema.payments)).toBe(count);
  });
});

describe("credit: Guthaben erstatten and verrechnen", () => {
  it("an overpayment is the person's credit; it pays another invoice; the rest is refunded, never more than there is", async () => {
    const first = await issuedInvoice(3_000);
    const second = await issuedInvoice(2_000);
    // Ist Offen unticked on the first invoice with 30,00 € open: the journal books 30,00 €. Then a
    // transfer of 50,00 € for it arrives by the bank: the invoice is paid, 20,00 € are credit.
    const entryId = await payByDialog(first, "0,00");
    expect(await openOf(first)).toBe(0);
    const creditBefore = await personCredit(db, personId);
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO payments (entry_key, person_id, date, amount, method, source, text, created_by, created_on) VALUES ('test:over', ?1, '2026-11-12', 2500, 'TRANSFER', 'MANUAL', 'zu viel', 'Test', '2026-11-12T10:00:00Z')",
      ).bind(personId),
    ]);
    expect(await personCredit(db, personId)).toBe(creditBefore + 2_500);

    const confirm = await (await page(`/invoices?dialog=payment-creditInvoice&dialogId=${second}`)).text();
    expect(confirm).toContain("Guthaben mit Rechnung");
    const used = await post({ intent: "payment:creditInvoice", id: second }, "/invoices");
    expect(used.status).toBe(302);
    expect(toastOf(used)?.message).toBe("20,00\u00a0€ Guthaben verrechnet (Rechnung)");
    expect(await openOf(second)).toBe(0);
    const left = await personCredit(db, personId);
    expect(left).toBe(creditBefore + 500);

    const refundForm = await (await page(`/payments?dialog=payment-refund&dialogId=${entryId}`)).text();
    expect(refundForm).toContain("Guthaben von Zora Zahler erstatten");
    const tooMuch = await post({ intent: "payment:refund", id: entryId, amount: "999,00", paidBy: "TRANSFER", paymentKey: "refund-too-much-1" });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.text()).toContain("Erstattet wird höchstens das Guthaben der Person");
    const key = crypto.randomUUID();
    // Paid out of the Kasse: dated not before its last entry (the demo's of 22.11.2026).
    const refund = { intent: "payment:refund", id: entryId, amount: "5,00", paidBy: "CASH", paidOn: "23.11.2026", paymentKey: key };
    const done = await post(refund);
    expect(done.status).toBe(302);
    expect(toastOf(done)?.message).toBe("5,00\u00a0€ Guthaben erstattet");
    // The same form sent again pays out nothing more.
    const twice = await post(refund);
    expect(twice.status).toBe(409);
    expect(await personCredit(db, personId)).toBe(left - 500);
    const [out] = await db
      .select()
      .from(schema.payments)
      .where(eq(schema.payments.entryKey, `form:${key}`));
    expect(out).toMatchObject({ amount: -500, method: "CASH", date: "2026-11-23" });
  });

  it("a draft whose discount leaves less to pay than was paid on its fees is issued: the invoice is paid, the rest is credit", async () => {
    // A course fee of 50,00 € paid at the course (booked in the Kasse after its last entry), billed on a draft with a discount of 30,00 €.
    const [fee] = await db
      .insert(schema.fees)
      .values({ personId, date: "2026-11-02", text: "Kursgebühr Rabatt", amount: 5_000, openAmount: 5_000, sendInvoice: true, isInvoiced: true })
      .returning({ id: schema.fees.id });
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO payments (entry_key, person_id, date, amount, method, source, text, created_by, created_on) VALUES ('test:course-cash', ?1, '2026-11-23', 5000, 'CASH', 'CASH_RECEIPT', 'am Platz', 'Test', '2026-11-23T10:00:00Z')",
      ).bind(personId),
      env.DB.prepare(
        "INSERT INTO payment_allocations (payment_id, fee_id, amount, created_by, created_on) SELECT id, ?1, 5000, 'Test', created_on FROM payments WHERE entry_key = 'test:course-cash'",
      ).bind(fee.id),
    ]);
    const [draft] = await db
      .insert(schema.invoiceHeaders)
      .values({ personId, date: "2026-11-20", dueDate: "2026-12-04", amount: 5_000, openAmount: 0 })
      .returning();
    await db.insert(schema.invoiceRows).values({ invoiceId: draft.id, feeId: fee.id, lineNumber: 1, text: "Kursgebühr Rabatt", amount: 5_000 });
    const actor = { name: "Fritz Finanz" };
    expect((await saveInvoiceRow(db, { invoiceId: draft.id }, { text: "Rabatt", amount: -3_000 }, actor)).status).toBe("saved");
    const creditBefore = await personCredit(db, personId);

    const issued = await issueInvoice(db, draft.id, actor, "2026-11-27");
    if (issued.status !== "issued") throw new Error(JSON.stringify(issued));
    // The counter gave the next number: the test's own numbers go on after it.
    nextNumber = Math.max(nextNumber, issued.invoiceNumber + 1);
    expect(await openOf(draft.id)).toBe(0);
    const [feeAfter] = await db.select().from(schema.fees).where(eq(schema.fees.id, fee.id));
    expect(feeAfter.openAmount).toBe(0);
    expect(await personCredit(db, personId)).toBe(creditBefore + 3_000);
    const allocations = await db
      .select({ invoiceId: schema.paymentAllocations.invoiceId, feeId: schema.paymentAllocations.feeId, amount: schema.paymentAllocations.amount })
      .from(schema.paymentAllocations)
      .innerJoin(schema.payments, eq(schema.payments.id, schema.paymentAllocations.paymentId))
      .where(eq(schema.payments.entryKey, "test:course-cash"));
    expect(allocations).toEqual([
      { invoiceId: null, feeId: fee.id, amount: 5_000 },
      { invoiceId: draft.id, feeId: null, amount: 2_000 },
      { invoiceId: null, feeId: fee.id, amount: -5_000 },
    ]);
  });

  it("bad input to the refund gets a German message and changes nothing", async () => {
    const count = await db.$count(schema.payments);
    const cases: Record<string, string>[] = [
      { id: "1", amount: "abc", paidBy: "TRANSFER" },
      { id: "1", amount: "5,00", paidBy: "SCHECK" },
      { id: "1", amount: "5,00", paidBy: "TRANSFER", paidOn: "31.02.2026" },
      { id: "1", amount: "5,00", paidBy: "TRANSFER", paymentKey: "ü".repeat(300) },
      { id: "x", amount: "5,00", paidBy: "TRANSFER" },
    ];
    for (const fields of cases) {
      const response = await post({ intent: "payment:refund", ...fields });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    expect(await db.$count(schema.payments)).toBe(count);
  });
});

describe("one bank payment to several invoices", () => {
  it("'Auf alle verteilen': one journal entry pays both invoices the remittance names, in turn; the rest is credit; booked once", async () => {
    const first = await issuedInvoice(3_000);
    const second = await issuedInvoice(5_000);
    const [a, b] = await Promise.all(
      [first, second].map(async (id) => (await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, id)))[0].invoiceNumber),
    );
    const statement = parseStatement(camtWith([{ ref: "SPLIT-1", cents: 9_000, text: `ReNr ${a} und ReNr ${b}`, name: "Zora Zahler" }]));
    const { importId } = await importStatement(db, { fileName: "zwei.xml", statement }, DEMO_USERS.finance);
    const [entry] = await db.select().from(schema.bankStatementEntries).where(eq(schema.bankStatementEntries.importId, importId));
    const review = await (await page(`/bankstatements/${importId}`)).text();
    expect(review).toContain(`Auf alle verteilen: Rechnung ${a}`);
    const creditBefore = await personCredit(db, personId);
    const booked = await post({ intent: "book", [`choice-${entry.id}`]: "SPLIT" }, `/bankstatements/${importId}`);
    expect(booked.status).toBe(302);
    expect(toastOf(booked)?.message).toContain("10,00\u00a0€ Überzahlung als Guthaben der Person gebucht");
    expect([await openOf(first), await openOf(second)]).toEqual([0, 0]);
    const [journal] = await db
      .select()
      .from(schema.payments)
      .where(eq(schema.payments.entryKey, `bank:${entry.id}`));
    expect(journal).toMatchObject({ amount: 9_000, method: "TRANSFER", source: "BANK_ENTRY", personId });
    const allocations = await db.select().from(schema.paymentAllocations).where(eq(schema.paymentAllocations.paymentId, journal.id));
    expect(allocations.map((row) => [row.invoiceId, row.amount])).toEqual([
      [first, 3_000],
      [second, 5_000],
    ]);
    expect(await personCredit(db, personId)).toBe(creditBefore + 1_000);
    // Sent again (a double click, a retry): booked once.
    const again = await post({ intent: "book", [`choice-${entry.id}`]: "SPLIT" }, `/bankstatements/${importId}`);
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(await db.$count(schema.payments, eq(schema.payments.entryKey, `bank:${entry.id}`))).toBe(1);
  });
});
