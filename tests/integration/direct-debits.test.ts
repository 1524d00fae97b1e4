/**
 * Lastschriftlauf (issue 15 item 3): the preview (transactions, fees, sum, FRST/RCUR, people
 * without a mandate linked to their mandate dialog), the run on the queue, its pain.008.001.08
 * file downloaded through the app and validated against the OFFICIAL XSD (xmllint on the Node side,
 * service binding XSD_VALIDATOR) with its sums checked (NbOfTxs, CtrlSum per file and per PmtInf),
 * fees marked collected, nothing collected twice (a redelivered message, a second run, the unique
 * index), cancel (everything back as it was) and submit, a returned debit reopening every fee of
 * its transaction, and STAFF and GDPR refused on the server.
 */
import { env } from "cloudflare:test";
import { and, eq, inArray, isNull, like } from "drizzle-orm";
import { XMLParser } from "fast-xml-parser";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createDb } from "~/db/client.server";
import { BatchResources } from "~/jobs/batch-resources.server";
import { RUN_KINDS } from "~/jobs/runs.server";
import * as schema from "~/db/schema";
import { startRun } from "~/jobs/start.server";
import { addDaysToDate, addMonthsToDate, formatDate, todayInBerlin } from "~/lib/format";
import {
  collectionDateFor,
  debitCreditOf,
  earliestCollectionDate,
  isSameBank,
  isTargetBusinessDay,
  latestSettledCollection,
  sepaAmount,
  settlementDayOf,
} from "~/lib/pain008";
import { ibanWithCheckDigits, mandateValidUntil } from "~/lib/banking";
import { DEFAULT_NOTICE_DAYS, earliestNotifiedCollection } from "~/lib/debit-notice";
import { settleDueDebits } from "~/models/debit-settlements.server";
import { peopleToCollect, previewDirectDebits, type DirectDebitParams } from "~/models/direct-debits.server";
import { getMandate } from "~/models/sepa-mandates.server";
import camt053Fixture from "../fixtures/camt053-demo.xml?raw";
import { camtDebitBookings } from "../support/camt";
import { fetchApp, postForm, toastOf } from "../support/app";
import { mailsTo, useTestAccount } from "../support/mail-catcher";
import { deliver, type Sent } from "../support/jobs";
import { loadDemoData } from "../support/seed";
import { DEMO_USERS, loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const today = todayInBerlin();
// The run's default: the pre-notification's 14 days (the settings' default) from today.
const earliest = earliestNotifiedCollection(today, DEFAULT_NOTICE_DAYS);
const future = (() => {
  let date = addDaysToDate(today, 20);
  while (!isTargetBusinessDay(date)) date = addDaysToDate(date, 1);
  return date;
})();

type Fee = typeof schema.fees.$inferSelect;
const feeById = async (id: number) => (await db.select().from(schema.fees).where(eq(schema.fees.id, id)))[0];
const mandateOf = async (personId: number) =>
  (
    await db
      .select()
      .from(schema.sepaMandates)
      .where(and(eq(schema.sepaMandates.personId, personId), eq(schema.sepaMandates.isActive, true)))
  )[0];
const runOf = async (id: number) => (await db.select().from(schema.directDebitRuns).where(eq(schema.directDebitRuns.id, id)))[0];
const itemsOf = (runId: number) => db.select().from(schema.directDebitItems).where(eq(schema.directDebitItems.runId, runId));
const page = async (path: string, who: "admin" | "finance" = "finance") =>
  (await (await fetchApp(path, { cookie: await loginCookie(who) })).text()).replaceAll("<!-- -->", "");

/** Waits for the pool's real queue consumer to finish the run. */
function finished(jobId: number) {
  return vi.waitFor(
    async () => {
      const [job] = await db.select().from(schema.jobs).where(eq(schema.jobs.id, jobId));
      // Settled first (the start's message cleared), then the file is written and the message set.
      const done = job && (job.status === "FAILED" || (job.status === "DONE" && job.message !== null && !job.message.endsWith("vorbereitet ...")));
      if (!done) throw new Error(`Lauf ${jobId} wurde nicht fertig: ${job?.status} ${job?.message}`);
      return job;
    },
    { timeout: 20_000, interval: 50 },
  );
}

const newestJob = async () => (await db.select().from(schema.jobs).orderBy(schema.jobs.id)).at(-1)!;

/** xmllint's verdict on a document against the official pain.008.001.08.xsd. */
async function validate(xml: string): Promise<{ valid: boolean; output: string }> {
  const response = await env.XSD_VALIDATOR.fetch("http://xsd/validate?schema=pain.008.001.08", { method: "POST", body: xml });
  const verdict = (await response.json()) as { valid: boolean; output: string };
  if (response.status !== 200) throw new Error(`XSD-Prüfung nicht möglich: ${verdict.output}`);
  return verdict;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  isArray: (name) => name === "PmtInf" || name === "DrctDbtTxInf",
});
/** '12.50' -> 1250, by the digits (no floating point). */
const centsOf = (amount: string) => {
  expect(amount).toMatch(/^\d+\.\d{2}$/);
  return Number(amount.replace(".", ""));
};

let personA: number; // active mandate, never collected: FRST
let personB: number; // active mandate, collected before: RCUR
let personC: number; // open direct fee, no mandate
let a1: Fee, a2: Fee, a3: Fee, b1: Fee, c1: Fee, invoiced: Fee;

beforeAll(async () => {
  const data = await loadDemoData();
  const withMandate = data.sepaMandates.filter((mandate) => mandate.isActive !== false).map((mandate) => mandate.personId!);
  const mandated = new Set(data.sepaMandates.map((mandate) => mandate.personId!));
  [personA, personB] = withMandate.slice(-2);
  personC = data.people.find((person) => !mandated.has(person.id!))!.id!;
  await db.update(schema.sepaMandates).set({ firstCollectionOn: null }).where(eq(schema.sepaMandates.personId, personA));
  await db.update(schema.sepaMandates).set({ firstCollectionOn: "2025-03-03" }).where(eq(schema.sepaMandates.personId, personB));
  const fee = (personId: number, values: Partial<typeof schema.fees.$inferInsert>) =>
    db
      .insert(schema.fees)
      .values({
        personId,
        date: addDaysToDate(today, -40),
        text: "Kursgebühr Welpen & Junghunde",
        amount: 5_000,
        openAmount: 5_000,
        sendInvoice: false,
        ...values,
      })
      .returning()
      .then(([row]) => row);
  // Two of A's fees are due the same day: one transaction. A third has no due date: due on its (past) date.
  a1 = await fee(personA, { dueDate: future, amount: 4_250, openAmount: 4_250, paymentComments: "Teilzahlung bar" });
  a2 = await fee(personA, { dueDate: future, amount: 1_999, openAmount: 1_001, text: "Platzmiete" });
  a3 = await fee(personA, { dueDate: null, amount: 3_000, openAmount: 3_000, text: "Jahresbeitrag" });
  b1 = await fee(personB, { dueDate: addDaysToDate(today, -5), amount: 7_777, openAmount: 7_777 });
  c1 = await fee(personC, { dueDate: future, amount: 2_500, openAmount: 2_500 });
  invoiced = await fee(personA, { dueDate: future, sendInvoice: true });
});

describe("TARGET2 calendar", () => {
  it("knows weekends and the TARGET holidays, and collects at the earliest on the next business day", () => {
    expect(isTargetBusinessDay("2026-04-03")).toBe(false); // Good Friday
    expect(isTargetBusinessDay("2026-04-06")).toBe(false); // Easter Monday
    expect(isTargetBusinessDay("2026-05-01")).toBe(false);
    expect(isTargetBusinessDay("2026-12-25")).toBe(false);
    expect(isTargetBusinessDay("2026-12-26")).toBe(false);
    expect(isTargetBusinessDay("2027-01-01")).toBe(false);
    expect(isTargetBusinessDay("2026-11-28")).toBe(false); // Saturday
    expect(isTargetBusinessDay("2026-11-26")).toBe(true);
    expect(earliestCollectionDate("2026-04-02")).toBe("2026-04-07");
    expect(earliestCollectionDate("2026-12-24")).toBe("2026-12-28");
    expect(earliestCollectionDate("2026-11-25")).toBe("2026-11-26");
    expect(collectionDateFor("2026-01-01", "2026-11-26")).toBe("2026-11-26");
    expect(collectionDateFor("2027-01-04", "2026-11-26")).toBe("2027-01-04");
    expect(collectionDateFor("2026-12-25", "2026-11-26")).toBe("2026-12-28");
    expect(sepaAmount(1250)).toBe("12.50");
    expect(sepaAmount(5)).toBe("0.05");
    expect(sepaAmount(99_999_999)).toBe("999999.99");
  });

  it("a collection counts as paid on the second TARGET2 business day after it, over weekends and holidays", () => {
    expect(settlementDayOf("2026-11-24")).toBe("2026-11-26"); // Tuesday: Thursday
    expect(settlementDayOf("2026-11-26")).toBe("2026-11-30"); // Thursday: over the weekend to Monday
    expect(settlementDayOf("2026-12-23")).toBe("2026-12-28"); // Christmas Day, Boxing Day and the weekend closed
    expect(settlementDayOf("2026-04-02")).toBe("2026-04-08"); // Good Friday, Easter Monday
    expect(latestSettledCollection("2026-11-30")).toBe("2026-11-26");
    expect(latestSettledCollection("2026-11-29")).toBe("2026-11-25"); // Sunday: only what was due by Wednesday
    expect(latestSettledCollection("2026-12-29")).toBe("2026-12-27"); // a Sunday: no collection is on it
    for (let day = "2026-01-01"; day < "2027-01-01"; day = addDaysToDate(day, 1)) {
      const latest = latestSettledCollection(day);
      expect(settlementDayOf(latest) <= day, day).toBe(true);
      expect(settlementDayOf(addDaysToDate(latest, 1)) > day, day).toBe(true);
    }
  });

  it("a bank credit names the run's transaction, its batch or one PmtInf block", () => {
    const booking = (values: { endToEndId?: string; batchReference?: string; remittance?: string }) => ({
      endToEndId: null,
      batchReference: null,
      remittance: "",
      ...values,
    });
    expect(debitCreditOf(booking({ endToEndId: "WUFF-12-345-20261201" }))).toEqual({ endToEndId: "WUFF-12-345-20261201" });
    expect(debitCreditOf(booking({ batchReference: "WUFF-LS-12-RCUR-20261201" }))).toEqual({ runId: 12, sequenceType: "RCUR", collectionDate: "2026-12-01" });
    expect(debitCreditOf(booking({ batchReference: "WUFF-LS-12" }))).toEqual({ runId: 12, sequenceType: null, collectionDate: null });
    expect(debitCreditOf(booking({ remittance: "SEPA-SAMMLER WUFF-LS-7-FRST-20261130 3 POSTEN" }))).toEqual({
      runId: 7,
      sequenceType: "FRST",
      collectionDate: "2026-11-30",
    });
    expect(debitCreditOf(booking({ endToEndId: "RE 2026001", remittance: "Rechnung 2026001" }))).toBeNull();
    expect(debitCreditOf(booking({ remittance: "WUFF-LS-" }))).toBeNull();
  });
});

/** The line of the fixture where its returned debit's entry starts (24 lines long). */
const returnStart = (lines: string[]) =>
  lines.findIndex((line, index) => line.trim() === "<Ntry>" && lines.slice(index, index + 24).some((inner) => inner.includes("<EndToEndId>WUFF-")));

/** A CAMT.053 statement with one returned debit per entry (the fixture's return, its reason replaced). */
function returnsStatement(returns: { endToEndId: string; amount: string; reason: string; bankReference: string }[]) {
  const lines = camt053Fixture.split("\n");
  const head = lines
    .slice(
      0,
      lines.findIndex((line) => line.trim() === "<Ntry>"),
    )
    .join("\n");
  const entry = lines.slice(returnStart(lines), returnStart(lines) + 24).join("\n");
  const entries = returns.map(({ endToEndId, amount, reason, bankReference }) =>
    entry
      .replaceAll("WUFF-0-41-20261102", endToEndId)
      .replaceAll("120.00", amount)
      .replace("DEMO2026112300005", bankReference)
      .replace("<Cd>MD06</Cd>", `<Cd>${reason}</Cd>`),
  );
  return `${head}\n${entries.join("\n")}\n    </Stmt>\n  </BkToCstmrStmt>\n</Document>\n`;
}

/** Uploads a statement; its entries in their order. */
async function importStatement(statement: string) {
  const form = new FormData();
  form.set("file", new File([statement], "ruecklastschrift.xml"));
  const uploaded = await fetchApp("/bankstatements", { method: "POST", cookie: await loginCookie("finance"), body: form });
  const importId = Number(/^\/bankstatements\/(\d+)$/.exec(uploaded.headers.get("Location") ?? "")?.[1]);
  return db.select().from(schema.bankStatementEntries).where(eq(schema.bankStatementEntries.importId, importId)).orderBy(schema.bankStatementEntries.id);
}

/** Imports a statement with one returned debit of the end-to-end id (insufficient funds unless `reason`) and gives its entry. */
async function importReturn(endToEndId: string, amount: string, bankReference = "RET", reason = "AM04") {
  const [entry] = await importStatement(returnsStatement([{ endToEndId, amount, reason, bankReference: `${bankReference}-${endToEndId}` }]));
  return entry;
}

/** A CAMT.053 statement with credits of direct debits: one transaction, or a batch booked as one sum. */
const creditsStatement = (credits: { cents: number; endToEndId?: string; batch?: string; bankReference: string }[]) =>
  camtDebitBookings(credits.map(({ bankReference, ...credit }) => ({ kind: "credit", ref: bankReference, ...credit })));

/** The journal entries of the items' debits ('debit:{item}'), not undone. */
const paidDebits = (itemIds: number[]) =>
  db.$count(
    schema.payments,
    and(
      inArray(
        schema.payments.entryKey,
        itemIds.map((id) => `debit:${id}`),
      ),
    ),
  );

describe("Lastschriftlauf", () => {
  let runId: number;
  /** The run that collects the returned fees again. */
  let againRunId: number;
  let xml: string;

  it("STAFF and GDPR are refused on the server: screen, preview, start, file", async () => {
    for (const who of ["staff", "gdpr"] as const) {
      const cookie = await loginCookie(who);
      for (const path of ["/directdebits", "/directdebits?dialog=directDebit-start", "/directdebits/file/1", "/directdebits.data"]) {
        const response = await fetchApp(path, { cookie });
        expect(response.status, `${who} ${path}`).not.toBe(200);
        expect(await response.text()).not.toMatch(/DE\d{20}/);
      }
      const response = await postForm("/directdebits", cookie, { intent: "directDebit:start" });
      expect(response.headers.get("Location"), who).toBe("/");
    }
    expect(await db.$count(schema.jobs)).toBe(0);
  });

  it("the preview counts transactions per person and due day, sums them, and lists people without a mandate with a link to their mandate", async () => {
    const html = await page("/directdebits?dialog=directDebit-start");
    expect(html).toContain("Lastschriftlauf vorbereiten");
    expect(html).toContain("Ohne aktives Mandat");
    const person = (await db.select().from(schema.people).where(eq(schema.people.id, personC)))[0];
    expect(html).toContain(`/people/${personC}?dialog=mandate-person&amp;dialogId=${personC}`);
    expect(html).toContain(person.fullName!.replaceAll("&", "&amp;"));
    expect(html).toMatch(/Lastschriften einziehen/);
    // What it will collect equals what the database says is collectable.
    expect((await peopleToCollect(db, earliest)).includes(personA)).toBe(true);
    expect(await peopleToCollect(db, earliest)).not.toContain(personC);
  });

  it("confirmed, the run collects: one transaction per person and due day, fees collected with reference and comment, mandate used", async () => {
    const preview = await previewDirectDebits(db, today);
    expect(preview.problem).toBeNull();
    const response = await postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:start" });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toMatch(/^Lastschriftlauf gestartet/);
    const job = await finished((await newestJob()).id);
    expect(job.type).toBe("DIRECT_DEBIT");
    expect(job.status).toBe("DONE");
    expect(job.message).toMatch(/^Fertig! \d+ Lastschriften über .* Die Datei liegt zum Herunterladen bereit\. Vorabankündigungen: \d+ per Mail/);
    runId = job.id;
    const run = await runOf(runId);
    expect(run.status).toBe("PREPARED");
    expect(run.fileKey).toBe(`lastschriften/Lastschrift_${runId}.xml`);

    const [fa1, fa2, fa3, fb1, fc1, fInvoiced] = await Promise.all([a1, a2, a3, b1, c1, invoiced].map((fee) => feeById(fee.id)));
    const ymd = (date: string) => date.replaceAll("-", "");
    expect(fa1.paymentReference).toBe(`WUFF-${runId}-${personA}-${ymd(future)}`);
    expect(fa2.paymentReference).toBe(fa1.paymentReference);
    expect(fa3.paymentReference).toBe(`WUFF-${runId}-${personA}-${ymd(a3.date)}`);
    // Eingereicht: open until the bank credits them (issue 31 item 2), but in collection.
    expect([fa1, fa2, fa3, fb1].map((fee) => fee.openAmount)).toEqual([4_250, 1_001, 3_000, 7_777]);
    expect(await db.$count(schema.payments, like(schema.payments.entryKey, "debit:%"))).toBe(0);
    for (const fee of [fa1, fa2, fa3, fb1]) {
      expect(fee.paymentReference!.length).toBeLessThanOrEqual(35);
      expect(fee.paymentComments).toContain(`Lauf ${runId}`);
    }
    expect(fa1.paymentComments).toMatch(/^Teilzahlung bar; Lastschrift \d\d\.\d\d\.\d{4}, Lauf \d+$/);
    expect(fc1.openAmount).toBe(2_500);
    expect(fInvoiced.openAmount).toBe(5_000);
    expect((await mandateOf(personA)).firstCollectionOn).toBe(earliest);
    expect((await mandateOf(personB)).firstCollectionOn).toBe("2025-03-03");

    const items = await itemsOf(runId);
    // What the preview promised is what the run collected.
    expect({ transactions: run.transactions, fees: run.fees, total: run.total }).toEqual({
      transactions: preview.transactions,
      fees: preview.fees,
      total: preview.total,
    });
    for (const sequence of ["FRST", "RCUR"] as const) {
      const ofSequence = items.filter((item) => item.sequenceType === sequence);
      expect(new Set(ofSequence.map((item) => item.endToEndId)).size, sequence).toBe(preview.bySequence[sequence].transactions);
      expect(
        ofSequence.reduce((sum, item) => sum + item.amount, 0),
        sequence,
      ).toBe(preview.bySequence[sequence].total);
    }
    expect(run.fees).toBe(items.length);
    expect(run.total).toBe(items.reduce((sum, item) => sum + item.amount, 0));
    expect(run.transactions).toBe(new Set(items.map((item) => item.endToEndId)).size);
    const itemA2 = items.find((item) => item.feeId === a2.id)!;
    expect(itemA2).toMatchObject({ amount: 1_001, sequenceType: "FRST", collectionDate: future, dueDate: future });
    expect(items.find((item) => item.feeId === a3.id)).toMatchObject({ amount: 3_000, sequenceType: "FRST", collectionDate: earliest });
    expect(items.find((item) => item.feeId === b1.id)).toMatchObject({ sequenceType: "RCUR", collectionDate: earliest });
  });

  it("'Datei herunterladen' gives the pain.008.001.08 as an attachment; it is valid against the official XSD and its sums are right", async () => {
    const response = await fetchApp(`/directdebits/file/${runId}`, { cookie: await loginCookie("finance") });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("application/xml");
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="Lastschrift_Lauf_${runId}_${(await runOf(runId)).createdOn.slice(0, 10)}.xml"`,
    );
    xml = await response.text();
    expect(xml).toContain('xmlns="urn:iso:std:iso:20022:tech:xsd:pain.008.001.08"');

    const verdict = await validate(xml);
    expect(verdict.output, xml).toContain("validates");
    expect(verdict.valid).toBe(true);

    const document = parser.parse(xml).Document.CstmrDrctDbtInitn;
    const blocks = document.PmtInf as {
      NbOfTxs: string;
      CtrlSum: string;
      ReqdColltnDt: string;
      PmtTpInf: { SeqTp: string; LclInstrm: { Cd: string } };
      CdtrSchmeId: unknown;
      DrctDbtTxInf: {
        InstdAmt: { "#text": string; "@_Ccy": string };
        PmtId: { EndToEndId: string };
        DrctDbtTx: { MndtRltdInf: { MndtId: string; DtOfSgntr: string } };
      }[];
    }[];
    const all = blocks.flatMap((block) => block.DrctDbtTxInf);
    expect(Number(document.GrpHdr.NbOfTxs)).toBe(all.length);
    expect(centsOf(document.GrpHdr.CtrlSum)).toBe(all.reduce((sum, tx) => sum + centsOf(tx.InstdAmt["#text"]), 0));
    for (const block of blocks) {
      expect(Number(block.NbOfTxs)).toBe(block.DrctDbtTxInf.length);
      expect(centsOf(block.CtrlSum)).toBe(block.DrctDbtTxInf.reduce((sum, tx) => sum + centsOf(tx.InstdAmt["#text"]), 0));
      expect(block.PmtTpInf.LclInstrm.Cd).toBe("CORE");
      expect(block.ReqdColltnDt >= earliest, block.ReqdColltnDt).toBe(true);
      expect(isTargetBusinessDay(block.ReqdColltnDt), block.ReqdColltnDt).toBe(true);
    }
    // The file and the database agree: every transaction once, its amount the sum of its fees.
    const items = await itemsOf(runId);
    const run = await runOf(runId);
    expect(all.length).toBe(run.transactions);
    expect(centsOf(document.GrpHdr.CtrlSum)).toBe(run.total);
    const a = all.find((tx) => tx.PmtId.EndToEndId === items.find((item) => item.feeId === a1.id)!.endToEndId)!;
    expect(a.InstdAmt["#text"]).toBe("52.51");
    expect(a.InstdAmt["@_Ccy"]).toBe("EUR");
    const mandateA = await mandateOf(personA);
    expect(a.DrctDbtTx.MndtRltdInf).toEqual({ MndtId: mandateA.reference, DtOfSgntr: mandateA.mandateDate });
    const blockOf = (endToEndId: string) => blocks.find((block) => block.DrctDbtTxInf.some((tx) => tx.PmtId.EndToEndId === endToEndId))!;
    expect(blockOf(a.PmtId.EndToEndId).PmtTpInf.SeqTp).toBe("FRST");
    expect(blockOf(items.find((item) => item.feeId === b1.id)!.endToEndId).PmtTpInf.SeqTp).toBe("RCUR");
    expect(xml.match(/<Ustrd>[^<]*<\/Ustrd>/g)).toContain("<Ustrd>Kursgebuehr Welpen + Junghunde, Platzmiete</Ustrd>");
  });

  it("a broken document FAILS the XSD check (the check is real)", async () => {
    const broken = xml.replace("<PmtMtd>DD</PmtMtd>", "<PmtMtd>XX</PmtMtd>");
    expect(broken).not.toBe(xml);
    const verdict = await validate(broken);
    expect(verdict.valid).toBe(false);
    expect(verdict.output).toContain("PmtMtd");
    expect((await validate(xml.replace(/<MsgId>[^<]*<\/MsgId>/, ""))).valid).toBe(false);
  });

  it("nothing is collected twice: the preview finds nothing more, a second start is refused, the index refuses a second item", async () => {
    const html = await page("/directdebits?dialog=directDebit-start");
    expect(html).not.toContain(`Person ${personA}`);
    const response = await postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:start" });
    const [item] = await itemsOf(runId);
    if (response.status === 409) {
      expect(await response.text()).toContain("Keine Lastschriften");
    } else {
      // Demo people whose fees became collectable since: a new run, but none of ours.
      const job = await finished((await newestJob()).id);
      expect((await itemsOf(job.id)).map((row) => row.feeId)).not.toContain(a1.id);
    }
    const refused = await db
      .insert(schema.directDebitItems)
      .values({ ...item, id: undefined, runId })
      .then(
        () => null,
        (error: Error) => error,
      );
    expect(String(refused?.cause ?? refused)).toMatch(/UNIQUE constraint failed: direct_debit_items.fee_id/);
  });

  it("the screen lists the run with download, submit and cancel for ADMIN and FINANCE; no full IBAN on it", async () => {
    for (const who of ["finance", "admin"] as const) {
      const html = await page("/directdebits", who);
      expect(html).toContain(`Lauf ${runId}`);
      expect(html).toContain(`/directdebits/file/${runId}`);
      expect(html).toContain(`dialog=directDebit-cancel&amp;dialogId=${runId}`);
      expect(html).not.toMatch(/DE\d{20}/);
    }
    expect(await page(`/tasks`, "admin")).toContain("Lastschriftlauf");
  });

  it("'Lauf stornieren' gives every fee back what it had, makes the mandate FRST again and frees the fees for the next run", async () => {
    const html = await page(`/directdebits?dialog=directDebit-cancel&dialogId=${runId}`);
    expect(html).toContain("wieder frei für den nächsten Lauf");
    const before = (await itemsOf(runId)).length;
    const response = await postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:cancel", id: runId });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe(`Lastschriftlauf ${runId} storniert: ${before} Posten sind wieder frei für den nächsten Lauf`);
    for (const fee of [a1, a2, a3, b1]) {
      const now = await feeById(fee.id);
      expect({ open: now.openAmount, reference: now.paymentReference, comments: now.paymentComments }).toEqual({
        open: fee.openAmount,
        reference: fee.paymentReference,
        comments: fee.paymentComments,
      });
    }
    expect((await mandateOf(personA)).firstCollectionOn).toBeNull();
    expect((await mandateOf(personB)).firstCollectionOn).toBe("2025-03-03");
    expect((await runOf(runId)).status).toBe("CANCELLED");
    expect(await db.$count(schema.directDebitItems, and(eq(schema.directDebitItems.runId, runId), isNull(schema.directDebitItems.cancelledOn)))).toBe(0);
    const again = await postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:cancel", id: runId });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("schon storniert");
    // The cancelled run's file is not offered any more.
    expect(await page("/directdebits")).not.toContain(`/directdebits/file/${runId}"`);
  });

  it("a redelivered slice collects nothing twice (the queue's retries)", async () => {
    const messages: Sent = [];
    const collecting = { JOBS: { sendBatch: async (batch: Sent) => void messages.push(...batch) } } as unknown as Pick<Env, "JOBS">;
    const params: DirectDebitParams = { date: today, earliest };
    const outcome = await startRun(
      collecting,
      db,
      { type: "DIRECT_DEBIT", items: await peopleToCollect(db, earliest), params, emptyMessage: "nichts" },
      DEMO_USERS.finance,
    );
    if (outcome.status !== "started") throw new Error(outcome.status);
    runId = outcome.job.id;
    await deliver(messages);
    const once = await itemsOf(runId);
    const feesOnce = await db
      .select()
      .from(schema.fees)
      .where(inArray(schema.fees.id, [a1.id, a2.id, a3.id, b1.id]));
    // The same messages again, and a slice as if it ran a second time before its settlement.
    await deliver(messages);
    // A slice's items run again as if its settlement had been lost.
    const job = (await db.select().from(schema.jobs).where(eq(schema.jobs.id, runId)))[0];
    const slice = (messages[0].body as { items: number[] }).items;
    const batch = new BatchResources();
    for (const personId of slice) await RUN_KINDS.DIRECT_DEBIT.perform!({ env, db, job, actor: DEMO_USERS.finance, now: new Date(), batch }, personId);
    await batch.disposeAll();
    expect(await itemsOf(runId)).toEqual(once);
    // One pre-notification per person, and no second mail.
    const notices = await db.select().from(schema.directDebitNotices).where(eq(schema.directDebitNotices.runId, runId));
    expect(notices.map((notice) => notice.personId).sort()).toEqual([...new Set(once.map((item) => item.personId))].sort());
    const mails = await db
      .select()
      .from(schema.mailLog)
      .where(and(eq(schema.mailLog.jobId, runId), eq(schema.mailLog.kind, "DEBIT_NOTICE")));
    expect(mails).toHaveLength(notices.filter((notice) => notice.channel === "MAIL").length);
    expect(
      await db
        .select()
        .from(schema.fees)
        .where(inArray(schema.fees.id, [a1.id, a2.id, a3.id, b1.id])),
    ).toEqual(feesOnce);
    expect(once.filter((item) => [a1.id, a2.id, a3.id, b1.id].includes(item.feeId))).toHaveLength(4);
    expect((await runOf(runId)).fileKey).not.toBeNull();
    expect((await validate(await (await fetchApp(`/directdebits/file/${runId}`, { cookie: await loginCookie("admin") })).text())).valid).toBe(true);
  });

  it("the bank's credit of one transaction pays its fees: journal entries of method Lastschrift on its value date", async () => {
    const fa1 = await feeById(a1.id);
    const [credit] = await importStatement(creditsStatement([{ cents: 5_251, endToEndId: fa1.paymentReference!, bankReference: "GUT-A" }]));
    expect(credit).toMatchObject({ proposal: "MATCHED", targetType: "DEBIT_RUN", targetId: runId, note: null });
    const review = await page(`/bankstatements/${credit.importId}`);
    expect(review).toContain(`Lastschriftlauf ${runId} (Lastschrift ${fa1.paymentReference})`);
    const booked = await postForm(`/bankstatements/${credit.importId}`, await loginCookie("finance"), {
      intent: "book",
      [`choice-${credit.id}`]: `DEBIT_RUN:${runId}`,
    });
    expect(booked.status).toBe(302);
    expect(toastOf(booked)?.message).toBe("1 Buchung gebucht (52,51\u00a0€ Zahlungseingang).");
    const [pa1, pa2, pa3] = await Promise.all([a1, a2, a3].map((fee) => feeById(fee.id)));
    expect([pa1.openAmount, pa2.openAmount, pa3.openAmount]).toEqual([0, 0, 3_000]);
    const items = (await itemsOf(runId)).filter((item) => item.endToEndId === fa1.paymentReference);
    const entries = await db
      .select()
      .from(schema.payments)
      .where(
        inArray(
          schema.payments.entryKey,
          items.map((item) => `debit:${item.id}`),
        ),
      );
    expect(entries.map(({ amount, method, date, sourceRef }) => ({ amount, method, date, sourceRef })).sort((x, y) => x.amount - y.amount)).toEqual([
      { amount: 1_001, method: "DIRECT_DEBIT", date: "2026-11-26", sourceRef: fa1.paymentReference },
      { amount: 4_250, method: "DIRECT_DEBIT", date: "2026-11-26", sourceRef: fa1.paymentReference },
    ]);
    expect(pa1.paymentComments).toMatch(/; Bank 27\.11\.2026: 52,51\u00a0€/);
    // The same credit again (another statement): nothing left to pay, nothing booked twice.
    const [again] = await importStatement(creditsStatement([{ cents: 5_251, endToEndId: fa1.paymentReference!, bankReference: "GUT-A2" }]));
    expect(again).toMatchObject({ proposal: "UNMATCHED", targetType: null });
    expect(again.note).toContain("schon als bezahlt gebucht");
    // A paid debit: the run cannot be cancelled any more.
    const cancel = await postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:cancel", id: runId });
    expect(cancel.status).toBe(409);
  });

  it("a returned debit reopens ALL fees of its transaction", async () => {
    const fa1 = await feeById(a1.id);
    // Insufficient funds: presented once more by the next run (below).
    const entry = await importReturn(fa1.paymentReference!, "52.51");
    const importId = entry.importId;
    expect(entry.proposal).toBe("RETURN");
    expect([a1.id, a2.id]).toContain(entry.targetId);
    const booked = await postForm(`/bankstatements/${importId}`, await loginCookie("finance"), {
      intent: "book",
      [`choice-${entry.id}`]: `FEE:${entry.targetId}`,
    });
    expect(booked.status).toBe(302);
    const [ra1, ra2, ra3] = await Promise.all([a1, a2, a3].map((fee) => feeById(fee.id)));
    expect(ra1.openAmount).toBe(4_250);
    expect(ra2.openAmount).toBe(1_001);
    expect(ra1.paymentComments).toMatch(/Rücklastschrift 23\.11\.2026 \(AM04 Deckung unzureichend\)$/);
    expect(ra2.paymentComments).toMatch(/Rücklastschrift 23\.11\.2026 \(AM04 Deckung unzureichend\)$/);
    // A fee of another transaction of the same person stays in collection.
    expect(ra3.openAmount).toBe(3_000);
    expect((await itemsOf(runId)).find((item) => item.feeId === a3.id)!.cancelledOn).toBeNull();
    const [bookedEntry] = await db.select().from(schema.bankStatementEntries).where(eq(schema.bankStatementEntries.id, entry.id));
    expect(bookedEntry.applied).toBe(5_251);
    // A run with a reopened fee cannot be cancelled any more; it can still be submitted.
    const cancel = await postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:cancel", id: runId });
    expect(cancel.status).toBe(409);
    expect(await cancel.text()).toContain("seitdem geändert");
  });

  it("a returned debit lets its fees be collected again: items cancelled, FRST again once no collection stands, the next preview and run take them once", async () => {
    const returnedItems = (await itemsOf(runId)).filter((item) => [a1.id, a2.id].includes(item.feeId));
    expect(returnedItems.map((item) => item.cancelledOn)).toEqual([expect.any(String), expect.any(String)]);
    expect((await itemsOf(runId)).find((item) => item.feeId === a3.id)!.cancelledOn).toBeNull();
    // a3 (FRST too) still stands: the mandate keeps its first collection.
    expect((await mandateOf(personA)).firstCollectionOn).toBe(earliest);
    // Returned, then a3's transaction: no collection under the mandate stands, the next one is FRST again.
    const fa3 = await feeById(a3.id);
    const entry = await importReturn(fa3.paymentReference!, "30.00");
    const booked = await postForm(`/bankstatements/${entry.importId}`, await loginCookie("finance"), {
      intent: "book",
      [`choice-${entry.id}`]: `FEE:${a3.id}`,
    });
    expect(booked.status).toBe(302);
    expect((await feeById(a3.id)).openAmount).toBe(3_000);
    expect((await mandateOf(personA)).firstCollectionOn).toBeNull();
    // The same return again (another bank reference): proposed without a fee, nothing opened twice.
    const again = await importReturn(fa3.paymentReference!, "30.00", "NOCHMAL");
    expect(again).toMatchObject({
      proposal: "RETURN",
      targetId: null,
      note: "Diese Lastschrift ist schon als Rücklastschrift gebucht: ihre Posten sind wieder offen.",
    });

    expect(await peopleToCollect(db, earliest)).toContain(personA);
    const preview = await previewDirectDebits(db, today);
    const response = await postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:start" });
    expect(response.status).toBe(302);
    const job = await finished((await newestJob()).id);
    expect(job.status).toBe("DONE");
    const run = await runOf(job.id);
    againRunId = job.id;
    expect({ fees: run.fees, total: run.total }).toEqual({ fees: preview.fees, total: preview.total });
    const items = (await itemsOf(job.id)).filter((item) => [a1.id, a2.id, a3.id].includes(item.feeId));
    expect(items.map((item) => [item.feeId, item.amount, item.sequenceType]).sort()).toEqual(
      [
        [a1.id, 4_250, "FRST"],
        [a2.id, 1_001, "FRST"],
        [a3.id, 3_000, "FRST"],
      ].sort(),
    );
    for (const item of items) expect(await feeById(item.feeId)).toMatchObject({ openAmount: item.amount, paymentReference: item.endToEndId });
    expect(
      await db.$count(schema.directDebitItems, and(inArray(schema.directDebitItems.feeId, [a1.id, a2.id, a3.id]), isNull(schema.directDebitItems.cancelledOn))),
    ).toBe(3);
    expect((await mandateOf(personA)).firstCollectionOn).not.toBeNull();
    // The run with returned debits still cannot be cancelled.
    const cancel = await postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:cancel", id: runId });
    expect(cancel.status).toBe(409);
  });

  it("'An die Bank übergeben' marks the run SUBMITTED; from then on it cannot be cancelled", async () => {
    const response = await postForm("/directdebits", await loginCookie("admin"), { intent: "directDebit:submit", id: runId });
    expect(response.status).toBe(302);
    const run = await runOf(runId);
    expect(run).toMatchObject({ status: "SUBMITTED", submittedBy: DEMO_USERS.admin.name });
    const cancel = await postForm("/directdebits", await loginCookie("admin"), { intent: "directDebit:cancel", id: runId });
    expect(cancel.status).toBe(409);
    expect(await cancel.text()).toContain("an die Bank übergeben");
    for (const who of ["staff", "gdpr"] as const) {
      const refused = await postForm("/directdebits", await loginCookie(who), { intent: "directDebit:submit", id: runId });
      expect(refused.headers.get("Location")).toBe("/");
    }
    expect(await postForm("/directdebits", await loginCookie("admin"), { intent: "directDebit:submit", id: "abc" }).then((r) => r.status)).toBe(404);
  });

  it("the bank's batch credit of a PmtInf block pays the block's debits still submitted; a wrong sum is named, not booked", async () => {
    const fb1 = await feeById(b1.id);
    const item = (await itemsOf(runId)).find((each) => each.feeId === b1.id)!;
    const block = (await itemsOf(runId)).filter((each) => each.sequenceType === item.sequenceType && each.collectionDate === item.collectionDate);
    const sum = block.reduce((total, each) => total + each.amount, 0);
    const batch = `WUFF-LS-${runId}-${item.sequenceType}-${item.collectionDate.replaceAll("-", "")}`;
    const [wrong, credit] = await importStatement(
      creditsStatement([
        { cents: sum + 1, batch, bankReference: "SAMMLER-FALSCH" },
        { cents: sum, batch, bankReference: "SAMMLER" },
      ]),
    );
    expect(wrong).toMatchObject({ proposal: "UNMATCHED", targetType: null, batchReference: batch });
    expect(wrong.note).toContain("der Betrag passt nicht");
    expect(credit).toMatchObject({ proposal: "MATCHED", targetType: "DEBIT_RUN", targetId: runId });
    const booked = await postForm(`/bankstatements/${credit.importId}`, await loginCookie("finance"), {
      intent: "book",
      [`choice-${credit.id}`]: `DEBIT_RUN:${runId}`,
      [`choice-${wrong.id}`]: `DEBIT_RUN:${runId}`,
    });
    // The wrong sum was not proposed: nothing is booked.
    expect(booked.status).toBe(422);
    expect(await paidDebits([item.id])).toBe(0);
    const bookedNow = await postForm(`/bankstatements/${credit.importId}`, await loginCookie("finance"), {
      intent: "book",
      [`choice-${credit.id}`]: `DEBIT_RUN:${runId}`,
    });
    expect(bookedNow.status).toBe(302);
    expect((await feeById(b1.id)).openAmount).toBe(fb1.openAmount - item.amount);
    const standing = block.filter((each) => each.cancelledOn === null);
    expect(await paidDebits(standing.map((each) => each.id))).toBe(standing.length);
    const [after] = await db.select().from(schema.bankStatementEntries).where(eq(schema.bankStatementEntries.id, credit.id));
    expect(after).toMatchObject({ status: "BOOKED", applied: standing.reduce((total, each) => total + each.amount, 0) });
    expect(await page("/directdebits")).toContain("Davon bezahlt");
  });

  it("if the club chooses, a run handed to the bank is paid two TARGET2 business days after collection, once; a later return undoes it", async () => {
    const finance = { name: DEMO_USERS.finance.name };
    const items = (await itemsOf(againRunId)).filter((item) => item.cancelledOn === null);
    const last = items
      .map((item) => item.collectionDate)
      .sort()
      .at(-1)!;
    const settlementDay = settlementDayOf(last);
    // Off by default: nothing.
    expect(await settleDueDebits(db, settlementDay, finance)).toBe(0);
    await db.update(schema.configuration).set({ debitAutoSettle: true }).where(eq(schema.configuration.id, 1));
    // Not handed to the bank yet: none of its debits (the first run's, handed over, are paid now).
    await settleDueDebits(db, settlementDay, finance);
    expect(await paidDebits(items.map((item) => item.id))).toBe(0);
    const submitted = await postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:submit", id: againRunId });
    expect(submitted.status).toBe(302);
    // The day before the settlement day of the last collection: not that one yet.
    const dayBefore = addDaysToDate(settlementDay, -1);
    expect(await settleDueDebits(db, dayBefore, finance)).toBe(items.filter((item) => settlementDayOf(item.collectionDate) <= dayBefore).length);
    expect(await paidDebits(items.filter((item) => item.collectionDate === last).map((item) => item.id))).toBe(0);
    expect(await settleDueDebits(db, settlementDay, finance)).toBe(items.filter((item) => item.collectionDate === last).length);
    expect(await settleDueDebits(db, settlementDay, finance)).toBe(0);
    expect(await paidDebits(items.map((item) => item.id))).toBe(items.length);
    const a3Item = items.find((item) => item.feeId === a3.id)!;
    expect(await feeById(a3.id)).toMatchObject({ openAmount: 0 });
    const [entry] = await db
      .select()
      .from(schema.payments)
      .where(eq(schema.payments.entryKey, `debit:${a3Item.id}`));
    expect(entry).toMatchObject({ date: a3Item.collectionDate, amount: 3_000, method: "DIRECT_DEBIT" });
    // A return after it: a counter-entry, the fee open again.
    const returned = await importReturn(a3Item.endToEndId, "30.00", "NACH-AUTO", "MD06");
    const booked = await postForm(`/bankstatements/${returned.importId}`, await loginCookie("finance"), {
      intent: "book",
      [`choice-${returned.id}`]: `FEE:${a3.id}`,
    });
    expect(booked.status).toBe(302);
    expect((await feeById(a3.id)).openAmount).toBe(3_000);
    expect(await db.$count(schema.payments, eq(schema.payments.reversesPaymentId, entry.id))).toBe(1);
    await db.update(schema.configuration).set({ debitAutoSettle: false }).where(eq(schema.configuration.id, 1));
  });
});

describe("a run whose file could not be written", () => {
  it("can still be cancelled once its job has finished (its fees are not left collected without a file)", async () => {
    const [fee] = await db
      .insert(schema.fees)
      .values({ personId: personA, date: today, dueDate: future, text: "Nachzügler", amount: 1_200, openAmount: 1_200, sendInvoice: false })
      .returning();
    const messages: Sent = [];
    const collecting = { JOBS: { sendBatch: async (batch: Sent) => void messages.push(...batch) } } as unknown as Pick<Env, "JOBS">;
    const outcome = await startRun(
      collecting,
      db,
      { type: "DIRECT_DEBIT", items: await peopleToCollect(db, earliest), params: { date: today, earliest }, emptyMessage: "nichts" },
      DEMO_USERS.finance,
    );
    if (outcome.status !== "started") throw new Error(outcome.status);
    const id = outcome.job.id;
    // Before its messages arrive, the run is under way: no cancel yet.
    expect((await postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:cancel", id })).status).toBe(404);
    await deliver(messages);
    expect((await feeById(fee.id)).paymentReference).toMatch(/^WUFF-/);
    // As if storing the file had failed every retry.
    await db.update(schema.directDebitRuns).set({ fileKey: null }).where(eq(schema.directDebitRuns.id, id));
    const html = await page("/directdebits");
    expect(html).toContain(`dialog=directDebit-cancel&amp;dialogId=${id}`);
    expect(html).not.toContain(`/directdebits/file/${id}`);
    expect((await fetchApp(`/directdebits/file/${id}`, { cookie: await loginCookie("finance") })).status).toBe(404);
    const response = await postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:cancel", id });
    expect(response.status).toBe(302);
    const reopened = await feeById(fee.id);
    expect({ open: reopened.openAmount, reference: reopened.paymentReference, comments: reopened.paymentComments }).toEqual({
      open: 1_200,
      reference: null,
      comments: null,
    });
  });
});

describe("a mandate's life (issue 31 item 4)", () => {
  it("ends 36 months after its last use; a month without that day ends on its last day, in SQL as in the rule", async () => {
    expect(mandateValidUntil("2024-02-29")).toBe("2027-02-28");
    expect(mandateValidUntil("2023-01-31")).toBe("2026-01-31");
    expect(mandateValidUntil("2023-03-31")).toBe("2026-03-31");
    expect(addMonthsToDate("2026-01-31", 1)).toBe("2026-02-28");
    const [{ id: personId }] = await db
      .insert(schema.people)
      .values({ firstName: "Mia", lastName: "Mandatsdatum", memberTypeId: 1 })
      .returning({ id: schema.people.id });
    // Days at the ends of months and around leap days, signed and never used.
    const days = ["2023-01-31", "2023-02-28", "2024-02-29", "2023-03-31", "2023-04-30", "2023-05-31", "2023-08-31", "2023-11-30", "2023-12-31", "2024-01-15"];
    for (const [index, day] of days.entries()) {
      const [{ id }] = await db
        .insert(schema.sepaMandates)
        .values({ personId, accountHolder: "Mia", iban: "DE02120300000000202051", reference: `TEST-LIFE-${index}`, mandateDate: day, isActive: false })
        .returning({ id: schema.sepaMandates.id });
      expect((await getMandate(db, id))?.validUntil, day).toBe(mandateValidUntil(day));
    }
  });

  it("a mandate last used 36 months and one day before the collection is refused and named; one used 36 months before is collected", async () => {
    const people = await db
      .insert(schema.people)
      .values([
        { firstName: "Ernst", lastName: "Erloschen", memberTypeId: 1 },
        { firstName: "Gerda", lastName: "Gerade", memberTypeId: 1 },
      ])
      .returning({ id: schema.people.id });
    const [expired, justValid] = people.map((person) => person.id);
    // Last used before Wuff exactly 36 months before the collection day, and one day earlier.
    const lastUse = addMonthsToDate(earliest, -36);
    for (const [index, [personId, used]] of (
      [
        [expired, addDaysToDate(lastUse, -1)],
        [justValid, lastUse],
      ] as const
    ).entries()) {
      await db.insert(schema.sepaMandates).values({
        personId,
        accountHolder: "Test",
        iban: "DE02120300000000202051",
        reference: `TEST-USE-${index}`,
        mandateDate: addDaysToDate(used, -100),
        firstCollectionOn: addDaysToDate(used, -100),
        previousUseOn: used,
      });
      await db.insert(schema.fees).values({ personId, date: today, text: "Jahresbeitrag", amount: 1_000, openAmount: 1_000, sendInvoice: false });
    }
    const preview = await previewDirectDebits(db, today);
    expect(preview.earliest).toBe(earliest);
    expect(preview.expired.find((person) => person.personId === expired)).toMatchObject({
      name: "Ernst Erloschen",
      fees: 1,
      validUntil: addDaysToDate(earliest, -1),
    });
    expect(preview.expired.map((person) => person.personId)).not.toContain(justValid);
    const collect = await peopleToCollect(db, earliest);
    expect(collect).toContain(justValid);
    expect(collect).not.toContain(expired);
    expect(await page("/directdebits?dialog=directDebit-start")).toMatch(/Mandat abgelaufen \(1 Person\)[\s\S]*Ernst Erloschen<\/a> – gültig bis/);

    // Even named by hand as an item of a run, the expired mandate collects nothing.
    const messages: Sent = [];
    const collecting = { JOBS: { sendBatch: async (batch: Sent) => void messages.push(...batch) } } as unknown as Pick<Env, "JOBS">;
    const outcome = await startRun(
      collecting,
      db,
      { type: "DIRECT_DEBIT", items: [expired, justValid], params: { date: today, earliest }, emptyMessage: "nichts" },
      DEMO_USERS.finance,
    );
    if (outcome.status !== "started") throw new Error(outcome.status);
    await deliver(messages);
    const items = await itemsOf(outcome.job.id);
    expect(items.map((item) => item.personId)).toEqual([justValid]);

    // The mandate's dialog warns (it runs out before the next collection day).
    expect(await page(`/people?dialog=mandate-person&dialogId=${expired}`)).toMatch(/Läuft am \d\d\.\d\d\.\d{4} ab|Abgelaufen seit/);
    await db
      .update(schema.sepaMandates)
      .set({ previousUseOn: addMonthsToDate(today, -37), mandateDate: addMonthsToDate(today, -40) })
      .where(eq(schema.sepaMandates.personId, expired));
    expect(await page(`/people?dialog=mandate-person&dialogId=${expired}`)).toContain("Abgelaufen seit");
  });
});

/** A run of exactly these people, delivered here; its transactions as the downloaded file has them, and the file's verdict. */
async function collectFrom(personIds: number[]) {
  const messages: Sent = [];
  const collecting = { JOBS: { sendBatch: async (batch: Sent) => void messages.push(...batch) } } as unknown as Pick<Env, "JOBS">;
  const outcome = await startRun(
    collecting,
    db,
    { type: "DIRECT_DEBIT", items: personIds, params: { date: today, earliest }, emptyMessage: "nichts" },
    DEMO_USERS.finance,
  );
  if (outcome.status !== "started") throw new Error(outcome.status);
  await deliver(messages);
  await finished(outcome.job.id);
  const response = await fetchApp(`/directdebits/file/${outcome.job.id}`, { cookie: await loginCookie("finance") });
  const xml = await response.text();
  type Transaction = {
    Dbtr: { Nm: string };
    DbtrAcct: { Id: { IBAN: string } };
    DrctDbtTx: { MndtRltdInf: { MndtId: string; AmdmntInd?: string; AmdmntInfDtls?: Record<string, unknown> } };
  };
  const blocks = parser.parse(xml).Document.CstmrDrctDbtInitn.PmtInf as { PmtTpInf: { SeqTp: string }; DrctDbtTxInf: Transaction[] }[];
  const transactions = blocks.flatMap((block) => block.DrctDbtTxInf.map((transaction) => ({ ...transaction, sequenceType: block.PmtTpInf.SeqTp })));
  return { runId: outcome.job.id, xml, transactions, verdict: await validate(xml) };
}

describe("a mandate's changes (issue 31 item 4)", () => {
  const OLD_IBAN = "DE02120300000000202051"; // Deutsche Kreditbank, BLZ 120 300 00
  const SAME_BANK_IBAN = ibanWithCheckDigits("DE", "120300000000999999");
  const OTHER_BANK_IBAN = "DE89370400440532013000"; // Commerzbank, BLZ 370 400 44

  async function personWithMandate(lastName: string, reference: string, mandate: Partial<typeof schema.sepaMandates.$inferInsert> = {}) {
    const [{ id }] = await db.insert(schema.people).values({ firstName: "Test", lastName, memberTypeId: 1 }).returning({ id: schema.people.id });
    await db
      .insert(schema.sepaMandates)
      .values({ personId: id, accountHolder: `Test ${lastName}`, iban: OLD_IBAN, reference, mandateDate: "2026-01-02", ...mandate });
    return id;
  }
  const chargeFee = (personId: number, dueDate: string | null = null) =>
    db.insert(schema.fees).values({ personId, date: today, dueDate, text: "Trainingsstunde", amount: 1_500, openAmount: 1_500, sendInvoice: false });

  it("knows accounts at the same bank by their country and national bank code", () => {
    expect(isSameBank(OLD_IBAN, SAME_BANK_IBAN)).toBe(true);
    expect(isSameBank(OLD_IBAN, OTHER_BANK_IBAN)).toBe(false);
    expect(isSameBank("AT611904300234573201", "AT611904300234573201")).toBe(true);
    expect(isSameBank("AT611904300234573201", OLD_IBAN)).toBe(false);
  });

  it("a changed IBAN goes to the bank as an amendment with the next collection only: the old IBAN at the same bank, SMNDA at another; the series stays RCUR", async () => {
    const sameBank = await personWithMandate("Kontowechsel", "TEST-AMEND-1");
    const otherBank = await personWithMandate("Bankwechsel", "TEST-AMEND-2");
    await chargeFee(sameBank);
    await chargeFee(otherBank);
    const first = await collectFrom([sameBank, otherBank]);
    expect(first.transactions.map((transaction) => [transaction.sequenceType, transaction.DrctDbtTx.MndtRltdInf.AmdmntInd])).toEqual([
      ["FRST", undefined],
      ["FRST", undefined],
    ]);

    // The debtors give new accounts; one also a new name (no amendment attribute: just the new name).
    await db
      .update(schema.sepaMandates)
      .set({ iban: SAME_BANK_IBAN, accountHolder: "Test Kontowechsel-Neu" })
      .where(eq(schema.sepaMandates.personId, sameBank));
    await db.update(schema.sepaMandates).set({ iban: OTHER_BANK_IBAN, bic: "COBADEFFXXX" }).where(eq(schema.sepaMandates.personId, otherBank));
    await chargeFee(sameBank);
    await chargeFee(otherBank);
    const amended = await collectFrom([sameBank, otherBank]);
    expect(amended.verdict.output, amended.xml).toContain("validates");
    const byMandate = new Map(amended.transactions.map((transaction) => [transaction.DrctDbtTx.MndtRltdInf.MndtId, transaction]));
    expect(byMandate.get("TEST-AMEND-1")).toMatchObject({
      sequenceType: "RCUR",
      Dbtr: { Nm: "Test Kontowechsel-Neu" },
      DbtrAcct: { Id: { IBAN: SAME_BANK_IBAN } },
      DrctDbtTx: { MndtRltdInf: { AmdmntInd: "true", AmdmntInfDtls: { OrgnlDbtrAcct: { Id: { IBAN: OLD_IBAN } } } } },
    });
    expect(byMandate.get("TEST-AMEND-2")).toMatchObject({
      sequenceType: "RCUR",
      DbtrAcct: { Id: { IBAN: OTHER_BANK_IBAN } },
      DrctDbtTx: { MndtRltdInf: { AmdmntInd: "true", AmdmntInfDtls: { OrgnlDbtrAgt: { FinInstnId: { Othr: { Id: "SMNDA" } } } } } },
    });
    expect((await itemsOf(amended.runId)).map((item) => item.originalIban).sort()).toEqual([OLD_IBAN, OLD_IBAN]);

    // The bank knows the new accounts now: the collection after carries no amendment.
    await chargeFee(sameBank);
    await chargeFee(otherBank);
    const after = await collectFrom([sameBank, otherBank]);
    expect(after.transactions.map((transaction) => [transaction.sequenceType, transaction.DrctDbtTx.MndtRltdInf.AmdmntInd])).toEqual([
      ["RCUR", undefined],
      ["RCUR", undefined],
    ]);
  });

  it("a revoked mandate collects nothing from the day its revocation takes effect; the preview, a run named by hand and the dialog agree", async () => {
    const revokedNow = await personWithMandate("Widerruf", "TEST-REVOKE-1", { revokedOn: earliest, firstCollectionOn: "2026-02-02" });
    const revokedLater = await personWithMandate("Spaeterwiderruf", "TEST-REVOKE-2", { revokedOn: addDaysToDate(future, 1), firstCollectionOn: "2026-02-02" });
    await chargeFee(revokedNow);
    await chargeFee(revokedLater, future);

    const preview = await previewDirectDebits(db, today);
    expect(preview.revoked.find((person) => person.personId === revokedNow)).toEqual({
      personId: revokedNow,
      name: "Test Widerruf",
      fees: 1,
      total: 1_500,
      revokedOn: earliest,
      revocationReason: null,
    });
    expect(preview.revoked.map((person) => person.personId)).not.toContain(revokedLater);
    expect(preview.expired.map((person) => person.personId)).not.toContain(revokedNow);
    // A revocation is not 'läuft ab': the warning list leaves it out.
    expect(preview.expiring.map((person) => person.personId)).not.toContain(revokedLater);
    expect(await peopleToCollect(db, earliest)).toEqual(expect.arrayContaining([revokedLater]));
    expect(await peopleToCollect(db, earliest)).not.toContain(revokedNow);
    expect(await page("/directdebits?dialog=directDebit-start")).toMatch(
      /Mandat widerrufen oder gesperrt \(1 Person\)[\s\S]*Test Widerruf<\/a> – widerrufen zum/,
    );

    const run = await collectFrom([revokedNow, revokedLater]);
    expect(run.transactions.map((transaction) => transaction.DrctDbtTx.MndtRltdInf.MndtId)).toEqual(["TEST-REVOKE-2"]);
    expect(await page(`/people?dialog=mandate-person&dialogId=${revokedNow}`)).toContain("Widerrufen zum");
  });
});

describe("returned debits by their reason (issue 31 item 3)", () => {
  it("one statement with a return of each reason: the mandate blocked, the fee stopped, or presented once more; the bank's charge passed on where the debtor caused it", async () => {
    const table = [
      { code: "AC04", text: "Konto erloschen", blocks: true, stops: false, charged: true },
      { code: "AC06", text: "Konto gesperrt", blocks: true, stops: false, charged: true },
      { code: "MD01", text: "Kein gültiges Mandat", blocks: true, stops: false, charged: false },
      { code: "MD07", text: "Zahlungspflichtiger verstorben", blocks: true, stops: false, charged: false },
      { code: "MD06", text: "Erstattung auf Verlangen des Zahlungspflichtigen", blocks: false, stops: true, charged: false },
      { code: "MS02", text: "Widerspruch des Zahlungspflichtigen", blocks: false, stops: true, charged: false },
      { code: "AM04", text: "Deckung unzureichend", blocks: false, stops: false, charged: true },
    ];
    // The club passes the bank's charge of 3,50 € on (Einstellungen).
    await db.update(schema.configuration).set({ returnCharge: 350 }).where(eq(schema.configuration.id, 1));
    const cases: ((typeof table)[number] & { personId: number; mandate: typeof schema.sepaMandates.$inferSelect; fee: Fee })[] = [];
    for (const row of table) {
      const [{ id: personId }] = await db
        .insert(schema.people)
        .values({ firstName: "Rück", lastName: `Grund${row.code}`, memberTypeId: 1 })
        .returning({ id: schema.people.id });
      const [mandate] = await db
        .insert(schema.sepaMandates)
        .values({
          personId,
          accountHolder: `Rück ${row.code}`,
          iban: "DE02120300000000202051",
          reference: `TEST-RET-${row.code}`,
          mandateDate: "2026-01-02",
          firstCollectionOn: "2026-02-02",
        })
        .returning();
      const [fee] = await db
        .insert(schema.fees)
        .values({ personId, date: today, dueDate: today, text: "Trainingsstunde", amount: 2_000, openAmount: 2_000, sendInvoice: false })
        .returning();
      cases.push({ ...row, personId, mandate, fee });
    }
    await collectFrom(cases.map(({ personId }) => personId));
    const returnOf = async ({ fee, code }: (typeof cases)[number], round: string) => ({
      endToEndId: (await feeById(fee.id)).paymentReference!,
      amount: "20.00",
      reason: code,
      bankReference: `${round}-${code}`,
    });

    const entries = await importStatement(returnsStatement(await Promise.all(cases.map((row) => returnOf(row, "R1")))));
    expect(entries.map((entry) => [entry.proposal, entry.returnReason])).toEqual(table.map((row) => ["RETURN", row.code]));
    const booked = await postForm(
      `/bankstatements/${entries[0].importId}`,
      await loginCookie("finance"),
      Object.fromEntries([["intent", "book"], ...entries.map((entry) => [`choice-${entry.id}`, `FEE:${entry.targetId}`])]),
    );
    expect(booked.status).toBe(302);
    await db.update(schema.configuration).set({ returnCharge: 0 }).where(eq(schema.configuration.id, 1));
    // Booking the same statement again books nothing and charges nothing twice.
    await postForm(
      `/bankstatements/${entries[0].importId}`,
      await loginCookie("finance"),
      Object.fromEntries([["intent", "book"], ...entries.map((entry) => [`choice-${entry.id}`, `FEE:${entry.targetId}`])]),
    );

    const collectable = await peopleToCollect(db, earliest);
    const preview = await previewDirectDebits(db, today);
    for (const row of cases) {
      const why = `Rücklastschrift 23.11.2026 (${row.code} ${row.text})`;
      const fee = await feeById(row.fee.id);
      const mandate = (await getMandate(db, row.mandate.id))!;
      expect(fee.openAmount, row.code).toBe(2_000);
      expect(fee.paymentComments, row.code).toContain(why);
      expect(fee.collectionStop, row.code).toBe(row.stops ? why : null);
      expect([mandate.revokedOn, mandate.revocationReason], row.code).toEqual(row.blocks ? ["2026-11-23", why] : [null, null]);
      // Only insufficient funds is presented again; the others wait for staff (the fee is reminded).
      expect(collectable.includes(row.personId), row.code).toBe(row.code === "AM04");
      expect(
        preview.revoked.some((person) => person.personId === row.personId),
        row.code,
      ).toBe(row.blocks);
      const charges = await db
        .select()
        .from(schema.fees)
        .where(and(eq(schema.fees.personId, row.personId), like(schema.fees.text, "Rücklastschriftgebühr%")));
      expect(
        charges.map(({ text, amount, openAmount, sendInvoice, dueDate }) => ({ text, amount, openAmount, sendInvoice, dueDate })),
        row.code,
      ).toEqual(
        row.charged
          ? [{ text: `Rücklastschriftgebühr 23.11.2026 (${row.code} ${row.text})`, amount: 350, openAmount: 350, sendInvoice: false, dueDate: "2026-12-07" }]
          : [],
      );
    }
    // The Lastschriftläufe screen lists the returns with their reason in German and what followed.
    const screen = await page("/directdebits");
    for (const [code, consequence] of [
      ["AC04 Konto erloschen", "Mandat gesperrt"],
      ["MD06 Erstattung auf Verlangen des Zahlungspflichtigen", "kein weiterer Einzug"],
      ["AM04 Deckung unzureichend", "wird erneut eingezogen"],
    ])
      expect(screen).toMatch(new RegExp(`${code}</td><td[^>]*>${consequence}</td>`));
    expect(await page(`/people?dialog=mandate-person&dialogId=${cases[0].personId}`)).toContain(
      "Gesperrt ab 23.11.2026 nach Rücklastschrift 23.11.2026 (AC04 Konto erloschen)",
    );

    // Insufficient funds a second time: now the fee is stopped too.
    const am04 = cases.find((row) => row.code === "AM04")!;
    await collectFrom([am04.personId]);
    const [again] = await importStatement(returnsStatement([await returnOf(am04, "R2")]));
    expect(
      (await postForm(`/bankstatements/${again.importId}`, await loginCookie("finance"), { intent: "book", [`choice-${again.id}`]: `FEE:${again.targetId}` }))
        .status,
    ).toBe(302);
    expect((await feeById(am04.fee.id)).collectionStop).toBe("Rücklastschrift 23.11.2026 (AM04 Deckung unzureichend)");
    expect(await peopleToCollect(db, earliest)).not.toContain(am04.personId);

    // 'Wieder einziehen' (agreed with the person): the stopped fee goes back to the runs; not for a blocked mandate.
    const md06 = cases.find((row) => row.code === "MD06")!;
    const md06Entry = entries.find((entry) => entry.returnReason === "MD06")!;
    const ac04Entry = entries.find((entry) => entry.returnReason === "AC04")!;
    expect(await page(`/directdebits?dialog=directDebit-collectAgain&dialogId=${md06Entry.id}`)).toContain(
      "Nach einer Erstattung oder einem Widerspruch nur, wenn die Person zugestimmt hat",
    );
    expect(await page("/directdebits")).toContain(`dialog=directDebit-collectAgain&amp;dialogId=${md06Entry.id}`);
    const refused = await postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:collectAgain", id: String(ac04Entry.id) });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("nicht gestoppt");
    expect(
      (await postForm("/directdebits", await loginCookie("staff"), { intent: "directDebit:collectAgain", id: String(md06Entry.id) })).headers.get("Location"),
    ).toBe("/");
    const resumed = await postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:collectAgain", id: String(md06Entry.id) });
    expect(resumed.status).toBe(302);
    expect(toastOf(resumed)?.message).toContain("wird vom nächsten Lastschriftlauf wieder eingezogen");
    const freed = await feeById(md06.fee.id);
    expect(freed.collectionStop).toBeNull();
    expect(freed.paymentComments).toMatch(/Einzug wieder freigegeben \d\d\.\d\d\.\d{4} von .* \(war: Rücklastschrift 23\.11\.2026 \(MD06 /);
    expect(await peopleToCollect(db, earliest)).toContain(md06.personId);
  });
});

describe("pre-notification (issue 31 item 1)", () => {
  const start = async (collectionDate: string) => postForm("/directdebits", await loginCookie("finance"), { intent: "directDebit:start", collectionDate });

  it("a run dated too early is refused with the earliest allowed date named; one more than 12 months ahead too; nothing starts", async () => {
    const jobs = await db.$count(schema.jobs);
    const tooEarly = await start(formatDate(earliestCollectionDate(today)));
    expect(tooEarly.status).toBe(409);
    expect(await tooEarly.text()).toContain(`Der Einzug ist frühestens am ${formatDate(earliest)} möglich`);
    const tooLate = await start(formatDate(addDaysToDate(addMonthsToDate(today, 12), 3)));
    expect(tooLate.status).toBe(409);
    expect(await tooLate.text()).toContain(`spätestens am ${formatDate(addMonthsToDate(today, 12))}`);
    const impossible = await start("31.02.2027");
    expect(impossible.status).toBe(409);
    expect(await impossible.text()).toContain("Das Datum 31.02.2027 gibt es nicht");
    expect(await db.$count(schema.jobs)).toBe(jobs);
    // The preview names the window; a shorter period agreed in the settings moves it.
    expect(await page("/directdebits?dialog=directDebit-start")).toContain(`Zwischen ${formatDate(earliest)} und ${formatDate(addMonthsToDate(today, 12))}`);
    await db.update(schema.configuration).set({ prenotificationDays: 1 }).where(eq(schema.configuration.id, 1));
    try {
      expect((await previewDirectDebits(db, today)).earliest).toBe(earliestCollectionDate(today));
    } finally {
      await db.update(schema.configuration).set({ prenotificationDays: DEFAULT_NOTICE_DAYS }).where(eq(schema.configuration.id, 1));
    }
  });

  it("every debtor is notified before the file is written, by mail or by letter, once each even if the run is retried", async () => {
    const address = await useTestAccount("vorab");
    const [withMail, withoutMail] = await Promise.all(
      [
        { lastName: "Mailbar", email: "mailbar@example.org", reference: "TEST-NOTICE-1" },
        { lastName: "Briefling", email: null, reference: "TEST-NOTICE-2" },
      ].map(async ({ lastName, email, reference }) => {
        const [{ id }] = await db
          .insert(schema.people)
          .values({ firstName: "Vera", lastName, email, memberTypeId: 1, streetNumber: "Hauptstr. 1", zip: "35037", city: "Marburg" })
          .returning({ id: schema.people.id });
        await db
          .insert(schema.sepaMandates)
          .values({ personId: id, accountHolder: `Vera ${lastName}`, iban: "DE02120300000000202051", reference, mandateDate: "2026-01-02" });
        await db.insert(schema.fees).values({ personId: id, date: today, text: "Trainingsstunde", amount: 1_500, openAmount: 1_500, sendInvoice: false });
        return id;
      }),
    );
    const messages: Sent = [];
    const collecting = { JOBS: { sendBatch: async (batch: Sent) => void messages.push(...batch) } } as unknown as Pick<Env, "JOBS">;
    const outcome = await startRun(
      collecting,
      db,
      { type: "DIRECT_DEBIT", items: [withMail, withoutMail], params: { date: today, earliest }, emptyMessage: "nichts" },
      DEMO_USERS.finance,
    );
    if (outcome.status !== "started") throw new Error(outcome.status);
    await deliver(messages);
    const job = await finished(outcome.job.id);
    expect(job.message).toMatch(/Vorabankündigungen: 1 per Mail, 1 Brief zum Drucken/);
    const notices = await db.select().from(schema.directDebitNotices).where(eq(schema.directDebitNotices.runId, job.id));
    expect(notices.map(({ personId, channel, mailProblem }) => ({ personId, channel, mailProblem }))).toEqual(
      expect.arrayContaining([
        { personId: withMail, channel: "MAIL", mailProblem: null },
        { personId: withoutMail, channel: "PRINT", mailProblem: null },
      ]),
    );
    // The mail went out before the file was written (stored in R2 once every item is settled).
    const [logged] = await db
      .select()
      .from(schema.mailLog)
      .where(and(eq(schema.mailLog.jobId, job.id), eq(schema.mailLog.kind, "DEBIT_NOTICE")));
    expect(logged).toMatchObject({ personId: withMail, status: "SENT", intendedRecipient: "mailbar@example.org" });
    const file = await env.INVOICES.head((await runOf(job.id)).fileKey!);
    expect(logged.sentOn! <= file!.uploaded.toISOString()).toBe(true);
    const [club] = await db.select().from(schema.configuration);
    const [mail] = await mailsTo(address);
    // The common mail variables stay as they are ({{club}} the club's name, {{greeting}} the person's).
    expect(mail.subject).toMatch(new RegExp(`^Vorabankündigung: SEPA-Lastschrift von \\S.* ab ${formatDate(earliest).replaceAll(".", "\\.")}$`));
    expect(mail.text).toMatch(/^Hallo Vera,\n/);
    expect(mail.text).toMatch(/Viele Grüße\n\S/);
    for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toContain("[object Object]");
    for (const text of [`am ${formatDate(earliest)}: 15,00 €`, "TEST-NOTICE-1", club.creditorId!, "DE02 **** **** **** **20 51"]) {
      expect(mail.text.replaceAll("\u00a0", " ")).toContain(text);
    }

    // The queue delivers the same messages again: nothing is mailed or recorded twice.
    await deliver(messages);
    expect(await mailsTo(address)).toHaveLength(1);
    expect(await db.$count(schema.directDebitNotices, eq(schema.directDebitNotices.runId, job.id))).toBe(2);

    // The letter to post: in the run's print PDF; the screen offers it.
    const screen = await page("/directdebits");
    expect(screen).toContain(`/directdebits/letters/${job.id}`);
    const letters = await fetchApp(`/directdebits/letters/${job.id}`, { cookie: await loginCookie("finance") });
    expect(letters.status).toBe(200);
    expect(letters.headers.get("Content-Type")).toBe("application/pdf");
    expect(new TextDecoder().decode((await letters.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    expect((await fetchApp(`/directdebits/letters/${job.id}`, { cookie: await loginCookie("staff") })).status).not.toBe(200);
  });

  it("a notice whose mail cannot go out becomes a letter, with the reason: no collection without its notice", async () => {
    const [{ id }] = await db
      .insert(schema.people)
      .values({ firstName: "Max", lastName: "Ohnevorlage", email: "max@example.org", memberTypeId: 1 })
      .returning({ id: schema.people.id });
    await db
      .insert(schema.sepaMandates)
      .values({ personId: id, accountHolder: "Max Ohnevorlage", iban: "DE02120300000000202051", reference: "TEST-NOTICE-3", mandateDate: "2026-01-02" });
    await db.insert(schema.fees).values({ personId: id, date: today, text: "Trainingsstunde", amount: 900, openAmount: 900, sendInvoice: false });
    await db.update(schema.templates).set({ name: "Vorabankündigung (weg)" }).where(eq(schema.templates.name, "Vorabankündigung Lastschrift"));
    try {
      const { runId } = await collectFrom([id]);
      const [notice] = await db.select().from(schema.directDebitNotices).where(eq(schema.directDebitNotices.runId, runId));
      expect(notice).toMatchObject({
        personId: id,
        channel: "PRINT",
        mailProblem: expect.stringContaining("Die Mailvorlage „Vorabankündigung Lastschrift“ gibt es nicht"),
      });
    } finally {
      await db.update(schema.templates).set({ name: "Vorabankündigung Lastschrift" }).where(eq(schema.templates.name, "Vorabankündigung (weg)"));
    }
  });
});
