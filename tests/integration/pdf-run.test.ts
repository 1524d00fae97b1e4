/**
 * The bulk run 'PDFs erzeugen' (issue 13 item 2): every invoice without a PDF gets one, rendered in
 * one browser session per queue batch and stored in R2; the messages 'Pdfs werden vorbereitet ...',
 * 'Pdf für Rechnung {x} wurde erzeugt' and 'Fertig! Es wurden {n} Pdfs erzeugt'; a second run makes
 * nothing, and a redelivered slice renders nothing twice. The test delivers the queue messages
 * itself (tests/support/jobs.ts) to decide when and how often they arrive.
 */
import { env } from "cloudflare:test";
import { and, eq, isNull, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { startRun } from "~/jobs/start.server";
import { invoicesWithoutPdf } from "~/models/invoice-pdfs.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { deliver, type Sent } from "../support/jobs";
import { loadDemoData } from "../support/seed";
import { DEMO_USERS, loginCookie } from "../support/sessions";
import { ISSUED, issueTestInvoice } from "../support/invoices";

const db = createDb(env.DB);
const jobOf = async (id: number) => (await db.select().from(schema.jobs).where(eq(schema.jobs.id, id)))[0];
const headers = () =>
  db
    .select({ id: schema.invoiceHeaders.id, pdfFilePath: schema.invoiceHeaders.pdfFilePath, rowVersion: schema.invoiceHeaders.rowVersion })
    .from(schema.invoiceHeaders)
    // Only an issued invoice gets a PDF (issue 30): drafts are left out.
    .where(eq(schema.invoiceHeaders.status, "ISSUED"))
    .orderBy(schema.invoiceHeaders.id);

/** What R2 holds: each object's key, etag and upload time. */
async function storedFiles() {
  const listed = await env.INVOICES.list({ prefix: "Rechnung_", limit: 1000 });
  return Object.fromEntries(listed.objects.map((object) => [object.key, `${object.etag} ${object.uploaded.toISOString()}`]));
}

/** A PDF run whose messages the test delivers itself. */
async function startControlledPdfRun() {
  const messages: Sent = [];
  const collecting = { JOBS: { sendBatch: async (batch: Sent) => void messages.push(...batch) } } as unknown as Pick<Env, "JOBS">;
  const outcome = await startRun(
    collecting,
    db,
    {
      type: "PDFS",
      items: await invoicesWithoutPdf(db),
      params: {},
      emptyMessage: "Fertig! Es wurden 0 Pdfs erzeugt",
      startMessage: "Pdfs werden vorbereitet ...",
    },
    DEMO_USERS.admin,
  );
  if (outcome.status !== "started") throw new Error(`Lauf nicht gestartet: ${outcome.status}`);
  return { job: outcome.job, messages };
}

beforeAll(async () => {
  await loadDemoData();
  // 31 invoices in all (the demo's 11 issued ones and 20 more): two slices of 20 and 11.
  const [{ last }] = await db.select({ last: sql<number>`max(invoice_number)` }).from(schema.invoiceHeaders);
  for (let index = 1; index <= 20; index++) {
    const [header] = await db
      .insert(schema.invoiceHeaders)
      .values({
        personId: index + 10,
        date: "2026-11-03",
        dueDate: "2026-12-03",
        amount: 4_250 + index,
        openAmount: 0,
      })
      .returning();
    await db.insert(schema.invoiceRows).values({ invoiceId: header.id, lineNumber: 1, text: "Platzmiete Agility", amount: 4_250 + index });
    await issueTestInvoice(header.id, last + index);
  }
});

describe("PDFs erzeugen", () => {
  it("the confirmation says how many invoices have no PDF; only ADMIN may start it", async () => {
    const page = await (await fetchApp("/tasks?dialog=pdfRun-start", { cookie: await loginCookie("admin") })).text();
    expect(page.replaceAll("<!-- -->", "")).toContain("31 Rechnungen haben noch kein PDF (von 31)");
    for (const who of ["finance", "staff"] as const) {
      const response = await postForm("/tasks", await loginCookie(who), { intent: "pdfRun:start" });
      expect(response.status, who).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
      const fromInvoices = await postForm("/invoices", await loginCookie(who), { intent: "pdfRun:start" });
      expect(fromInvoices.headers.get("Location"), who).toBe("/");
    }
    expect(await db.$count(schema.jobs)).toBe(0);
  });

  it("renders every invoice without a PDF, with the spec's messages at the start, per invoice and at the end", async () => {
    const { job, messages } = await startControlledPdfRun();
    expect(job.message).toBe("Pdfs werden vorbereitet ...");
    expect(messages).toHaveLength(2);

    await deliver(messages.slice(0, 1));
    const running = await jobOf(job.id);
    expect(running.status).toBe("RUNNING");
    expect(running.done).toBe(20);
    expect(running.message).toMatch(/^Pdf für Rechnung \d+ wurde erzeugt$/);

    await deliver(messages.slice(1));
    const finished = await jobOf(job.id);
    expect(finished).toMatchObject({ status: "DONE", done: 31, failed: 0, message: "Fertig! Es wurden 31 Pdfs erzeugt" });
    const all = await headers();
    expect(all.every((header) => header.pdfFilePath?.startsWith("Rechnung_"))).toBe(true);
    const files = await storedFiles();
    expect(Object.keys(files).sort()).toEqual(all.map((header) => header.pdfFilePath).sort());
  });

  it("a redelivered slice renders nothing twice: settled or not, no file is stored again and no header changes", async () => {
    const [job] = await db.select().from(schema.jobs).where(eq(schema.jobs.type, "PDFS"));
    const items = JSON.parse(job.items!) as number[];
    const before = { files: await storedFiles(), headers: await headers(), job: await jobOf(job.id) };

    // The same message once more, after its slice was settled.
    const slice = { body: { type: "slice", jobId: job.id, slice: 0, items: items.slice(0, 20) } };
    expect((await deliver([slice])).retried).toEqual([]);
    // And as if it had been retried before its settlement was written (e.g. the worker stopped).
    await db.delete(schema.jobSlices).where(eq(schema.jobSlices.jobId, job.id));
    expect((await deliver([slice, { body: { ...slice.body, slice: 1, items: items.slice(20) } }])).retried).toEqual([]);

    expect(await storedFiles()).toEqual(before.files);
    expect(await headers()).toEqual(before.headers);
    expect(await jobOf(job.id)).toMatchObject({ status: "DONE", done: 31, message: "Fertig! Es wurden 31 Pdfs erzeugt" });
  });

  it("a second run makes nothing", async () => {
    const files = await storedFiles();
    const response = await postForm("/tasks", await loginCookie("admin"), { intent: "pdfRun:start" });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe("Fertig! Es wurden 0 Pdfs erzeugt");
    const [newest] = await db
      .select()
      .from(schema.jobs)
      .orderBy(sql`id DESC`)
      .limit(1);
    expect(newest).toMatchObject({ type: "PDFS", status: "DONE", total: 0, message: "Fertig! Es wurden 0 Pdfs erzeugt" });
    expect(await storedFiles()).toEqual(files);
  });

  it("an invoice that cannot get its PDF fails with a German reason naming it; the others go through", async () => {
    const [{ last }] = await db.select({ last: sql<number>`max(invoice_number)` }).from(schema.invoiceHeaders);
    for (const number of [last + 1, last + 2]) {
      await db.insert(schema.invoiceHeaders).values({ personId: 3, invoiceNumber: number, ...ISSUED, date: "2026-11-04", amount: 1_000, openAmount: 1_000 });
    }
    const { job, messages } = await startControlledPdfRun();
    // The template goes away after the start: every item fails with the spec's message.
    await db.update(schema.templates).set({ name: "invoice-weg" }).where(eq(schema.templates.name, "invoice"));
    try {
      const { retried } = await deliver(messages);
      expect(retried).toEqual([0]);
      const failures = await db.select().from(schema.jobFailures).where(eq(schema.jobFailures.jobId, job.id));
      expect(failures).toHaveLength(2);
      expect(failures[0].message).toContain("No invoice template found");
    } finally {
      await db.update(schema.templates).set({ name: "invoice" }).where(eq(schema.templates.name, "invoice-weg"));
    }
    // The retry goes through.
    expect((await deliver(messages)).retried).toEqual([]);
    expect(await jobOf(job.id)).toMatchObject({ status: "DONE", done: 2, failed: 0, message: "Fertig! Es wurden 2 Pdfs erzeugt" });
    expect(await db.$count(schema.invoiceHeaders, and(isNull(schema.invoiceHeaders.pdfFilePath), eq(schema.invoiceHeaders.status, "ISSUED")))).toBe(0);
  });

  it("without the template the run is not started: 'No invoice template found'", async () => {
    await db.update(schema.templates).set({ name: "invoice-weg" }).where(eq(schema.templates.name, "invoice"));
    try {
      const jobs = await db.$count(schema.jobs);
      const response = await postForm("/tasks", await loginCookie("admin"), { intent: "pdfRun:start" });
      expect(response.status).toBe(409);
      expect(await response.text()).toContain("No invoice template found");
      expect(await db.$count(schema.jobs)).toBe(jobs);
    } finally {
      await db.update(schema.templates).set({ name: "invoice" }).where(eq(schema.templates.name, "invoice-weg"));
    }
  });
});
