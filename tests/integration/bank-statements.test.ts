/**
 * Kontoauszug importieren (issue 15 item 5): CAMT.053 and MT940 read into cents, references and
 * names; matching (exact, partial, ambiguous, unmatched); the demo statement imported twice with
 * each payment booked once; a returned direct debit reopening its fee; malformed uploads refused
 * in German with nothing stored; STAFF and GDPR refused on the server.
 */
import { env } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { centsOf, parseStatement, StatementError } from "~/lib/bank-statements.server";
import { todayInBerlin } from "~/lib/format";
import { invoiceNumbersIn, proposeFor, statementAccountIban } from "~/models/bank-statements.server";
import camt053Fixture from "../fixtures/camt053-demo.xml?raw";
import mt940Fixture from "../fixtures/mt940-demo.sta?raw";
import { fetchApp, postForm, toastOf } from "../support/app";
import { camtWith } from "../support/camt";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";
import { ISSUED } from "../support/invoices";

const db = createDb(env.DB);

/** The demo data numbers its invoices from the current year ({year}001, ...): the fixtures name
 *  those of 2026, and are read with the current year's numbers. */
const demoYear = Number(todayInBerlin().slice(0, 4));
const inv = (n: number) => demoYear * 1000 + n;
const forDemoYear = (text: string) => text.replace(/\b2026(\d{3})\b/g, (_, n: string) => String(inv(Number(n))));
const camt053 = forDemoYear(camt053Fixture);
const mt940 = forDemoYear(mt940Fixture);
let data: Awaited<ReturnType<typeof loadDemoData>>;

const upload = async (content: BlobPart, name: string, who: "finance" | "admin" | "staff" | "gdpr" = "finance") => {
  const form = new FormData();
  form.set("file", new File([content], name));
  return fetchApp("/bankstatements", { method: "POST", cookie: await loginCookie(who), body: form });
};
const counts = async () => ({
  imports: await db.$count(schema.bankStatementImports),
  entries: await db.$count(schema.bankStatementEntries),
  invoices: JSON.stringify(
    await db
      .select({ id: schema.invoiceHeaders.id, open: schema.invoiceHeaders.openAmount, comments: schema.invoiceHeaders.paymentComments })
      .from(schema.invoiceHeaders),
  ),
});
const invoiceByNumber = async (invoiceNumber: number) =>
  (await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.invoiceNumber, invoiceNumber)))[0];
const entriesOf = (importId: number) =>
  db.select().from(schema.bankStatementEntries).where(eq(schema.bankStatementEntries.importId, importId)).orderBy(schema.bankStatementEntries.position);
const importIdOf = (response: Response) => Number(/^\/bankstatements\/(\d+)$/.exec(response.headers.get("Location") ?? "")?.[1]);
const page = async (path: string) => (await (await fetchApp(path, { cookie: await loginCookie("finance") })).text()).replaceAll("<!-- -->", "");

/** The fee the return in the fixtures gives back: a direct debit collected it (end-to-end id as its payment reference).
 *  The id names run 0, which never exists: in the demo itself the return is unmatched on purpose. */
const COLLECTED_FEE_REFERENCE = "WUFF-0-41-20261102";
let collectedFee: typeof schema.fees.$inferSelect;

beforeAll(async () => {
  data = await loadDemoData();
  const fee = data.fees.find((item) => !item.sendInvoice && item.amount! > 0 && item.openAmount === item.amount)!;
  // Collected by a direct debit outside a run: a journal entry 'Lastschrift' paid it (issue 30).
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO payments (entry_key, person_id, date, amount, method, source, source_ref, text, created_by, created_on) VALUES ('test:collected', ?1, '2026-11-02', ?2, 'DIRECT_DEBIT', 'DIRECT_DEBIT', ?3, 'Lastschrift', 'Test', '2026-11-02T08:00:00Z')",
    ).bind(fee.personId, fee.amount, COLLECTED_FEE_REFERENCE),
    env.DB.prepare(
      "INSERT INTO payment_allocations (payment_id, fee_id, amount, created_by, created_on) SELECT id, ?1, amount, 'Test', created_on FROM payments WHERE entry_key = 'test:collected'",
    ).bind(fee.id),
  ]);
  [collectedFee] = await db
    .update(schema.fees)
    .set({ dueDate: null, paymentReference: COLLECTED_FEE_REFERENCE, paymentComments: "Lastschrift 01.11.2026" })
    .where(eq(schema.fees.id, fee.id!))
    .returning();
});

describe("reading statements", () => {
  it("CAMT.053 (.08): amounts in cents from the text, references, names, the return and its reason", () => {
    const statement = parseStatement(camt053);
    expect(statement).toMatchObject({ format: "CAMT053", accountIban: "DE89370400440532013000", statementId: "2026-11-23-0001" });
    expect(statement.transactions.map((t) => [t.direction, t.amount, t.counterpartyName, t.remittance])).toEqual([
      ["CRDT", 3500, "Quentin Baumeister", `ReNr ${inv(1)} Hundeschule`],
      ["CRDT", 5000, "Christiano Gesell", `RE-NR. ${inv(2)} erste Rate`],
      ["CRDT", 10000, "Alex Dauth", `ReNr ${inv(4)} und ReNr ${inv(5)}`],
      ["CRDT", 2000, "Erika Mustermann", "Spende Sommerfest"],
      ["DBIT", 12000, "Lotte Halter", "Kursgebuehr Welpengruppe"],
      ["DBIT", 490, null, "Kontofuehrung November"],
    ]);
    expect(statement.transactions[0]).toMatchObject({
      bankReference: "DEMO2026112300001",
      endToEndId: null,
      bookingDate: "2026-11-23",
      counterpartyIban: "DE02120300000000202051",
    });
    expect(statement.transactions[4]).toMatchObject({ isReturn: true, returnReason: "MD06", endToEndId: COLLECTED_FEE_REFERENCE, mandateId: "WUFF-41-1" });
    expect(statement.transactions[5].isReturn).toBe(false);
  });

  it("CAMT.053 (.02): Dbtr/Nm without Pty, the amount of each transaction of a batch booking", () => {
    const statement = parseStatement(`<?xml version="1.0"?>
      <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Id>S1</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>
      <Ntry><Amt Ccy="EUR">1234567.8</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-01-02</Dt></BookgDt>
        <NtryDtls><TxDtls><AmtDtls><TxAmt><Amt Ccy="EUR">0.10</Amt></TxAmt></AmtDtls><RltdPties><Dbtr><Nm>A &amp; B</Nm></Dbtr></RltdPties><RmtInf><Ustrd>ReNr 1</Ustrd></RmtInf></TxDtls>
        <TxDtls><AmtDtls><TxAmt><Amt Ccy="EUR">1234567.70</Amt></TxAmt></AmtDtls><RltdPties><Dbtr><Nm>C</Nm></Dbtr></RltdPties></TxDtls></NtryDtls></Ntry>
      <Ntry><Amt Ccy="EUR">5.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>PDNG</Sts></Ntry>
      </Stmt></BkToCstmrStmt></Document>`);
    expect(statement.transactions.map((t) => [t.amount, t.counterpartyName, t.bookingDate])).toEqual([
      [10, "A & B", "2026-01-02"],
      [123456770, "C", "2026-01-02"],
    ]);
  });

  it("MT940 with the German field 86: GVC, ?20-?29 remittance with SEPA tags, ?32 name, GVC 109 as a return", () => {
    const statement = parseStatement(mt940);
    expect(statement).toMatchObject({ format: "MT940", accountIban: "37040044/0532013000", statementId: "STARTUMS/221/1" });
    expect(statement.transactions.map((t) => [t.direction, t.amount, t.bookingDate, t.counterpartyName, t.remittance])).toEqual([
      ["CRDT", 8000, "2026-11-24", "Rosalie Daudrich", `ReNr ${inv(6)} Welpenkurs`],
      ["CRDT", 3000, "2026-11-24", "Marisa Dittmer", `Rechnung ${inv(5)} Teilzahlung`],
      ["CRDT", 1550, "2026-11-24", "FRITZ FREMD", "Mitgliedsbeitrag Fritz Fremd"],
      ["DBIT", 12000, "2026-11-24", "Lotte Halter", "Kursgebuehr Welpengruppe RET MD06"],
    ]);
    expect(statement.transactions[0].counterpartyIban).toBe("DE02120300000000202051");
    expect(statement.transactions[3]).toMatchObject({ isReturn: true, returnReason: "MD06", endToEndId: COLLECTED_FEE_REFERENCE, mandateId: "WUFF-41-1" });
  });

  it("the sample's return names a run that never exists: without a fee of that reference it is proposed unmatched", () => {
    const ret = parseStatement(camt053).transactions[4];
    expect(ret.endToEndId).toMatch(/^WUFF-0-\d+-\d{8}$/);
    expect(proposeFor(ret, { invoicesByNumber: new Map(), referencedFees: [] }, new Map())).toEqual({
      proposal: "RETURN",
      target: null,
      candidates: [],
      note: "Kein Posten mit dieser Lastschrift-Referenz gefunden.",
    });
  });

  it("cents never through a float; invoice numbers in the usual spellings", () => {
    expect([centsOf("0.29"), centsOf("1,1"), centsOf("19.99"), centsOf("1200"), centsOf("-1.00"), centsOf("1.999")]).toEqual([
      29,
      110,
      1999,
      120000,
      null,
      null,
    ]);
    expect(
      invoiceNumbersIn({ remittance: `ReNr ${inv(1)}, RE-NR. ${inv(2)} Rechnung ${inv(3)} Rechnungsnr.:${inv(4)} Referenz ${inv(9)}`, endToEndId: null }),
    ).toEqual([inv(1), inv(2), inv(3), inv(4)]);
  });

  it.each([
    ["empty", "", 400],
    ["not a statement", "Hallo Kassenwart", 415],
    ["not XML", "<Document><Stmt>", 415],
    ["a DOCTYPE", `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"/>`, 415],
    ["camt.054", `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn/></Document>`, 422],
    ["pain.001", `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn/></Document>`, 422],
    ["a bad :61: line", ":20:X\n:25:DE89370400440532013000\n:61:2611AB\n", 422],
  ])("refuses %s with a German message", (_, text, status) => {
    let error: unknown;
    try {
      parseStatement(text);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(StatementError);
    expect((error as StatementError).status).toBe(status);
    expect((error as StatementError).message).toMatch(/Datei|Kontoauszug|Buchung/);
  });
});

describe("importing and booking the demo statement", () => {
  let importId: number;

  it("proposes: exact ReNr, ReNr with a partial amount, ambiguous, unmatched, the return to its fee, the bank's fee ignored", async () => {
    const response = await upload(camt053, "camt053-demo.xml");
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe("6 Buchungen importiert. Bitte die Zuordnungen prüfen und buchen.");
    importId = importIdOf(response);
    const entries = await entriesOf(importId);
    const [i1, i2, i4, i5] = await Promise.all([inv(1), inv(2), inv(4), inv(5)].map(invoiceByNumber));
    expect(entries.map((e) => [e.proposal, e.targetType, e.targetId])).toEqual([
      ["MATCHED", "INVOICE", i1.id],
      ["MATCHED", "INVOICE", i2.id],
      ["AMBIGUOUS", null, null],
      ["UNMATCHED", null, null],
      ["RETURN", "FEE", collectedFee.id],
      ["IGNORED", null, null],
    ]);
    expect(JSON.parse(entries[2].candidates!)).toEqual([
      { type: "INVOICE", id: i4.id },
      { type: "INVOICE", id: i5.id },
    ]);
    expect(entries[1].note).toBe("Teilzahlung: offen bleiben 75,00\u00a0€.");
    expect(entries.every((e) => e.status === "OPEN")).toBe(true);

    const html = await page(`/bankstatements/${importId}`);
    for (const label of ["Zugeordnet", "Mehrdeutig", "Nicht zugeordnet", "Rücklastschrift", "Belastung"]) expect(html).toContain(label);
    expect(html).toContain(`href="/invoices/${i1.id}/invoicerows"`);
  });

  it("a second import of the same file finds every booking 'bereits importiert' and stores none again", async () => {
    const before = await counts();
    const response = await upload(camt053, "camt053-demo-nochmal.xml");
    expect(toastOf(response)?.message).toBe("Alle 6 Buchungen dieses Kontoauszugs sind bereits importiert: nichts Neues zu buchen.");
    const after = await counts();
    expect(after.entries).toBe(before.entries);
    expect(after.invoices).toBe(before.invoices);
    expect(after.imports).toBe(before.imports + 1);
    expect(await entriesOf(importIdOf(response))).toHaveLength(0);
  });

  it("a choice that was not proposed is refused and books nothing", async () => {
    const entries = await entriesOf(importId);
    const before = await counts();
    const response = await postForm(`/bankstatements/${importId}`, await loginCookie("finance"), {
      intent: "book",
      [`choice-${entries[0].id}`]: `FEE:${collectedFee.id}`,
    });
    expect(response.status).toBe(422);
    expect(await response.text()).toContain("Diese Zuordnung wurde nicht vorgeschlagen");
    expect(await counts()).toEqual(before);
  });

  it("'Buchen' books the chosen ones in one go: invoices paid or reduced, comments, the settled invoice's fees, the return reopens its fee", async () => {
    const entries = await entriesOf(importId);
    const [i1, i5] = await Promise.all([inv(1), inv(5)].map(invoiceByNumber));
    const response = await postForm(`/bankstatements/${importId}`, await loginCookie("finance"), {
      intent: "book",
      [`choice-${entries[0].id}`]: `INVOICE:${i1.id}`,
      [`choice-${entries[1].id}`]: `INVOICE:${entries[1].targetId}`,
      [`choice-${entries[2].id}`]: `INVOICE:${i5.id}`,
      [`choice-${entries[3].id}`]: "",
      [`choice-${entries[4].id}`]: `FEE:${collectedFee.id}`,
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe("4 Buchungen gebucht (185,00\u00a0€ Zahlungseingang).");

    const paid = await invoiceByNumber(inv(1));
    expect(paid.openAmount).toBe(0);
    expect(paid.paymentComments).toBe(`Bank 23.11.2026: 35,00\u00a0€ Quentin Baumeister ReNr ${inv(1)} Hundeschule`);
    expect(paid.rowVersion).toBe(i1.rowVersion + 1);
    const billed = await db.select().from(schema.invoiceRows).where(eq(schema.invoiceRows.invoiceId, paid.id));
    const billedFees = await db
      .select()
      .from(schema.fees)
      .where(
        inArray(
          schema.fees.id,
          billed.map((row) => row.feeId!),
        ),
      );
    expect(billedFees.every((fee) => fee.openAmount === 0 && fee.paymentReference === `ReNr ${inv(1)}`)).toBe(true);
    expect((await invoiceByNumber(inv(2))).openAmount).toBe(12500 - 5000);
    expect((await invoiceByNumber(inv(5))).openAmount).toBe(13000 - 10000);
    expect((await invoiceByNumber(inv(4))).openAmount).toBe(9000);

    const reopened = (await db.select().from(schema.fees).where(eq(schema.fees.id, collectedFee.id)))[0];
    expect(reopened.openAmount).toBe(Math.min(collectedFee.amount, 12000));
    expect(reopened.paymentComments).toBe("Lastschrift 01.11.2026; Rücklastschrift 23.11.2026 (MD06 Erstattung auf Verlangen des Zahlungspflichtigen)");
    // The debtor asked for a refund: no run collects it again, it is reminded instead (issue 31 item 3).
    expect(reopened.collectionStop).toBe("Rücklastschrift 23.11.2026 (MD06 Erstattung auf Verlangen des Zahlungspflichtigen)");
    expect(reopened.dueDate).toBe("2026-11-23");

    const after = await entriesOf(importId);
    expect(after.map((e) => e.status)).toEqual(["BOOKED", "BOOKED", "BOOKED", "OPEN", "BOOKED", "OPEN"]);
    expect(after.map((e) => e.applied)).toEqual([3500, 5000, 10000, null, Math.min(collectedFee.amount, 12000), null]);
    expect(await page(`/bankstatements/${importId}`)).toContain("Gebucht");
  });

  it("posting 'Buchen' again and importing the file again book nothing twice", async () => {
    const before = await counts();
    const fee = async () => (await db.select().from(schema.fees).where(eq(schema.fees.id, collectedFee.id)))[0];
    const feeBefore = await fee();
    const entries = await entriesOf(importId);
    const again = await postForm(`/bankstatements/${importId}`, await loginCookie("finance"), {
      intent: "book",
      [`choice-${entries[0].id}`]: `INVOICE:${entries[0].targetId}`,
      [`choice-${entries[4].id}`]: `FEE:${collectedFee.id}`,
    });
    expect(again.status).toBe(422);
    expect(await again.text()).toContain("Es wurde nichts gebucht");
    await upload(camt053, "camt053-demo.xml");
    expect((await counts()).invoices).toBe(before.invoices);
    expect((await counts()).entries).toBe(before.entries);
    expect(await fee()).toEqual(feeBefore);
  });

  it("an unmatched credit is booked to an invoice number typed in; an overpayment is reported, not booked beyond the open amount", async () => {
    const entries = await entriesOf(importId);
    // Invoice {year}005 has 30,00 € open; the donation of 20,00 € goes there, then nothing is left over.
    const response = await postForm(`/bankstatements/${importId}`, await loginCookie("admin"), {
      intent: "book",
      [`choice-${entries[3].id}`]: "",
      [`invoice-${entries[3].id}`]: `${inv(5)}`,
    });
    expect(response.status).toBe(302);
    expect((await invoiceByNumber(inv(5))).openAmount).toBe(1000);

    const mt = await upload(mt940, "mt940-demo.sta", "admin");
    const mtEntries = await entriesOf(importIdOf(mt));
    const i6 = await invoiceByNumber(inv(6));
    expect(mtEntries.map((e) => [e.proposal, e.targetType, e.targetId])).toEqual([
      ["MATCHED", "INVOICE", i6.id],
      ["MATCHED", "INVOICE", (await invoiceByNumber(inv(5))).id],
      ["UNMATCHED", null, null],
      ["RETURN", "FEE", collectedFee.id],
    ]);
    expect(mtEntries[1].note).toBe("Überzahlung: 20,00\u00a0€ mehr als offen, wird nicht gebucht.");
    const booked = await postForm(`/bankstatements/${importIdOf(mt)}`, await loginCookie("admin"), {
      intent: "book",
      [`choice-${mtEntries[0].id}`]: `INVOICE:${i6.id}`,
      [`choice-${mtEntries[1].id}`]: `INVOICE:${mtEntries[1].targetId}`,
    });
    expect(toastOf(booked)?.message).toBe(
      `2 Buchungen gebucht (110,00\u00a0€ Zahlungseingang). Rechnung ${inv(5)}: 20,00\u00a0€ Überzahlung als Guthaben der Person gebucht.`,
    );
    expect((await invoiceByNumber(inv(5))).openAmount).toBe(0);
    expect((await invoiceByNumber(inv(6))).openAmount).toBe(0);
  });
});

describe("malformed uploads and roles", () => {
  it.each([
    ["not XML", "<Document><Ntry>", "kaputt.xml", 415, "kein gültiges XML"],
    [
      "camt.054",
      `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn/></Document>`,
      "avis.xml",
      422,
      "camt.054",
    ],
    [
      "pain.008",
      `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.008.001.08"><CstmrDrctDbtInitn/></Document>`,
      "lastschrift.xml",
      422,
      "kein Kontoauszug im Format CAMT.053",
    ],
    ["an empty file", "", "leer.sta", 400, "Die Datei ist leer"],
    ["a text file", "Kontostand: 100 Euro", "notiz.txt", 415, "weder ein Kontoauszug"],
    ["20 MB", new Uint8Array(20 * 1024 * 1024).fill(60), "riesig.xml", 413, "zu groß"],
  ])("%s: German 4xx, nothing stored", async (_, content, name, status, message) => {
    const before = await counts();
    const response = await upload(content, name);
    expect(response.status).toBe(status);
    expect(await response.text()).toContain(message);
    expect(await counts()).toEqual(before);
  });

  it("a statement of another account than the club's (Einstellungen) is refused in German (422), nothing stored", async () => {
    expect(statementAccountIban("37040044/0532013000")).toBe("DE89370400440532013000");
    expect(statementAccountIban("de89 3704 0044 0532 0130 00")).toBe("DE89370400440532013000");
    const before = await counts();
    const response = await upload(camtWith([{ ref: "FREMD-1", cents: 3_500, text: `ReNr ${inv(1)}` }], "DE02120300000000202051"), "fremdes-konto.xml");
    expect(response.status).toBe(422);
    expect(await response.text()).toContain(
      "Der Kontoauszug ist für das Konto DE02 1203 0000 0000 2020 51, nicht für das Vereinskonto DE89 3704 0044 0532 0130 00 (Einstellungen): Es wurde nichts importiert.",
    );
    const mt = await upload(mt940.replace(":25:37040044/0532013000", ":25:12030000/0000202051"), "fremd.sta");
    expect(mt.status).toBe(422);
    expect(await counts()).toEqual(before);
  });

  it("a post without a file is refused in German", async () => {
    const response = await postForm("/bankstatements", await loginCookie("finance"), { intent: "upload" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Bitte eine Datei mit dem Kontoauszug auswählen");
  });

  it.each(["staff", "gdpr"] as const)("%s may neither open, upload nor book (refused on the server)", async (who) => {
    const before = await counts();
    const response = await upload(camt053, "camt053-demo.xml", who);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    const [firstImport] = await db.select().from(schema.bankStatementImports).limit(1);
    const book = await postForm(`/bankstatements/${firstImport.id}`, await loginCookie(who), { intent: "book" });
    expect(book.headers.get("Location")).toBe("/");
    expect((await fetchApp("/bankstatements", { cookie: await loginCookie(who) })).headers.get("Location")).toBe("/");
    expect(await counts()).toEqual(before);
  });

  it("the Kontenblatt links to the import for ADMIN and FINANCE", async () => {
    expect(await page("/fees")).toMatch(/href="\/bankstatements"[^>]*>Kontoauszug importieren/);
  });
});

describe("a reminder paid as its GiroCode asks: the item and its reminder fees from one credit", () => {
  type Fee = typeof schema.fees.$inferSelect;
  let invoice: typeof schema.invoiceHeaders.$inferSelect;
  let invoiceReminderFee: Fee, directFee: Fee, directReminderFee: Fee;
  let statement: string;
  const feeNow = async (id: number) => (await db.select().from(schema.fees).where(eq(schema.fees.id, id)))[0];
  const invoiceNow = async () => (await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, invoice.id)))[0];

  beforeAll(async () => {
    const [person] = await db.insert(schema.people).values({ firstName: "Mia", lastName: "Mahnung", memberTypeId: 1 }).returning();
    [invoice] = await db
      .insert(schema.invoiceHeaders)
      .values({ personId: person.id, invoiceNumber: inv(901), ...ISSUED, date: "2026-09-01", dueDate: "2026-09-15", amount: 5_000, openAmount: 5_000 })
      .returning();
    const fee = (values: Partial<typeof schema.fees.$inferInsert>) =>
      db
        .insert(schema.fees)
        .values({ personId: person.id, date: "2026-09-01", text: "Kursgebühr", amount: 2_000, openAmount: 2_000, sendInvoice: false, ...values })
        .returning()
        .then(([row]) => row);
    invoiceReminderFee = await fee({
      text: `Mahngebühr 1. Mahnung: Rechnung ${inv(901)}`,
      amount: 500,
      openAmount: 500,
      kind: "REMINDER",
      remindedInvoiceId: invoice.id,
    });
    directFee = await fee({});
    directReminderFee = await fee({ text: "Mahngebühr 1. Mahnung: Kursgebühr", amount: 300, openAmount: 300, kind: "REMINDER", remindedFeeId: directFee.id });
    statement = camtWith([
      // What the reminder's GiroCode asks for: 50,00 € and 5,00 €.
      { ref: "MAHNUNG-1", cents: 5_500, text: `ReNr ${inv(901)}` },
      // 20,00 € and 3,00 €, and a euro too much.
      { ref: "MAHNUNG-2", cents: 2_400, text: `Posten ${directFee.id} Kursgebuehr` },
    ]);
  });

  it("proposes the item, saying what goes to the reminder fees; books both in one go, the excess reported", async () => {
    const response = await upload(statement, "mahnung.xml");
    expect(response.status).toBe(302);
    const importId = importIdOf(response);
    const entries = await entriesOf(importId);
    expect(entries.map((e) => [e.proposal, e.targetType, e.targetId, e.note])).toEqual([
      ["MATCHED", "INVOICE", invoice.id, "Mit Mahngebühr: 5,00\u00a0€ davon für die Mahngebühren."],
      ["MATCHED", "FEE", directFee.id, "Mit Mahngebühr: 3,00\u00a0€ davon für die Mahngebühren. Überzahlung: 1,00\u00a0€ mehr als offen, wird nicht gebucht."],
    ]);

    const booked = await postForm(`/bankstatements/${importId}`, await loginCookie("finance"), {
      intent: "book",
      [`choice-${entries[0].id}`]: `INVOICE:${invoice.id}`,
      [`choice-${entries[1].id}`]: `FEE:${directFee.id}`,
    });
    expect(booked.status).toBe(302);
    expect(toastOf(booked)?.message).toBe(
      `2 Buchungen gebucht (79,00\u00a0€ Zahlungseingang). Posten ${directFee.id} (Kursgebühr): 1,00\u00a0€ Überzahlung als Guthaben der Person gebucht.`,
    );
    expect((await invoiceNow()).openAmount).toBe(0);
    const [reminderOfInvoice, fee, reminderOfFee] = await Promise.all([invoiceReminderFee, directFee, directReminderFee].map((item) => feeNow(item.id)));
    expect([reminderOfInvoice.openAmount, fee.openAmount, reminderOfFee.openAmount]).toEqual([0, 0, 0]);
    expect(reminderOfInvoice.paymentComments).toBe(`Bank 25.11.2026: 55,00\u00a0€ Mitglied ReNr ${inv(901)}`);
    expect(reminderOfFee.paymentComments).toBe(`Bank 25.11.2026: 24,00\u00a0€ Mitglied Posten ${directFee.id} Kursgebuehr`);
    expect((await entriesOf(importId)).map((e) => [e.status, e.applied])).toEqual([
      ["BOOKED", 5_500],
      ["BOOKED", 2_300],
    ]);
  });

  it("what is open when 'Buchen' is pressed counts, not what the review showed: a reminder fee partly paid meanwhile takes only its rest", async () => {
    await db.update(schema.invoiceHeaders).set({ openAmount: 5_000 }).where(eq(schema.invoiceHeaders.id, invoice.id));
    await db.update(schema.fees).set({ openAmount: 500 }).where(eq(schema.fees.id, invoiceReminderFee.id));
    const response = await upload(camtWith([{ ref: "MAHNUNG-3", cents: 5_500, text: `ReNr ${inv(901)}` }]), "mahnung-2.xml");
    const importId = importIdOf(response);
    const [entry] = await entriesOf(importId);
    expect(entry.note).toBe("Mit Mahngebühr: 5,00\u00a0€ davon für die Mahngebühren.");
    // Meanwhile 3,00 € of the reminder fee were paid in cash (typed into the Kontenblatt).
    await db.update(schema.fees).set({ openAmount: 200 }).where(eq(schema.fees.id, invoiceReminderFee.id));
    const booked = await postForm(`/bankstatements/${importId}`, await loginCookie("finance"), {
      intent: "book",
      [`choice-${entry.id}`]: `INVOICE:${invoice.id}`,
    });
    expect(booked.status).toBe(302);
    expect(toastOf(booked)?.message).toBe(
      `1 Buchung gebucht (55,00\u00a0€ Zahlungseingang). Rechnung ${inv(901)}: 3,00\u00a0€ Überzahlung als Guthaben der Person gebucht.`,
    );
    expect([(await invoiceNow()).openAmount, (await feeNow(invoiceReminderFee.id)).openAmount]).toEqual([0, 0]);
    expect((await entriesOf(importId))[0].applied).toBe(5_200);
  });
});

describe("matching by mandate reference ('WUFF-{person}-{n}') and by fee number ('Posten {id}')", () => {
  type Fee = typeof schema.fees.$inferSelect;
  let mandate: { reference: string; personId: number };
  let single: Fee, twinA: Fee, twinB: Fee, partA: Fee, partB: Fee, invoiced: Fee, giro: Fee;
  let importId: number;
  let statement: string;
  const feeNow = async (id: number) => (await db.select().from(schema.fees).where(eq(schema.fees.id, id)))[0];

  beforeAll(async () => {
    const chosen = data.sepaMandates.at(-1)!;
    mandate = { reference: chosen.reference!, personId: chosen.personId! };
    // The person's own open direct fees are left out of the way: only ours are open.
    await db.update(schema.fees).set({ openAmount: 0 }).where(eq(schema.fees.personId, mandate.personId));
    const fee = (values: Partial<typeof schema.fees.$inferInsert>) =>
      db
        .insert(schema.fees)
        .values({ personId: mandate.personId, date: "2026-11-01", text: "Jahresbeitrag", amount: 4_321, openAmount: 4_321, sendInvoice: false, ...values })
        .returning()
        .then(([row]) => row);
    single = await fee({});
    twinA = await fee({ text: "Platzmiete", amount: 1_234, openAmount: 1_234 });
    twinB = await fee({ text: "Platzmiete", amount: 1_234, openAmount: 1_234 });
    partA = await fee({ text: "Einzelstunde", amount: 1_000, openAmount: 1_000 });
    partB = await fee({ text: "Seminar", amount: 2_345, openAmount: 2_345 });
    // Billed by invoice: a mandate's credit never pays it directly.
    invoiced = await fee({ amount: 777, openAmount: 777, sendInvoice: true });
    const other = data.people.find((person) => person.id !== mandate.personId)!.id!;
    giro = await fee({ personId: other, text: "Prüfungsgebühr BH/VT", amount: 2_222, openAmount: 2_222, sendInvoice: true });
    statement = camtWith([
      { ref: "MANDAT-1", cents: 4_321, text: `Beitrag Mandat ${mandate.reference.toLowerCase()}` },
      { ref: "MANDAT-2", cents: 1_234, text: "Platzmiete November", mandateId: mandate.reference },
      { ref: "MANDAT-3", cents: 3_345, text: `${mandate.reference} Einzelstunde und Seminar` },
      { ref: "MANDAT-4", cents: 777, text: `${mandate.reference} Rechnung folgt` },
      { ref: "POSTEN-1", cents: 2_222, text: `Posten ${giro.id} Pruefungsgebuehr BH/VT` },
      // A direct debit's end-to-end id names no mandate.
      { ref: "MANDAT-5", cents: 4_321, text: `WUFF-7-${mandate.personId}-20261101` },
    ]);
  });

  it("proposes: one fee with the amount matched, two with it or a combination ambiguous, none unmatched with a note, 'Posten {id}' to its fee", async () => {
    const response = await upload(statement, "mandate.xml");
    expect(response.status).toBe(302);
    importId = importIdOf(response);
    const entries = await entriesOf(importId);
    expect(entries.map((e) => [e.proposal, e.targetType, e.targetId])).toEqual([
      ["MATCHED", "FEE", single.id],
      ["AMBIGUOUS", null, null],
      ["AMBIGUOUS", null, null],
      ["UNMATCHED", null, null],
      ["MATCHED", "FEE", giro.id],
      ["UNMATCHED", null, null],
    ]);
    expect(JSON.parse(entries[1].candidates!)).toEqual([
      { type: "FEE", id: twinA.id },
      { type: "FEE", id: twinB.id },
    ]);
    expect(JSON.parse(entries[2].candidates!)).toEqual([single, twinA, twinB, partA, partB].map((fee) => ({ type: "FEE", id: fee.id })));
    expect(entries[2].note).toContain("mehreren offenen Posten zusammen");
    expect(entries[3].note).toBe(
      `Mandat ${mandate.reference} (${(await db.select().from(schema.people).where(eq(schema.people.id, mandate.personId)))[0].fullName}): kein offener Posten ohne Rechnung über 7,77\u00a0€.`,
    );
    expect(entries[4].note).toBeNull();
    expect(entries[5].note).toBeNull();
    expect((await feeNow(invoiced.id)).openAmount).toBe(777);
    const html = await page(`/bankstatements/${importId}`);
    expect(html).toContain(`Posten ${twinB.id} (Platzmiete)`);
  });

  it("books the chosen fees once; importing the statement again and posting again book nothing twice", async () => {
    const entries = await entriesOf(importId);
    const response = await postForm(`/bankstatements/${importId}`, await loginCookie("finance"), {
      intent: "book",
      [`choice-${entries[0].id}`]: `FEE:${single.id}`,
      [`choice-${entries[1].id}`]: `FEE:${twinB.id}`,
      [`choice-${entries[4].id}`]: `FEE:${giro.id}`,
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)?.message).toBe("3 Buchungen gebucht (77,77\u00a0€ Zahlungseingang).");
    const booked = await Promise.all([single, twinA, twinB, giro].map((fee) => feeNow(fee.id)));
    expect(booked.map((fee) => fee.openAmount)).toEqual([0, 1_234, 0, 0]);
    expect(booked[0].paymentComments).toBe(`Bank 25.11.2026: 43,21\u00a0€ Mitglied Beitrag Mandat ${mandate.reference.toLowerCase()}`);
    expect(booked[3].paymentComments).toBe(`Bank 25.11.2026: 22,22\u00a0€ Mitglied Posten ${giro.id} Pruefungsgebuehr BH/VT`);

    const again = await upload(statement, "mandate-nochmal.xml");
    expect(toastOf(again)?.message).toBe("Alle 6 Buchungen dieses Kontoauszugs sind bereits importiert: nichts Neues zu buchen.");
    const twice = await postForm(`/bankstatements/${importId}`, await loginCookie("finance"), {
      intent: "book",
      [`choice-${entries[0].id}`]: `FEE:${single.id}`,
    });
    expect(twice.status).toBe(422);
    expect(await Promise.all([single, twinA, twinB, giro].map((fee) => feeNow(fee.id)))).toEqual(booked);
  });
});

describe("a statement of 120 payments: more than D1 binds parameters in one statement (100)", () => {
  it("is imported with each payment proposed to its fee, and 'Buchen' books all 120 in one go", async () => {
    const personId = data.people.at(-2)!.id!;
    const created = await db.batch(
      Array.from({ length: 120 }, (_, index) =>
        db
          .insert(schema.fees)
          .values({ personId, date: "2026-11-01", text: `Einzelstunde ${index + 1}`, amount: 2_000 + index, openAmount: 2_000 + index, sendInvoice: false })
          .returning(),
      ) as [never, ...never[]],
    );
    const fees = (created as (typeof schema.fees.$inferSelect)[][]).map(([fee]) => fee);
    const response = await upload(
      camtWith(fees.map((fee, index) => ({ ref: `VIELE-${index + 1}`, cents: fee.amount!, text: `Posten ${fee.id} Einzelstunde` }))),
      "viele.xml",
    );
    expect(response.status).toBe(302);
    const importId = importIdOf(response);
    const entries = await entriesOf(importId);
    expect(entries.map((entry) => [entry.proposal, entry.targetId])).toEqual(fees.map((fee) => ["MATCHED", fee.id]));

    const booking = await postForm(
      `/bankstatements/${importId}`,
      await loginCookie("finance"),
      Object.fromEntries([["intent", "book"], ...entries.map((entry) => [`choice-${entry.id}`, `FEE:${entry.targetId}`])]),
    );
    expect(booking.status).toBe(302);
    expect(toastOf(booking)?.message).toMatch(/^120 Buchungen gebucht/);
    const ours = new Set(fees.map((fee) => fee.id));
    const after = await db.select({ id: schema.fees.id, openAmount: schema.fees.openAmount }).from(schema.fees).where(eq(schema.fees.personId, personId));
    expect(after.filter((fee) => ours.has(fee.id)).map((fee) => fee.openAmount)).toEqual(fees.map(() => 0));
    expect((await entriesOf(importId)).every((entry) => entry.status === "BOOKED")).toBe(true);
  });
});
