/**
 * Bulk runs on the queue (issue: Jahresbeiträge, Rechnungen schreiben, preview and undo). Started
 * from the Tasks screen's dialogs, run by the real queue consumer in workerd (the pool delivers the
 * messages the action sends); where a test must decide when and how often a message arrives, it
 * takes the messages from the start and hands them to the Worker's queue handler itself.
 */
import { env } from "cloudflare:test";
import { STALLED_RUNS_CRON } from "~/jobs/index.server";
import { STALLED_RUN_RESUMED } from "~/jobs/start.server";
import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb, runAtomically } from "~/db/client.server";
import * as schema from "~/db/schema";
import { todayInBerlin, addDaysToDate } from "~/lib/format";
import { previewInvoiceRun } from "~/models/invoice-runs.server";
import { activeJobs, ALREADY_RUNNING, listJobs, sliceSettledStatements } from "~/models/jobs.server";
import { isFollowed } from "~/lib/jobs";
import { fetchApp, fireCron, postForm, toastOf } from "../support/app";
import { deliver, newestJob, settled, startControlledInvoiceRun } from "../support/jobs";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const today = todayInBerlin();
const page = async (path: string) => (await (await fetchApp(path, { cookie: await loginCookie("admin") })).text()).replaceAll("<!-- -->", "");
const post = async (fields: Record<string, string | number>, who: "admin" | "finance" = "admin") => postForm("/tasks", await loginCookie(who), fields);

const jobOf = async (id: number) => (await db.select().from(schema.jobs).where(eq(schema.jobs.id, id)))[0];
const lastInvoiceNumber = async () => (await db.select().from(schema.configuration))[0].lastInvoiceNumber;

/** What a run wrote, per person: the rows' fees, lines and amounts, and the invoice totals. */
async function invoicesOfRun(jobId: number) {
  const rows = await db
    .select({
      personId: schema.invoiceHeaders.personId,
      invoiceNumber: schema.invoiceHeaders.invoiceNumber,
      createdByRun: sql<number>`${schema.invoiceHeaders.jobId} IS ${jobId}`,
      amount: schema.invoiceHeaders.amount,
      openAmount: schema.invoiceHeaders.openAmount,
      feeId: schema.invoiceRows.feeId,
      lineNumber: schema.invoiceRows.lineNumber,
      rowAmount: schema.invoiceRows.amount,
      text: schema.invoiceRows.text,
    })
    .from(schema.invoiceRows)
    .innerJoin(schema.invoiceHeaders, eq(schema.invoiceHeaders.id, schema.invoiceRows.invoiceId))
    .where(eq(schema.invoiceRows.jobId, jobId))
    .orderBy(schema.invoiceHeaders.personId, schema.invoiceRows.lineNumber);
  const byPerson = new Map<number, { amount: number; openAmount: number; createdByRun: boolean; rows: string[] }>();
  for (const row of rows) {
    const entry = byPerson.get(row.personId) ?? { amount: row.amount, openAmount: row.openAmount, createdByRun: row.createdByRun === 1, rows: [] };
    entry.rows.push(`${row.lineNumber}: Posten ${row.feeId} ${row.text} ${row.rowAmount}`);
    byPerson.set(row.personId, entry);
  }
  const numbers = [...new Set(rows.filter((row) => row.invoiceNumber !== null).map((row) => row.invoiceNumber!))].sort((a, b) => a - b);
  return { byPerson: Object.fromEntries(byPerson), numbers };
}

/** The books after a run: every fee flagged for an invoice is invoiced, on exactly one row. */
async function expectEveryFeeBilledOnce() {
  const [counts] = await db
    .select({
      unbilled: sql<number>`sum(send_invoice = 1 AND is_invoiced = 0)`,
      onTwoRows: sql<number>`(SELECT count(*) FROM (SELECT fee_id FROM invoice_rows WHERE fee_id IS NOT NULL AND fee_released = 0 GROUP BY fee_id HAVING count(*) > 1))`,
      invoicedWithoutRow: sql<number>`sum(is_invoiced = 1 AND id NOT IN (SELECT fee_id FROM invoice_rows WHERE fee_id IS NOT NULL))`,
    })
    .from(schema.fees);
  expect(counts).toEqual({ unbilled: 0, onTwoRows: 0, invoicedWithoutRow: 0 });
}

async function expectHeadersAreTheirRows() {
  const wrong = await env.DB.prepare(
    "SELECT invoice_number FROM invoice_headers h WHERE amount <> (SELECT coalesce(sum(amount), 0) FROM invoice_rows WHERE invoice_id = h.id) OR open_amount > max(amount, 0) OR open_amount < 0",
  ).all();
  expect(wrong.results).toEqual([]);
}

const undo = async (jobId: number) => post({ intent: "task:undo", id: jobId });

/** Ten minutes without progress: started, settled and resumed (if ever) that long ago. */
async function makeStalled(jobId: number) {
  const past = new Date(Date.now() - 10 * 60_000).toISOString();
  await env.DB.batch([
    env.DB.prepare("UPDATE jobs SET started_on = ?, resumed_on = CASE WHEN resumed_on IS NULL THEN NULL ELSE ? END WHERE id = ?").bind(past, past, jobId),
    env.DB.prepare("UPDATE job_slices SET settled_on = ? WHERE job_id = ?").bind(past, jobId),
  ]);
}

/** A database trigger that makes billing one person fail (a real SQL error inside the batch). */
const failBillingOf = (personId: number) =>
  env.DB.exec(
    `CREATE TRIGGER fail_billing BEFORE INSERT ON invoice_rows WHEN (SELECT person_id FROM invoice_headers WHERE id = NEW.invoice_id) = ${personId} BEGIN SELECT RAISE(ABORT, 'Testfehler'); END`,
  );
const healBilling = () => env.DB.exec("DROP TRIGGER IF EXISTS fail_billing");

beforeAll(async () => {
  await loadDemoData();
});

describe("Rechnungen schreiben", () => {
  let firstRun: number;
  let before: Awaited<ReturnType<typeof previewInvoiceRun>>;
  /** The demo data's draft (issue 30): the run appends its person's new fees to it. */
  const demoDraft = async () =>
    (await env.DB.prepare("SELECT * FROM invoice_headers WHERE status = 'DRAFT' AND job_id IS NULL").first<{ id: number; amount: number }>())!;
  const draftsOnly = true;

  it("shows before the run what it will do: fees, people, new and extended invoices, numbers, dates and the total", async () => {
    before = await previewInvoiceRun(db, today);
    expect(before.problem).toBeNull();
    expect(before.fees).toBeGreaterThan(20);
    // The demo data's draft gets its person's new fees appended.
    expect(before.extendedInvoices).toBe(1);
    expect(before.newInvoices).toBe(before.people - 1);
    // Issued, every person's invoice takes a number: the new ones and the extended draft.
    expect(before.firstNumber).toBe((await lastInvoiceNumber()) + 1);
    expect(before.lastNumber).toBe(before.firstNumber + before.people - 1);
    const html = await page("/tasks?dialog=task-invoices");
    // The server sends the dialog open: a native <dialog>, a page section without JavaScript.
    expect(html).toContain('<dialog open=""');
    expect(html).toContain(`${before.fees} offene Posten`);
    expect(html).toContain(`${before.firstNumber} bis ${before.lastNumber}`);
    expect(html).toContain(`${before.newInvoices} Rechnungen`);
    expect(html).toContain('name="draftsOnly"');
  });

  it("'Nur Entwürfe anlegen': bills every billable fee exactly once through the real queue onto drafts, the demo's draft extended, no number taken", async () => {
    const draft = await demoDraft();
    const draftRows = (await env.DB.prepare("SELECT count(*) AS n FROM invoice_rows WHERE invoice_id = ?").bind(draft.id).first<{ n: number }>())!.n;
    const counter = await lastInvoiceNumber();
    const response = await post({ intent: "task:invoices", draftsOnly: "on" });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toEqual({ type: "success", message: "Rechnungen schreiben gestartet: working ..." });
    const job = await settled((await newestJob()).id);
    firstRun = job.id;
    expect(job).toMatchObject({ type: "INVOICES", status: "DONE", total: before.people, done: before.people, failed: 0, createdBy: "Anna Admin" });
    expect(job.message).toBe(`${before.newInvoices} Rechnungen eingefügt, 1 offene Rechnung ergänzt`);
    await expectEveryFeeBilledOnce();
    await expectHeadersAreTheirRows();

    const { byPerson, numbers } = await invoicesOfRun(job.id);
    expect(Object.keys(byPerson)).toHaveLength(before.people);
    expect(Object.values(byPerson).reduce((sum, invoice) => sum + invoice.rows.length, 0)).toBe(before.fees);
    expect(numbers).toEqual([]);
    expect(await lastInvoiceNumber()).toBe(counter);
    const created = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.jobId, job.id));
    for (const header of created) {
      expect(header).toMatchObject({ status: "DRAFT", invoiceNumber: null, date: today, dueDate: addDaysToDate(today, 30), sentDate: null, openAmount: 0 });
    }
    // The draft keeps its rows and gets the new ones numbered on after them.
    const lines = (
      await env.DB.prepare("SELECT line_number FROM invoice_rows WHERE invoice_id = ? ORDER BY line_number").bind(draft.id).all<{ line_number: number }>()
    ).results;
    expect(lines.length).toBeGreaterThan(draftRows);
    expect(lines.map((line) => line.line_number)).toEqual(lines.map((_, index) => index + 1));

    // Nothing is left to bill: a second start is refused with the spec's words and starts no run.
    const again = await post({ intent: "task:invoices" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Keine Offenen Posten zu berechnen");
    expect((await newestJob()).id).toBe(job.id);
  });

  it("the Tasks screen shows the run, its result and its history; the undo names what goes", async () => {
    const html = await page("/tasks");
    expect(html).toContain("<h1");
    expect(html).toContain(`${before.newInvoices} Rechnungen eingefügt`);
    expect(html).toContain(`${before.people} von ${before.people}`);
    expect(html).toContain("Letzten Lauf rückgängig machen");
    expect(html).toContain("Verlauf");
    const dialog = await page(`/tasks?dialog=task-undo&dialogId=${firstRun}`);
    expect(dialog).toContain("Rechnungslauf rückgängig machen");
    expect(dialog).toContain(`${before.newInvoices} neue Rechnungsentwürfe werden gelöscht.`);
    expect(dialog).toContain("1 Entwurf verliert die angefügten Zeilen.");
  });

  it("undoes a run of drafts in one step: its drafts and rows go, the extended draft is as before, the fees are billable again", async () => {
    const draft = await demoDraft();
    const counter = await lastInvoiceNumber();
    const response = await undo(firstRun);
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe(
      `Rechnungslauf rückgängig gemacht: ${before.newInvoices} Rechnungen gelöscht, ${before.fees} offene Posten wieder abzurechnen`,
    );
    expect(await db.$count(schema.invoiceHeaders, eq(schema.invoiceHeaders.jobId, firstRun))).toBe(0);
    expect(await db.$count(schema.invoiceRows, eq(schema.invoiceRows.jobId, firstRun))).toBe(0);
    expect(await lastInvoiceNumber()).toBe(counter);
    expect((await demoDraft()).amount).toBeLessThan(draft.amount);
    await expectHeadersAreTheirRows();
    const after = await previewInvoiceRun(db, today);
    expect(after).toEqual(before);
    expect((await jobOf(firstRun)).undoneBy).toBe("Anna Admin");
    // Undone once is undone: a second post changes nothing.
    const twice = await undo(firstRun);
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain("Dieser Lauf wurde bereits rückgängig gemacht.");
  });

  it("a consumer failing at any message and retried ends with the same invoices as an undisturbed run", async () => {
    const baseline = await startControlledInvoiceRun(today, draftsOnly);
    await deliver(baseline.messages);
    const expected = await invoicesOfRun(baseline.jobId);
    expect((await undo(baseline.jobId)).status).toBe(302);
    expect(baseline.messages.length).toBeGreaterThan(1);

    for (let failing = 0; failing < baseline.messages.length; failing++) {
      const run = await startControlledInvoiceRun(today, draftsOnly);
      const victim = (run.messages[failing].body as { items: number[] }).items[0];
      await failBillingOf(victim);
      const first = await deliver(run.messages);
      await healBilling();
      // Only the failing message is retried; the other people of its slice went through on their own.
      expect(first.retried, `Nachricht ${failing}`).toEqual([failing]);
      const failure = await env.DB.prepare("SELECT * FROM job_failures WHERE job_id = ?")
        .bind(run.jobId)
        .all<{ item_id: number; attempts: number; message: string }>();
      expect(failure.results).toEqual([expect.objectContaining({ item_id: victim, attempts: 1 })]);
      expect((await jobOf(run.jobId)).status).toBe("RUNNING");

      expect((await deliver([run.messages[failing]])).retried).toEqual([]);
      const job = await jobOf(run.jobId);
      expect(job).toMatchObject({ status: "DONE", failed: 0, done: before.people });
      const actual = await invoicesOfRun(run.jobId);
      expect(actual.byPerson).toEqual(expected.byPerson);
      expect(await db.$count(schema.jobFailures, eq(schema.jobFailures.jobId, run.jobId))).toBe(0);
      await expectEveryFeeBilledOnce();
      expect((await undo(run.jobId)).status, `Rückgängig nach Nachricht ${failing}`).toBe(302);
    }
  }, 120_000);

  it("a message that failed every retry reaches the dead-letter queue: the run is marked failed and names who was not billed", async () => {
    const run = await startControlledInvoiceRun(today, draftsOnly);
    const victim = (run.messages[0].body as { items: number[] }).items[0];
    const [victimName] = await db.select({ name: schema.people.fullName }).from(schema.people).where(eq(schema.people.id, victim));
    await failBillingOf(victim);
    await deliver(run.messages);
    await deliver([run.messages[0]], "wuff-jobs-dlq");
    await healBilling();
    const job = await jobOf(run.jobId);
    expect(job).toMatchObject({ status: "FAILED", failed: 1, done: before.people - 1 });
    expect(job.message).toMatch(new RegExp(`Rechnungen eingefügt.*\\. 1 fehlgeschlagen: ${victimName.name} \\(`));
    // The person's fees stay billable for the next run.
    expect((await previewInvoiceRun(db, today)).people).toBe(1);
    expect(await page("/tasks")).toContain("fehlgeschlagen");
    expect((await undo(run.jobId)).status).toBe(302);
  });

  it("a run whose messages were lost (the app stopped while it ran) is resumed: only its open slices go to the queue again", async () => {
    const run = await startControlledInvoiceRun(today, draftsOnly);
    await deliver([run.messages[0]]);
    expect((await jobOf(run.jobId)).status).toBe("RUNNING");
    const early = await post({ intent: "task:resume", id: run.jobId });
    expect(early.status).toBe(409);
    expect(await early.text()).toContain("Dieser Lauf kommt noch voran. Bitte warten.");
    // Started ten minutes ago, but a slice was settled just now: it is progressing (the Tasks
    // screen reads the run's own slices, not those whose id happens to be the run's).
    const past = new Date(Date.now() - 10 * 60_000).toISOString();
    await env.DB.prepare("UPDATE jobs SET started_on = ? WHERE id = ?").bind(past, run.jobId).run();
    const settledNow = "2099-01-01T00:00:00.000Z";
    await env.DB.prepare("UPDATE job_slices SET settled_on = ? WHERE job_id = ?").bind(settledNow, run.jobId).run();
    const listed = (await listJobs(db, { page: 1, pageSize: 100 })).rows.find((job) => job.id === run.jobId);
    expect(listed?.lastProgressOn).toBe(settledNow);
    // The cron's look at the runs under way (one table, no join) reads the same.
    expect((await activeJobs(db)).find((job) => job.id === run.jobId)?.lastProgressOn).toBe(settledNow);
    expect(await page("/tasks")).not.toContain("Lauf fortsetzen");
    // Ten minutes without progress.
    await env.DB.batch([
      env.DB.prepare("UPDATE jobs SET started_on = ? WHERE id = ?").bind(past, run.jobId),
      env.DB.prepare("UPDATE job_slices SET settled_on = ? WHERE job_id = ?").bind(past, run.jobId),
    ]);
    expect(await page("/tasks")).toContain("Lauf fortsetzen");
    const resumed = await post({ intent: "task:resume", id: run.jobId });
    expect(resumed.status).toBe(302);
    expect(toastOf(resumed)?.message).toBe(`Lauf fortgesetzt: ${run.messages.length - 1} Teile wieder in die Warteschlange gestellt`);
    const job = await settled(run.jobId);
    expect(job).toMatchObject({ status: "DONE", done: before.people, failed: 0 });
    await expectEveryFeeBilledOnce();
    const finished = await post({ intent: "task:resume", id: run.jobId });
    expect(await finished.text()).toContain("Dieser Lauf ist schon beendet.");
    expect((await undo(run.jobId)).status).toBe(302);
  });

  it("a new start while the run of its kind stalled resumes that run instead of answering only 409", async () => {
    const run = await startControlledInvoiceRun(today, draftsOnly);
    await deliver([run.messages[0]]);
    await makeStalled(run.jobId);
    const response = await post({ intent: "task:invoices", draftsOnly: "on" });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain(STALLED_RUN_RESUMED);
    const job = await settled(run.jobId);
    expect(job).toMatchObject({ status: "DONE", done: before.people, resumes: 1, resumedBy: null });
    await expectEveryFeeBilledOnce();
    // The daily trigger also looks for stalled runs; with none it changes nothing.
    await fireCron("0 6 * * *");
    expect((await jobOf(run.jobId)).resumes).toBe(1);
    expect((await undo(run.jobId)).status).toBe(302);
    // The next start is a new run.
    expect((await post({ intent: "task:invoices", draftsOnly: "on" })).status).toBe(302);
    const next = await settled((await newestJob()).id);
    expect(next.id).not.toBe(run.jobId);
    expect((await undo(next.id)).status).toBe(302);
  });

  it("a run of drafts cannot be undone once a draft of it was changed, nor when it is not the last run", async () => {
    const run = await startControlledInvoiceRun(today, draftsOnly);
    await deliver(run.messages);
    const [invoice] = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.jobId, run.jobId)).limit(1);
    const later = new Date(Date.now() + 60_000).toISOString();
    await env.DB.prepare("UPDATE invoice_headers SET comments = 'geprüft', last_modified_on = ? WHERE id = ?").bind(later, invoice.id).run();
    const refused = await undo(run.jobId);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("1 Rechnungsentwurf dieses Laufs wurde inzwischen bearbeitet.");
    expect(await db.$count(schema.invoiceHeaders, eq(schema.invoiceHeaders.jobId, run.jobId))).toBeGreaterThan(0);
    expect(await page("/tasks")).toContain("Rückgängig machen nicht mehr möglich");
    await env.DB.prepare("UPDATE invoice_headers SET comments = NULL, last_modified_on = NULL WHERE id = ?").bind(invoice.id).run();
    // An older run is not the last one.
    expect(await (await undo(firstRun)).text()).toContain("Dieser Lauf wurde bereits rückgängig gemacht.");
    expect((await undo(run.jobId)).status).toBe(302);
  });

  // The runs below issue their invoices: they stay (an issued invoice is never deleted, issue 30).

  it("the stalled run resumed without a person: the cron sends its open slices again, bills and numbers nothing twice, and the Tasks screen says so", async () => {
    const run = await startControlledInvoiceRun();
    // The worker was killed after the first slice: the other messages are lost.
    await deliver([run.messages[0]]);
    const counterAfterFirst = await lastInvoiceNumber();
    // A cron tick while the run still progresses leaves it alone.
    await fireCron(STALLED_RUNS_CRON);
    expect(await jobOf(run.jobId)).toMatchObject({ status: "RUNNING", resumes: 0, resumedOn: null });
    await makeStalled(run.jobId);
    await fireCron(STALLED_RUNS_CRON);
    const job = await settled(run.jobId);
    expect(job).toMatchObject({ status: "DONE", done: before.people, failed: 0, resumes: 1, resumedBy: null });
    expect(job.resumedOn).not.toBeNull();
    await expectEveryFeeBilledOnce();
    await expectHeadersAreTheirRows();
    const billed = await invoicesOfRun(run.jobId);
    // One number per person, without gaps from where the counter stood, across the resumption.
    expect(billed.numbers).toEqual(Array.from({ length: before.people }, (_, index) => before.firstNumber + index));
    expect(billed.numbers.filter((number) => number > counterAfterFirst)).toEqual(
      Array.from({ length: (await lastInvoiceNumber()) - counterAfterFirst }, (_, index) => counterAfterFirst + 1 + index),
    );
    // The lost messages arrive after all (the queue's own retry): nothing twice.
    const counter = await lastInvoiceNumber();
    await deliver([...run.messages, ...run.messages]);
    await Promise.all([deliver(run.messages), deliver(run.messages)]);
    expect(await invoicesOfRun(run.jobId)).toEqual(billed);
    expect(await lastInvoiceNumber()).toBe(counter);
    // The Tasks screen says that the run was resumed automatically; a finished run is not resumed again.
    const tasks = await page("/tasks");
    expect(tasks).toContain("Der Lauf kam nicht voran und wurde am");
    expect(tasks).toContain("automatisch fortgesetzt: Es wird nur erledigt, was noch fehlte.");
    await fireCron(STALLED_RUNS_CRON);
    expect((await jobOf(run.jobId)).resumes).toBe(1);
  });

  it("a run that issued its invoices is not undone: they are issued and stay, with their numbers, dates and recipients", async () => {
    const [run] = await db
      .select()
      .from(schema.jobs)
      .where(eq(schema.jobs.type, "INVOICES"))
      .orderBy(sql`id DESC`)
      .limit(1);
    const issued = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.jobId, run.id));
    expect(issued.length).toBe(before.newInvoices);
    for (const header of issued) expect(header).toMatchObject({ status: "ISSUED", date: today, issuedBy: "Anna Admin" });
    // Open is the amount less what was paid on the billed fees before (issue 30: it goes over to the invoice).
    const paidBefore = async (invoiceId: number) =>
      (await env.DB.prepare("SELECT coalesce(sum(amount), 0) AS n FROM payment_allocations WHERE invoice_id = ?").bind(invoiceId).first<{ n: number }>())!.n;
    for (const header of issued) {
      expect(header.issuedLastName).not.toBeNull();
      expect(header.openAmount).toBe(header.amount - (await paidBefore(header.id)));
    }
    expect(issued.some((header) => header.openAmount < header.amount)).toBe(true);
    const refused = await undo(run.id);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("ausgestellt: Ausgestellte Rechnungen werden nicht gelöscht, nur storniert.");
    expect(await db.$count(schema.invoiceHeaders, eq(schema.invoiceHeaders.jobId, run.id))).toBe(before.newInvoices);
  });
});

describe("Jahresbeiträge", () => {
  const annualFeesOf = (year: number) => db.$count(schema.fees, sql`kind = 'ANNUAL' AND period_year = ${year}`);

  it("charges every member of the year with an annual fee at their tier's price, adds the Aufnahmegebühr for new members once, and a second run adds nothing", async () => {
    // A member who joined this year and has no Aufnahmegebühr yet.
    const [newcomer] = await db
      .insert(schema.people)
      .values({ firstName: "Nora", lastName: "Neumitglied", isMember: true, memberSince: `${today.slice(0, 4)}-03-01`, memberTypeId: 3 })
      .returning({ id: schema.people.id });
    // A newcomer who pays by direct debit (an active SEPA mandate) and one whose mandate ended.
    const [debtor, formerDebtor] = await db
      .insert(schema.people)
      .values([
        { firstName: "Lena", lastName: "Lastschrift", isMember: true, memberSince: `${today.slice(0, 4)}-03-01`, memberTypeId: 3 },
        { firstName: "Erik", lastName: "Exmandat", isMember: true, memberSince: `${today.slice(0, 4)}-03-01`, memberTypeId: 3 },
      ])
      .returning({ id: schema.people.id });
    await db.insert(schema.sepaMandates).values([
      { personId: debtor.id, accountHolder: "Lena Lastschrift", iban: "DE02120300000000202051", reference: `WUFF-${debtor.id}-1`, mandateDate: "2026-01-10" },
      {
        personId: formerDebtor.id,
        accountHolder: "Erik Exmandat",
        iban: "DE02120300000000202051",
        reference: `WUFF-${formerDebtor.id}-1`,
        mandateDate: "2026-01-10",
        isActive: false,
      },
    ]);
    const year = Number(today.slice(0, 4)) + 1;
    const html = await page(`/tasks?dialog=task-annualFees&dialogId=${year}`);
    expect(html).toContain(`Jahresbeiträge ${year} einstellen`);
    const response = await post({ intent: "task:annualFees", year });
    expect(toastOf(response)).toEqual({ type: "success", message: `Jahresbeiträge ${year} gestartet: working ...` });
    const job = await settled((await newestJob()).id);
    const charged = await annualFeesOf(year);
    expect(charged).toBe(job.total);
    expect(job.message).toBe(`${charged + 3} offene Posten für Jahresbeiträge eingestellt`);
    const newcomerFees = await db.select().from(schema.fees).where(eq(schema.fees.personId, newcomer.id)).orderBy(schema.fees.kind);
    expect(newcomerFees.map((fee) => [fee.kind, fee.text, fee.amount, fee.openAmount, fee.sendInvoice, fee.isInvoiced])).toEqual([
      ["ANNUAL", `Jahresbeitrag ${year}`, 3_000, 3_000, true, false],
      ["ENROLLMENT", "Aufnahmegebühr", 2_500, 2_500, true, false],
    ]);
    // With an active mandate both are collected directly (sendInvoice off) by the Lastschriftlauf.
    const billing = async (personId: number) =>
      (await db.select().from(schema.fees).where(eq(schema.fees.personId, personId)).orderBy(schema.fees.kind)).map((fee) => [fee.kind, fee.sendInvoice]);
    expect(await billing(debtor.id)).toEqual([
      ["ANNUAL", false],
      ["ENROLLMENT", false],
    ]);
    expect(await billing(formerDebtor.id)).toEqual([
      ["ANNUAL", true],
      ["ENROLLMENT", true],
    ]);
    // Each fee at the price of its member type's tier.
    const wrongPrice = await env.DB.prepare(
      `SELECT count(*) AS n FROM fees f JOIN people p ON p.id = f.person_id JOIN member_types m ON m.id = p.member_type_id, configuration c
       WHERE f.kind = 'ANNUAL' AND f.period_year = ? AND f.amount <> CASE m.annual_fee_tier WHEN 'FULL' THEN c.club_membership_price_full WHEN 'REDUCED1' THEN c.club_membership_price_reduced1 ELSE c.club_membership_price_reduced2 END`,
    )
      .bind(year)
      .first<{ n: number }>();
    expect(wrongPrice!.n).toBe(0);

    const second = await post({ intent: "task:annualFees", year });
    expect(second.status).toBe(302);
    const again = await settled((await newestJob()).id);
    expect(again.id).toBeGreaterThan(job.id);
    expect(again.message).toBe("0 offene Posten für Jahresbeiträge eingestellt");
    expect(await annualFeesOf(year)).toBe(charged);
    expect(await db.$count(schema.fees, sql`kind = 'ENROLLMENT' AND person_id = ${newcomer.id}`)).toBe(1);
  });

  it("refuses to start without the price a member type needs, or for a year not offered, and changes nothing", async () => {
    const year = Number(today.slice(0, 4)) - 1;
    await env.DB.prepare("UPDATE configuration SET club_membership_price_reduced2 = 0").run();
    const jobs = await db.$count(schema.jobs);
    const fees = await db.$count(schema.fees);
    const refused = await post({ intent: "task:annualFees", year });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("In den Einstellungen fehlt „Jahresbeitrag (Reduziert 2)“: Bitte erst den Betrag eintragen.");
    expect(await page(`/tasks?dialog=task-annualFees&dialogId=${year}`)).toContain("In den Einstellungen fehlt");
    await env.DB.prepare("UPDATE configuration SET club_membership_price_reduced2 = 1500").run();
    for (const bad of ["1999", "abc", "", "2026.5"]) {
      const response = await post({ intent: "task:annualFees", year: bad });
      expect(response.status, bad).toBe(409);
      expect(await response.text()).toContain("Bitte ein Beitragsjahr wählen");
    }
    expect(await db.$count(schema.jobs)).toBe(jobs);
    expect(await db.$count(schema.fees)).toBe(fees);
  });
});

describe("a finished run's result", () => {
  it("no screen sees a finished run with its start message: finishing clears it, and the screens follow the run until the result is written", async () => {
    const [job] = await db
      .insert(schema.jobs)
      .values({ type: "MAILSHOT", status: "RUNNING", total: 1, message: "Mails werden vorbereitet ...", items: "[1]" })
      .returning();
    await runAtomically(db, sliceSettledStatements(job.id, 0, [1], new Date("2026-11-26T10:00:00Z")));
    const [settled] = await db.select().from(schema.jobs).where(eq(schema.jobs.id, job.id));
    expect(settled).toMatchObject({ status: "DONE", done: 1, message: null, finishedOn: "2026-11-26T10:00:00.000Z" });
    expect(isFollowed(settled, new Date("2026-11-26T10:00:01Z"))).toBe(true);
    // Not for ever: a run whose result never comes is left after two minutes.
    expect(isFollowed(settled, new Date("2026-11-26T10:02:01Z"))).toBe(false);
    // Once the result is written, the screen stops following; a repeated settlement keeps it.
    await db.update(schema.jobs).set({ message: "Fertig!" }).where(eq(schema.jobs.id, job.id));
    await runAtomically(db, sliceSettledStatements(job.id, 0, [1], new Date("2026-11-26T10:00:02Z")));
    const [finished] = await db.select().from(schema.jobs).where(eq(schema.jobs.id, job.id));
    expect(finished.message).toBe("Fertig!");
    expect(isFollowed(finished, new Date("2026-11-26T10:00:03Z"))).toBe(false);
    expect(isFollowed({ ...finished, status: "RUNNING" }, new Date("2026-11-26T10:00:03Z"))).toBe(true);
  });
});

describe("guards", () => {
  it("runs one run of a kind at a time", async () => {
    await env.DB.prepare(
      "UPDATE fees SET is_invoiced = 0 WHERE id = (SELECT min(id) FROM fees WHERE send_invoice = 1 AND is_invoiced = 1 AND id NOT IN (SELECT fee_id FROM invoice_rows WHERE fee_id IS NOT NULL))",
    ).run();
    const [blocking] = await db.insert(schema.jobs).values({ type: "INVOICES", status: "RUNNING", total: 1 }).returning();
    const response = await post({ intent: "task:invoices" });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain(ALREADY_RUNNING);
    expect(await page("/tasks")).toContain("Rechnungen werden geschrieben …");
    await db.update(schema.jobs).set({ status: "FAILED" }).where(eq(schema.jobs.id, blocking.id));
  });

  it("'Lauf fortsetzen' is for the roles that start the run, checked on the server: FINANCE resumes a Mahnlauf and a Lastschriftlauf, not an ADMIN run", async () => {
    const past = new Date(Date.now() - 10 * 60_000).toISOString();
    const stalled = async (type: "REMINDERS" | "DIRECT_DEBIT" | "INVOICES") =>
      (await db.insert(schema.jobs).values({ type, status: "RUNNING", total: 0, items: "[]", startedOn: past, createdBy: "Fritz Finanz" }).returning())[0];
    const finance = await loginCookie("finance");
    try {
      const reminders = await stalled("REMINDERS");
      const debits = await stalled("DIRECT_DEBIT");
      const invoices = await stalled("INVOICES");
      // The screens offer the button with the intent of the run's own dialog.
      const remindersPage = await (await fetchApp("/reminders", { cookie: finance })).text();
      expect(remindersPage).toContain("Lauf fortsetzen");
      expect(remindersPage).toContain('value="reminderRun:resume"');
      // FINANCE may not post the Tasks dialog's resume, nor resume another kind through its dialog.
      const refused = await postForm("/reminders", finance, { intent: "task:resume", id: reminders.id });
      expect(refused.status).toBe(302);
      expect(refused.headers.get("Location")).toBe("/");
      const foreign = await postForm("/reminders", finance, { intent: "reminderRun:resume", id: invoices.id });
      expect(foreign.status).toBe(404);
      expect((await jobOf(invoices.id)).resumes).toBe(0);
      for (const [path, intent, job] of [
        ["/reminders", "reminderRun:resume", reminders],
        ["/directdebits", "directDebit:resume", debits],
      ] as const) {
        const response = await postForm(path, finance, { intent, id: job.id });
        expect(response.status, path).toBe(302);
        expect(toastOf(response)?.message).toBe("Lauf fortgesetzt: 0 Teile wieder in die Warteschlange gestellt");
        expect(await jobOf(job.id)).toMatchObject({ resumes: 1, resumedBy: "Fritz Finanz" });
      }
      expect(await (await fetchApp("/reminders", { cookie: finance })).text()).toContain("von Fritz Finanz fortgesetzt");
      // ADMIN resumes the runs of Tasks.
      expect((await post({ intent: "task:resume", id: invoices.id })).status).toBe(302);
      expect((await jobOf(invoices.id)).resumedBy).toBe("Anna Admin");
    } finally {
      await env.DB.prepare("UPDATE jobs SET status = 'FAILED' WHERE status IN ('QUEUED', 'RUNNING')").run();
    }
  });

  it("only ADMIN starts or undoes runs; hand-made posts with bad ids get a German answer", async () => {
    const jobsBefore = await db.$count(schema.jobs);
    for (const intent of ["task:invoices", "task:annualFees", "task:undo"]) {
      const response = await post({ intent, year: 2026, id: 1 }, "finance");
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
    }
    for (const id of ["abc", "-1", "999999", ""]) {
      const response = await post({ intent: "task:undo", id });
      expect([404, 409], id).toContain(response.status);
      expect(await response.text()).toMatch(/Der Datensatz existiert nicht mehr|Diesen Lauf gibt es nicht/);
    }
    const annual = await db
      .select()
      .from(schema.jobs)
      .where(inArray(schema.jobs.type, ["ANNUAL_FEES"]))
      .limit(1);
    expect(await (await undo(annual[0].id)).text()).toContain("Diesen Lauf gibt es nicht.");
    expect(await db.$count(schema.jobs)).toBe(jobsBefore);
  });
});
