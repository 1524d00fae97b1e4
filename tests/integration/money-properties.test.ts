/**
 * Where money moves, properties instead of examples: random sequences of invoice-row, invoice,
 * fee, delete/undo, invoicing-run (its messages delivered once or twice), run-undo and Mollie
 * payment (a fee's payment link paid at the Mollie fake, the webhook called once or twice) and
 * reminder-run (Mahnlauf: the person's items made overdue, the run on a later day, its messages
 * delivered once or twice), bank-payment (a statement's credit for an open invoice or fee, about
 * what a reminder asks for, imported and booked, the same file imported again), Lastschriftlauf
 * (the person's fees without invoice collected by mandate, messages once or twice, the run then
 * kept, cancelled or submitted), Storno, Gutschrift, an invoice's PDF (rendered in Chromium, asked
 * for again), a fee marked paid in cash or by transfer, and the journal's reversal, refund and
 * credit use operations
 * (fast-check, fixed seed) through the models, the fee dialog's action and the queue consumer,
 * and after every step the books must still hold: amounts are whole cents, an invoice's
 * amount is the sum of its rows, 0 ≤ open amount ≤ amount for invoices and fees, no fee is on
 * two rows, invoice numbers are unique and without gaps, every fee on a row is marked invoiced,
 * open = amount - allocations, the journal balances, an issued invoice never changes and its
 * stored PDF and SHA-256, once set, never either. Refused operations
 * are fine; broken books are not.
 */
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { mainRecordOfTransaction, restoreDeletedRecord } from "~/models/recycle-bin.server";
import { cancelInvoice, deleteInvoiceHeader, deleteInvoiceRow, issueInvoice, saveInvoiceRow, updateInvoiceHeader } from "~/models/invoices.server";
import { undoInvoiceRun, latestInvoiceRun } from "~/models/invoice-runs.server";
import { issueCreditNote } from "~/models/credit-notes.server";
import { paymentLinkForFee, toMollieValue } from "~/services/payments.server";
import { createInvoicePdf, lazyRenderer } from "~/services/invoice-pdfs.server";
import { fetchApp, postForm } from "../support/app";
import { deliver, startControlledInvoiceRun } from "../support/jobs";
import { loadDemoData } from "../support/seed";
import { DEMO_USERS, loginCookie } from "../support/sessions";
import { startRun } from "~/jobs/start.server";
import { addDaysToDate, todayInBerlin } from "~/lib/format";
import { earliestCollectionDate, settlementDayOf } from "~/lib/pain008";
import { settleDueDebits } from "~/models/debit-settlements.server";
import { mandateReference } from "~/lib/banking";
import { reminderRunParams } from "~/models/reminder-runs.server";
import { parseStatement } from "~/lib/bank-statements.server";
import { bookEntries, importStatement } from "~/models/bank-statements.server";
import { camtWith } from "../support/camt";
import { issueTestInvoice } from "../support/invoices";

let reminderRuns = 0;

/** A Lastschriftlauf over the person (their open fees without invoice, by their mandate), its
 *  messages delivered once or twice, then left prepared, cancelled, or submitted to the bank, and
 *  then maybe paid: by the bank's batch credit booked from a statement, or by the club's automatic
 *  settlement on the settlement day (run twice: it books once). */
async function directDebitRun(redeliver: boolean, then: "keep" | "cancel" | "submit" | "credit" | "settle", cookie: string) {
  const messages: { body: unknown }[] = [];
  const collecting = { JOBS: { sendBatch: async (batch: { body: unknown }[]) => void messages.push(...batch) } } as unknown as Pick<Env, "JOBS">;
  const today = todayInBerlin();
  const params = { date: today, earliest: earliestCollectionDate(today) };
  const outcome = await startRun(collecting, db, { type: "DIRECT_DEBIT", items: [personId], params, emptyMessage: "Nichts einzuziehen" }, actor);
  if (outcome.status !== "started") return;
  await deliver(redeliver ? [...messages, ...messages] : messages);
  if (then === "cancel") await postForm("/directdebits", cookie, { intent: "directDebit:cancel", id: outcome.job.id });
  if (then === "cancel") return;
  if (then !== "keep") await postForm("/directdebits", await loginCookie("admin"), { intent: "directDebit:submit", id: outcome.job.id });
  if (then === "settle") {
    await db.update(schema.configuration).set({ debitAutoSettle: true }).where(eq(schema.configuration.id, 1));
    const day = settlementDayOf(addDaysToDate(today, 400));
    await settleDueDebits(db, day, actor);
    expect(await settleDueDebits(db, day, actor), "settled once").toBe(0);
    await db.update(schema.configuration).set({ debitAutoSettle: false }).where(eq(schema.configuration.id, 1));
  }
  if (then === "credit") {
    const items = await db.select().from(schema.directDebitItems).where(eq(schema.directDebitItems.runId, outcome.job.id));
    const cents = items.reduce((sum, item) => sum + item.amount, 0);
    if (cents === 0) return;
    const statement = parseStatement(camtWith([{ ref: `LS-${outcome.job.id}`, cents, text: `SEPA-Sammler WUFF-LS-${outcome.job.id}` }]));
    const { importId } = await importStatement(db, { fileName: "sammler.xml", statement }, actor);
    const [entry] = await db.select().from(schema.bankStatementEntries).where(eq(schema.bankStatementEntries.importId, importId));
    expect(entry, "the run's credit is proposed").toMatchObject({ proposal: "MATCHED", targetType: "DEBIT_RUN", targetId: outcome.job.id });
    const booked = await bookEntries(db, importId, [{ entryId: entry.id, target: { type: "DEBIT_RUN", id: outcome.job.id } }], actor);
    expect(booked.status).toBe("booked");
  }
}

/** A Mahnlauf over the person on a day later than the last one (so levels 2 and 3 come due too). */
async function reminderRun(redeliver: boolean) {
  // An issued invoice's due date is frozen (issue 30): the test's invoices are issued with one.
  await db.run(sql`UPDATE fees SET due_date = '2026-09-01' WHERE person_id = ${personId} AND due_date IS NULL AND send_invoice = 0`);
  const params = await reminderRunParams(db, addDaysToDate("2026-12-01", 30 * reminderRuns++));
  const messages: { body: unknown }[] = [];
  const collecting = { JOBS: { sendBatch: async (batch: { body: unknown }[]) => void messages.push(...batch) } } as unknown as Pick<Env, "JOBS">;
  const outcome = await startRun(collecting, db, { type: "REMINDERS", items: [personId], params, emptyMessage: "Keine Mahnung fällig" }, actor);
  if (outcome.status === "started") await deliver(redeliver ? [...messages, ...messages] : messages);
}

let bankPayments = 0;

/** What is open of an item and of its reminder fees, in cents. */
async function openWithReminderFees(target: { type: "INVOICE" | "FEE"; id: number }) {
  const column = target.type === "INVOICE" ? "reminded_invoice_id" : "reminded_fee_id";
  const table = target.type === "INVOICE" ? "invoice_headers" : "fees";
  const [row] = await db.all<{ open: number }>(
    sql`SELECT (SELECT open_amount FROM ${sql.raw(table)} WHERE id = ${target.id}) + (SELECT coalesce(sum(open_amount), 0) FROM fees WHERE kind = 'REMINDER' AND ${sql.raw(column)} = ${target.id}) AS open`,
  );
  return Number(row.open);
}

/** A credit on the club's account naming an open item of the person ('ReNr {n}', 'Posten {id}'),
 *  about what it and its reminder fees ask for, imported and booked as proposed. What the booking
 *  applied must be exactly what left the item and its reminder fees, and never more than paid. */
async function bankPayment(pick: number, delta: number, twice: boolean, step: string) {
  const invoices = await db
    .select()
    .from(schema.invoiceHeaders)
    .then((all) => all.filter((h) => h.personId === personId && h.openAmount > 0));
  const fees = await db
    .select()
    .from(schema.fees)
    .then((all) => all.filter((f) => f.personId === personId && f.openAmount > 0 && !f.isInvoiced && !f.sendInvoice && f.kind !== "REMINDER"));
  const items = [
    ...invoices.map((h) => ({ type: "INVOICE" as const, id: h.id, text: `ReNr ${h.invoiceNumber}` })),
    ...fees.map((f) => ({ type: "FEE" as const, id: f.id, text: `Posten ${f.id} ${f.text}` })),
  ];
  const item = items[pick % Math.max(1, items.length)];
  if (!item) return;
  const before = await openWithReminderFees(item);
  const cents = Math.max(1, before + delta);
  const statement = parseStatement(camtWith([{ ref: `PROP-${bankPayments++}`, cents, text: item.text }]));
  const { importId } = await importStatement(db, { fileName: "eigenschaft.xml", statement }, actor);
  const [entry] = await db.select().from(schema.bankStatementEntries).where(eq(schema.bankStatementEntries.importId, importId));
  if (!entry || entry.targetType !== item.type || entry.targetId !== item.id) return;
  const outcome = await bookEntries(db, importId, [{ entryId: entry.id, target: item }], actor);
  expect(outcome.status, `${step}: booked`).toBe("booked");
  const [booked] = await db.select().from(schema.bankStatementEntries).where(eq(schema.bankStatementEntries.id, entry.id));
  expect(booked.applied, `${step}: applied ≤ paid`).toBeLessThanOrEqual(cents);
  expect(before - (await openWithReminderFees(item)), `${step}: what left the item and its reminder fees is what was applied`).toBe(booked.applied);
  expect(booked.applied, `${step}: applied = min(paid, open with reminder fees)`).toBe(Math.min(cents, before));
  if (!twice) return;
  // The same file imported again (a treasurer's slip): nothing is imported or booked a second time.
  const after = await openWithReminderFees(item);
  const again = await importStatement(db, { fileName: "eigenschaft.xml", statement }, actor);
  const repeated = await db.select().from(schema.bankStatementEntries).where(eq(schema.bankStatementEntries.importId, again.importId));
  expect(repeated, `${step}: the second import finds the entry known`).toEqual([]);
  expect(await openWithReminderFees(item), `${step}: the second import books nothing`).toBe(after);
}

const db = createDb(env.DB);
const actor = DEMO_USERS.finance;
/** Chromium through Browser Rendering, opened on the first PDF and closed at the end. */
const renderer = lazyRenderer(env);
afterAll(() => renderer.close());
let personId: number;

beforeAll(async () => {
  await loadDemoData();
  [{ id: personId }] = await db.insert(schema.people).values({ firstName: "Paula", lastName: "Probe", memberTypeId: 1 }).returning({ id: schema.people.id });
  await db.update(schema.configuration).set({ mollieIntegration: true });
  // An active mandate: the fees the person owes without an invoice can be collected.
  await db.insert(schema.sepaMandates).values({
    personId,
    accountHolder: "Paula Probe",
    iban: "DE89370400440532013000",
    reference: mandateReference(personId, 1),
    mandateDate: "2026-01-01",
    createdBy: "Test",
    createdOn: "2026-01-01T00:00:00.000Z",
  });
});

/** A payment through the fee's Mollie link (at the fake), and Mollie's webhook call(s) delivered. */
async function payByMollie(feeId: number, cents: number, calls: number) {
  const outcome = await paymentLinkForFee({ db, env }, feeId);
  if (outcome.status !== "ok") return;
  const paid = await fetch(`${env.MOLLIE_API_URL.replace(/\/v2$/, "")}/_fake/payment-links/${outcome.link.id}/pay`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ notify: false, amount: toMollieValue(cents) }),
  });
  const { webhook } = (await paid.json()) as { webhook: { url: string; body: string } };
  const url = new URL(webhook.url);
  for (let call = 0; call < calls; call++) {
    const response = await fetchApp(`${url.pathname}${url.search}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: webhook.body,
    });
    expect(response.status).toBe(200);
  }
}

/** Two invoices of the person, each with a row billing a fee of its own: the first issued, the second a draft. */
async function freshInvoices(): Promise<number[]> {
  const ids: number[] = [];
  for (const amount of [4_000, 12_550]) {
    const draft = ids.length === 1;
    const [fee] = await db
      .insert(schema.fees)
      .values({ personId, date: "2026-11-01", text: "Probeposten", amount, openAmount: draft ? amount : 0, sendInvoice: true, isInvoiced: true, kind: "OTHER" })
      .returning({ id: schema.fees.id });
    const [header] = await db
      .insert(schema.invoiceHeaders)
      .values({ personId, date: "2026-11-02", dueDate: "2026-09-01", amount, openAmount: 0 })
      .returning({ id: schema.invoiceHeaders.id });
    await db.insert(schema.invoiceRows).values({ invoiceId: header.id, feeId: fee.id, lineNumber: 1, amount, text: "Probeposten" });
    // Numbered from the counter, as issuing numbers: the numbers stay without gaps.
    if (!draft) {
      const [{ next }] = await db.all<{ next: number }>(
        sql`SELECT max(coalesce((SELECT last_invoice_number FROM configuration WHERE id = 1), 0), coalesce((SELECT max(invoice_number) FROM invoice_headers), 0)) + 1 AS next`,
      );
      await issueTestInvoice(header.id, next);
      await db.update(schema.configuration).set({ lastInvoiceNumber: next });
    }
    ids.push(header.id);
  }
  return ids;
}

/**
 * The books hold: every invariant of spec 001 §3/§4 and the issue, over all of the data. Each
 * breach is listed (one line per row and rule, with the values) and the list must be empty: one
 * expect per step instead of one per row and rule (thousands per step, most of this test's time).
 */
/** What each issued invoice froze when first seen issued (id → its frozen fields as JSON). */
const issuedSnapshots = new Map<number, string>();
/** Each issued invoice's stored PDF (path and SHA-256) when first seen with one. */
const pdfSnapshots = new Map<number, string>();

async function expectBooksHold(step: string) {
  const broken: string[] = [];
  const check = (holds: boolean, what: string) => void (holds || broken.push(what));
  const headers = await db.select().from(schema.invoiceHeaders);
  const rows = await db.select().from(schema.invoiceRows);
  const fees = await db.select().from(schema.fees);
  for (const value of [...headers.flatMap((h) => [h.amount, h.openAmount]), ...rows.map((r) => r.amount), ...fees.flatMap((f) => [f.amount, f.openAmount])]) {
    check(Number.isInteger(value), `cents: ${value}`);
  }
  for (const header of headers) {
    const sum = rows.filter((row) => row.invoiceId === header.id).reduce((total, row) => total + row.amount, 0);
    check(Object.is(header.amount, sum), `invoice ${header.invoiceNumber} = sum of its rows: ${header.amount} ≠ ${sum}`);
    check(typeof header.openAmount === "number" && header.openAmount >= 0, `invoice ${header.invoiceNumber} open ≥ 0: ${header.openAmount}`);
    check(header.openAmount <= Math.max(header.amount, 0), `invoice ${header.invoiceNumber} open ≤ amount: ${header.openAmount} > ${header.amount}`);
  }
  for (const fee of fees) {
    check(typeof fee.openAmount === "number" && fee.openAmount >= 0, `fee ${fee.id} open ≥ 0: ${fee.openAmount}`);
    check(fee.openAmount <= fee.amount, `fee ${fee.id} open ≤ amount: ${fee.openAmount} > ${fee.amount}`);
  }
  // The payment journal (issue 30): open = amount - allocations for every issued invoice and every
  // fee not owed through an invoice; a fee owed through an invoice has no allocations of its own;
  // no person's credit (what their entries did not allocate) is below zero; the journal balances.
  const entries = await db.select().from(schema.payments);
  const allocations = await db.select().from(schema.paymentAllocations);
  const allocatedTo = (key: "invoiceId" | "feeId", id: number) => allocations.filter((a) => a[key] === id).reduce((total, a) => total + a.amount, 0);
  for (const header of headers.filter((h) => h.status === "ISSUED" && h.kind === "INVOICE")) {
    check(
      header.openAmount === header.amount - allocatedTo("invoiceId", header.id),
      `invoice ${header.invoiceNumber} open = amount - allocations: ${header.openAmount} ≠ ${header.amount} - ${allocatedTo("invoiceId", header.id)}`,
    );
  }
  const onIssued = new Set(rows.filter((row) => !row.feeReleased && headers.find((h) => h.id === row.invoiceId)?.status === "ISSUED").map((row) => row.feeId));
  for (const fee of fees) {
    // A fee on a draft is still the open claim (a draft has nothing open): paid on, it is paid itself.
    if (onIssued.has(fee.id)) check(allocatedTo("feeId", fee.id) === 0, `fee ${fee.id} owed through its invoice has no payments of its own`);
    else
      check(
        fee.openAmount === fee.amount - allocatedTo("feeId", fee.id),
        `fee ${fee.id} open = amount - allocations: ${fee.openAmount} ≠ ${fee.amount} - ${allocatedTo("feeId", fee.id)}`,
      );
  }
  const credits = new Map<number, number>();
  for (const entry of entries) {
    const unallocated = entry.amount - allocations.filter((a) => a.paymentId === entry.id).reduce((total, a) => total + a.amount, 0);
    credits.set(entry.personId, (credits.get(entry.personId) ?? 0) + unallocated);
  }
  for (const [personId, credit] of credits) check(credit >= 0, `person ${personId} credit ≥ 0: ${credit}`);
  const sumOf = (values: number[]) => values.reduce((total, value) => total + value, 0);
  check(
    sumOf(entries.map((e) => e.amount)) === sumOf(allocations.map((a) => a.amount)) + sumOf([...credits.values()]),
    "the journal balances: entries = allocations + credits (refunds are entries below zero)",
  );
  const reversed = entries.filter((e) => e.reversesPaymentId !== null).map((e) => e.reversesPaymentId);
  check(new Set(reversed).size === reversed.length, "an entry is undone at most once");
  // A fee stands on at most one row (a row of a cancelled invoice released it).
  const billed = rows
    .filter((row) => !row.feeReleased)
    .map((row) => row.feeId)
    .filter((id) => id !== null);
  check(new Set(billed).size === billed.length, `no fee on two rows: ${billed.filter((id, index) => billed.indexOf(id) !== index).join(", ")}`);
  // A Stornorechnung negates its invoice exactly, once; the invoice has nothing open.
  for (const storno of headers.filter((h) => h.kind === "STORNO")) {
    const cancelled = headers.find((h) => h.id === storno.correctsInvoiceId);
    check(cancelled !== undefined && storno.amount === -cancelled.amount, `storno ${storno.invoiceNumber} negates its invoice: ${storno.amount}`);
    check(cancelled?.openAmount === 0, `a cancelled invoice has nothing open: ${cancelled?.openAmount}`);
    check(headers.filter((h) => h.kind === "STORNO" && h.correctsInvoiceId === storno.correctsInvoiceId).length === 1, `one storno per invoice`);
  }
  // A Gutschrift credits no tax case of its invoice beyond what the invoice billed at that case; an
  // invoice is either cancelled (Storno) or credited (Gutschriften), never both.
  for (const invoice of headers.filter((h) => h.kind === "INVOICE" && h.status === "ISSUED")) {
    const notes = headers.filter((h) => h.kind === "CREDIT_NOTE" && h.correctsInvoiceId === invoice.id);
    for (const note of notes)
      check(note.status === "ISSUED" && note.amount < 0 && note.openAmount === 0, `credit note ${note.invoiceNumber} issued, below zero`);
    const byCase = (invoiceIds: number[]) => {
      const sums = new Map<string, number>();
      for (const row of rows.filter((r) => invoiceIds.includes(r.invoiceId))) sums.set(row.taxCase, (sums.get(row.taxCase) ?? 0) + row.amount);
      return sums;
    };
    const billedByCase = byCase([invoice.id]);
    for (const [taxCase, credited] of byCase(notes.map((note) => note.id)))
      check(-credited <= (billedByCase.get(taxCase) ?? 0), `invoice ${invoice.invoiceNumber}: credited at ${taxCase} ${-credited} > billed`);
    const storno = headers.find((h) => h.kind === "STORNO" && h.correctsInvoiceId === invoice.id);
    check(!(storno && notes.length > 0), `invoice ${invoice.invoiceNumber}: cancelled and credited both`);
  }
  const numbers = headers.map((h) => h.invoiceNumber).filter((n) => n !== null);
  check(new Set(numbers).size === numbers.length, `invoice numbers unique: ${numbers.filter((n, index) => numbers.indexOf(n) !== index).join(", ")}`);
  // ... and without gaps: one counter for invoices, Stornorechnungen and Gutschriften.
  const sorted = [...numbers].sort((a, b) => a - b);
  const gaps = sorted.filter((n, index) => index > 0 && n !== sorted[index - 1] + 1);
  check(gaps.length === 0, `invoice numbers without gaps: missing before ${gaps.join(", ")}`);
  const invoiced = new Set(fees.filter((fee) => fee.isInvoiced).map((fee) => fee.id));
  for (const id of billed) check(invoiced.has(id!), `a billed fee is marked invoiced: fee ${id}`);
  const booked = await db.select().from(schema.molliePayments);
  for (const payment of booked) {
    // A payment takes off at most what it paid and what was open (the fee's amount may be edited later).
    check(typeof payment.applied === "number" && payment.applied >= 0, `${payment.paymentId} applied ≥ 0: ${payment.applied}`);
    check(
      typeof payment.applied === "number" && payment.applied <= payment.amount,
      `${payment.paymentId} applied ≤ paid: ${payment.applied} > ${payment.amount}`,
    );
  }
  // Mahnwesen: each item reaches each level once; every reminder fee belongs to exactly one
  // reminder of its own person and item; nothing paid at the time is reminded.
  const reminders = await db.select().from(schema.reminders);
  const active = reminders.filter((r) => r.status !== "CANCELLED").map((r) => `${r.targetType}:${r.targetId}:${r.level}`);
  check(
    new Set(active).size === active.length,
    `each item reaches each level once: ${active.filter((key, index) => active.indexOf(key) !== index).join(", ")}`,
  );
  for (const reminder of reminders)
    check(typeof reminder.openAmount === "number" && reminder.openAmount > 0, `reminder ${reminder.id} of something open: ${reminder.openAmount}`);
  for (const fee of fees.filter((f) => f.kind === "REMINDER")) {
    const owners = reminders.filter((r) => r.feeId === fee.id);
    check(owners.length === 1, `reminder fee ${fee.id} has one reminder: ${owners.length}`);
    if (owners.length === 0) continue;
    check(owners[0].personId === fee.personId, `reminder fee ${fee.id} of the reminded person: ${fee.personId} ≠ ${owners[0].personId}`);
    const named = owners[0].targetType === "INVOICE" ? fee.remindedInvoiceId : fee.remindedFeeId;
    check(named === owners[0].targetId, `reminder fee ${fee.id} names its item: ${named} ≠ ${owners[0].targetId}`);
  }
  // Issue 30: a draft has no number and nothing open; an issued invoice never changes what it
  // froze (number, date, due date, recipient, amount, rows) and is never deleted.
  for (const header of headers) {
    if (header.status === "DRAFT") check(header.invoiceNumber === null && header.openAmount === 0, `draft ${header.id} without number, nothing open`);
    else {
      const frozen = JSON.stringify([
        header.invoiceNumber,
        header.date,
        header.dueDate,
        header.issuedLastName,
        header.amount,
        rows.filter((row) => row.invoiceId === header.id).map((row) => [row.id, row.text, row.amount, row.feeId]),
      ]);
      // Its stored PDF and that file's SHA-256 are set once and never change.
      const pdf = JSON.stringify([header.pdfFilePath, header.pdfSha256]);
      const pdfSeen = pdfSnapshots.get(header.id);
      if (header.pdfFilePath !== null) {
        check(pdfSeen === undefined || pdfSeen === pdf, `issued invoice ${header.invoiceNumber}: its PDF stays: ${pdfSeen} → ${pdf}`);
        pdfSnapshots.set(header.id, pdf);
      } else check(pdfSeen === undefined, `issued invoice ${header.invoiceNumber}: its PDF is not removed`);
      const seen = issuedSnapshots.get(header.id) ?? frozen;
      check(seen === frozen, `issued invoice ${header.invoiceNumber} unchanged: ${seen} → ${frozen}`);
      issuedSnapshots.set(header.id, frozen);
    }
  }
  for (const id of issuedSnapshots.keys())
    check(
      headers.some((header) => header.id === id),
      `issued invoice ${id} still there`,
    );
  const [{ counter }] = await db.select({ counter: schema.configuration.lastInvoiceNumber }).from(schema.configuration);
  const runNumbers = headers.filter((h) => h.jobId !== null && h.invoiceNumber !== null).map((h) => h.invoiceNumber!);
  check(
    runNumbers.every((n) => n <= counter),
    `the counter is past every number a run took: ${counter} < ${Math.max(...runNumbers)}`,
  );
  expect(broken, `${step}: the books do not hold`).toEqual([]);
}

const cents = fc.integer({ min: -5_000, max: 60_000 });
const operation = fc.oneof(
  fc.record({ kind: fc.constant("addRow" as const), invoice: fc.nat(1), amount: cents }),
  fc.record({ kind: fc.constant("editRow" as const), pick: fc.nat(20), amount: cents }),
  fc.record({ kind: fc.constant("deleteRow" as const), pick: fc.nat(20) }),
  fc.record({
    kind: fc.constant("saveInvoice" as const),
    invoice: fc.nat(1),
    isOpen: fc.boolean(),
    openAmount: fc.option(fc.integer({ min: 0, max: 80_000 })),
  }),
  fc.record({ kind: fc.constant("deleteInvoiceAndUndo" as const), invoice: fc.nat(1), undo: fc.boolean() }),
  fc.record({
    kind: fc.constant("editFee" as const),
    pick: fc.nat(20),
    amount: fc.integer({ min: 0, max: 60_000 }),
    isOpen: fc.boolean(),
    paidBy: fc.constantFrom("CASH" as const, "TRANSFER" as const),
  }),
  fc.record({ kind: fc.constant("addBillableFee" as const), amount: fc.integer({ min: 0, max: 60_000 }), direct: fc.boolean() }),
  fc.record({ kind: fc.constant("invoiceRun" as const), redeliver: fc.boolean(), draftsOnly: fc.boolean() }),
  fc.record({ kind: fc.constant("issueInvoice" as const), invoice: fc.nat(1), twice: fc.boolean() }),
  fc.record({ kind: fc.constant("cancelInvoice" as const), invoice: fc.nat(1), twice: fc.boolean() }),
  fc.record({ kind: fc.constant("creditNote" as const), invoice: fc.nat(1), amount: fc.integer({ min: -100, max: 40_000 }), twice: fc.boolean() }),
  fc.record({ kind: fc.constant("undoLastRun" as const) }),
  fc.record({
    kind: fc.constant("molliePayment" as const),
    pick: fc.nat(20),
    amount: fc.integer({ min: 1, max: 70_000 }),
    calls: fc.integer({ min: 1, max: 2 }),
  }),
  fc.record({ kind: fc.constant("reminderRun" as const), redeliver: fc.boolean() }),
  fc.record({ kind: fc.constant("bankPayment" as const), pick: fc.nat(20), delta: fc.integer({ min: -3_000, max: 1_000 }), twice: fc.boolean() }),
  fc.record({
    kind: fc.constant("directDebitRun" as const),
    redeliver: fc.boolean(),
    then: fc.constantFrom("keep" as const, "cancel" as const, "submit" as const, "credit" as const, "settle" as const),
  }),
  // Issue 30: the journal's own operations, through the dialogs' actions as a treasurer sends them.
  fc.record({ kind: fc.constant("reversePayment" as const), pick: fc.nat(40) }),
  fc.record({ kind: fc.constant("refundCredit" as const), cents: fc.integer({ min: 1, max: 5_000 }), twice: fc.boolean() }),
  fc.record({ kind: fc.constant("useCredit" as const), pick: fc.nat(20) }),
  // An invoice's PDF, rendered once (a second request and 'PDF erneut erzeugen' change nothing).
  fc.record({ kind: fc.constant("pdf" as const), pick: fc.nat(20), again: fc.boolean() }),
);

describe("the books hold under any sequence of operations", () => {
  it("invoices, rows, fees, deletes and undos", async () => {
    const cookie = await loginCookie("finance");
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 10 }), async (operations) => {
        const invoices = await freshInvoices();
        for (const [index, op] of operations.entries()) {
          const step = `${index + 1}. ${JSON.stringify(op)}`;
          const rowsOfRun = await db
            .select()
            .from(schema.invoiceRows)
            .then((rows) => rows.filter((row) => invoices.includes(row.invoiceId)));
          switch (op.kind) {
            case "addRow":
              await saveInvoiceRow(db, { invoiceId: invoices[op.invoice] }, { text: "Zusatz", amount: op.amount, taxCase: "STANDARD" }, actor);
              break;
            case "editRow": {
              const row = rowsOfRun[op.pick % Math.max(1, rowsOfRun.length)];
              if (row) await saveInvoiceRow(db, { id: row.id, rowVersion: row.rowVersion }, { text: row.text, amount: op.amount, taxCase: row.taxCase }, actor);
              break;
            }
            case "deleteRow": {
              const row = rowsOfRun[op.pick % Math.max(1, rowsOfRun.length)];
              if (row) await deleteInvoiceRow(db, row.id, actor);
              break;
            }
            case "saveInvoice": {
              const [header] = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, invoices[op.invoice]));
              if (header) {
                await updateInvoiceHeader(
                  db,
                  header.id,
                  header.rowVersion,
                  // A draft's dates change; an issued invoice's are frozen (refused), its payment fields not.
                  {
                    date: header.status === "DRAFT" ? "2026-11-03" : header.date,
                    dueDate: header.dueDate,
                    sentDate: null,
                    isOpen: op.isOpen,
                    openAmount: op.openAmount,
                    comments: null,
                    paymentComments: null,
                  },
                  actor,
                );
              }
              break;
            }
            case "deleteInvoiceAndUndo": {
              const outcome = await deleteInvoiceHeader(db, invoices[op.invoice], actor);
              if (outcome.status === "deleted" && op.undo) {
                const main = await mainRecordOfTransaction(db, outcome.transactionId);
                if (main) await restoreDeletedRecord(db, main.id);
              }
              break;
            }
            case "addBillableFee":
              await db.insert(schema.fees).values({
                personId,
                date: "2026-11-05",
                text: "Probebeitrag",
                amount: op.amount,
                openAmount: op.amount,
                sendInvoice: !op.direct,
                kind: "OTHER",
              });
              break;
            case "directDebitRun":
              await directDebitRun(op.redeliver, op.then, cookie);
              break;
            case "invoiceRun": {
              // Bills every billable fee of the club; a redelivery must change nothing.
              const preview = await db.$count(schema.fees, eq(schema.fees.isInvoiced, false));
              if (preview === 0) break;
              const run = await startControlledInvoiceRun(undefined, op.draftsOnly);
              await deliver(op.redeliver ? [...run.messages, ...run.messages] : run.messages);
              break;
            }
            case "cancelInvoice":
              await cancelInvoice(db, invoices[op.invoice], actor, "2026-11-21");
              if (op.twice) await cancelInvoice(db, invoices[op.invoice], actor, "2026-11-22");
              break;
            case "creditNote": {
              // A Gutschrift at the case of the invoice's first row; the same form sent twice.
              const [first] = rowsOfRun.filter((row) => row.invoiceId === invoices[op.invoice]);
              const input = { text: "Gutschrift", amount: op.amount, taxCase: first?.taxCase ?? "STANDARD", key: crypto.randomUUID() };
              await issueCreditNote(db, invoices[op.invoice], input, actor, "2026-11-21");
              if (op.twice) await issueCreditNote(db, invoices[op.invoice], input, actor, "2026-11-22");
              break;
            }
            case "issueInvoice":
              await issueInvoice(db, invoices[op.invoice], actor, "2026-11-20");
              if (op.twice) await issueInvoice(db, invoices[op.invoice], actor, "2026-11-21");
              break;
            case "undoLastRun": {
              const run = await latestInvoiceRun(db);
              if (run) await undoInvoiceRun(db, run.id, actor);
              break;
            }
            case "molliePayment": {
              const open = await db
                .select()
                .from(schema.fees)
                .then((all) => all.filter((fee) => fee.personId === personId && fee.openAmount > 0));
              const fee = open[op.pick % Math.max(1, open.length)];
              if (fee) await payByMollie(fee.id, op.amount, op.calls);
              break;
            }
            case "reminderRun":
              await reminderRun(op.redeliver);
              break;
            case "reversePayment": {
              const entries = await db.select({ id: schema.payments.id }).from(schema.payments).where(eq(schema.payments.personId, personId));
              const entry = entries[op.pick % Math.max(1, entries.length)];
              if (entry) await postForm("/payments", cookie, { intent: "payment:reverse", id: entry.id });
              break;
            }
            case "refundCredit": {
              const [entry] = await db.select({ id: schema.payments.id }).from(schema.payments).where(eq(schema.payments.personId, personId)).limit(1);
              if (!entry) break;
              const form = {
                intent: "payment:refund",
                id: entry.id,
                amount: (op.cents / 100).toFixed(2).replace(".", ","),
                paidBy: "TRANSFER",
                paymentKey: crypto.randomUUID(),
              };
              await postForm("/payments", cookie, form);
              if (op.twice) await postForm("/payments", cookie, form);
              break;
            }
            case "useCredit": {
              const open = [
                ...(
                  await db
                    .select({ id: schema.invoiceHeaders.id })
                    .from(schema.invoiceHeaders)
                    .where(sql`person_id = ${personId} AND status = 'ISSUED' AND open_amount > 0`)
                ).map(({ id }) => ({ intent: "payment:creditInvoice", id })),
                ...(
                  await db
                    .select({ id: schema.fees.id })
                    .from(schema.fees)
                    .where(sql`person_id = ${personId} AND open_amount > 0 AND is_invoiced = 0`)
                ).map(({ id }) => ({
                  intent: "payment:creditFee",
                  id,
                })),
              ];
              const target = open[op.pick % Math.max(1, open.length)];
              if (target) await postForm("/payments", cookie, target);
              break;
            }
            case "pdf": {
              const issued = await db
                .select({ id: schema.invoiceHeaders.id })
                .from(schema.invoiceHeaders)
                .where(sql`person_id = ${personId} AND status = 'ISSUED'`);
              const target = issued[op.pick % Math.max(1, issued.length)];
              if (!target) break;
              await createInvoicePdf(env, db, target.id, actor, { renderer: renderer.get });
              if (op.again) await createInvoicePdf(env, db, target.id, actor, { renderer: renderer.get, replace: true });
              break;
            }
            case "bankPayment":
              await bankPayment(op.pick, op.delta, op.twice, step);
              break;
            case "editFee": {
              // Through the fee dialog's action: its rules apply, as for a treasurer.
              const fees = await db
                .select()
                .from(schema.fees)
                .then((all) => all.filter((fee) => fee.personId === personId));
              const fee = fees[op.pick % fees.length];
              await postForm("/fees", cookie, {
                intent: "fee:save",
                id: fee.id,
                rowVersion: fee.rowVersion,
                personId,
                date: "01.11.2026",
                text: fee.text,
                amount: (op.amount / 100).toFixed(2).replace(".", ","),
                isOpen: op.isOpen,
                paidBy: op.paidBy,
                paymentKey: crypto.randomUUID(),
              });
              break;
            }
          }
          await expectBooksHold(step);
        }
      }),
      { numRuns: 60, seed: 20261123 },
    );
    // The sequences did bill through the queue consumer and take runs back.
    expect(await db.$count(schema.invoiceHeaders, sql`job_id IS NOT NULL`)).toBeGreaterThan(0);
    expect(await db.$count(schema.jobs, sql`undone_on IS NOT NULL`)).toBeGreaterThan(0);
    // ... issued drafts and cancelled invoices by Stornorechnung.
    expect(await db.$count(schema.invoiceHeaders, sql`kind = 'STORNO'`)).toBeGreaterThan(0);
    expect(await db.$count(schema.molliePayments)).toBeGreaterThan(0);
    // ... and reminded, up to level 2 at least, with reminder fees.
    expect(await db.$count(schema.reminders, sql`level >= 2`)).toBeGreaterThan(0);
    expect(await db.$count(schema.fees, sql`kind = 'REMINDER'`)).toBeGreaterThan(0);
    // ... and undid, refunded and used credit through the journal.
    expect(await db.$count(schema.payments, sql`source = 'REVERSAL'`)).toBeGreaterThan(0);
    expect(await db.$count(schema.payments, sql`amount < 0 AND source <> 'REVERSAL'`)).toBeGreaterThan(0);
    // ... and took payments from the bank statement, reminder fees included.
    expect(await db.$count(schema.bankStatementEntries, sql`status = 'BOOKED'`)).toBeGreaterThan(0);
    // ... and rendered PDFs, kept with their SHA-256, and took payments in cash.
    expect(await db.$count(schema.invoiceHeaders, sql`person_id = ${personId} AND pdf_sha256 IS NOT NULL`)).toBeGreaterThan(0);
    expect(await db.$count(schema.payments, sql`method = 'CASH' AND person_id = ${personId}`)).toBeGreaterThan(0);
    // ... and collected by direct debit, runs cancelled and submitted.
    expect(await db.$count(schema.payments, sql`method = 'DIRECT_DEBIT' AND person_id = ${personId}`)).toBeGreaterThan(0);
    expect(await db.$count(schema.directDebitItems, sql`cancelled_on IS NOT NULL AND person_id = ${personId}`)).toBeGreaterThan(0);
    expect(await db.$count(schema.directDebitRuns, sql`status = 'SUBMITTED'`)).toBeGreaterThan(0);
    expect(await db.$count(schema.fees, sql`kind = 'REMINDER' AND open_amount < amount AND payment_comments LIKE 'Bank %'`)).toBeGreaterThan(0);
  }, 180_000);
});
