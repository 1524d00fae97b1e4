/**
 * Rechnungen and Rechnungszeilen (spec 001 §2-§5): the list and its toggles, the person's tab, the
 * invoice dialog's rules on the server (Ist Offen, the fees settled in the same batch, person and
 * amount never from the form), rows that keep the header's amount the sum of the rows, stale
 * versions, hostile input, and delete into the Papierkorb with the fees' billing state and back.
 */
import { env } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { MEMBER_TYPE_IDS } from "~/db/seed/generate";
import * as schema from "~/db/schema";
import { listInvoiceHeaders, NEGATIVE_TOTAL } from "~/models/invoices.server";
import { personCredit } from "~/models/payments.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { loadDemoData } from "../support/seed";
import { issueTestInvoice } from "../support/invoices";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const page = async (path: string, cookie: string) => (await (await fetchApp(path, { cookie })).text()).replaceAll("<!-- -->", "");

let person: { id: number; fullName: string };
let otherPerson: { id: number };
let number = 990_000;

/** An issued invoice of `person` (or a draft) with one row per fee (each fee invoiced, open as given). */
async function makeInvoice(feeAmounts: { amount: number; openAmount?: number }[], options: { openAmount?: number; draft?: boolean } = {}) {
  number += 1;
  const made = await db
    .insert(schema.fees)
    .values(
      feeAmounts.map(({ amount, openAmount }, index) => ({
        personId: person.id,
        date: "2026-10-01",
        dueDate: "2026-10-15",
        text: `Posten ${number}-${index + 1}`,
        amount,
        openAmount: openAmount ?? amount,
        sendInvoice: true,
        isInvoiced: true,
      })),
    )
    .returning();
  const amount = feeAmounts.reduce((sum, fee) => sum + fee.amount, 0);
  const [draft] = await db
    .insert(schema.invoiceHeaders)
    .values({ personId: person.id, date: "2026-11-01", sentDate: options.draft ? null : "2026-11-02", dueDate: "2026-12-01", amount, openAmount: 0 })
    .returning();
  await db
    .insert(schema.invoiceRows)
    .values(made.map((fee, index) => ({ invoiceId: draft.id, feeId: fee.id, lineNumber: index + 1, text: fee.text, amount: fee.amount })));
  if (!options.draft) await issueTestInvoice(draft.id, number, options.openAmount ?? amount);
  return { header: await headerOf(draft.id), fees: made };
}

const headerOf = async (id: number) => (await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, id)))[0];
const rowsOf = (invoiceId: number) => db.select().from(schema.invoiceRows).where(eq(schema.invoiceRows.invoiceId, invoiceId)).orderBy(schema.invoiceRows.id);
const feesById = (ids: number[]) => db.select().from(schema.fees).where(inArray(schema.fees.id, ids)).orderBy(schema.fees.id);
const binCount = () => db.$count(schema.deletedRecords);

/** The invariant of every row change: amount = sum of rows, 0 <= open <= amount. */
async function expectConsistent(invoiceId: number) {
  const header = await headerOf(invoiceId);
  const sum = (await rowsOf(invoiceId)).reduce((total, row) => total + (row.amount ?? 0), 0);
  expect(header.amount).toBe(sum);
  expect(header.openAmount).toBeGreaterThanOrEqual(0);
  expect(header.openAmount!).toBeLessThanOrEqual(header.amount!);
  return header;
}

const post = async (invoiceId: number, fields: Record<string, string | number | boolean | undefined>, who: "finance" | "admin" = "finance") =>
  postForm(`/invoices/${invoiceId}/invoicerows`, await loginCookie(who), fields);

const saveInvoice = (header: { id: number; rowVersion: number }, fields: Record<string, string | number | boolean | undefined>) =>
  post(header.id, { intent: "invoice:save", id: header.id, rowVersion: header.rowVersion, date: "01.11.2026", dueDate: "01.12.2026", ...fields });

beforeAll(async () => {
  await loadDemoData();
  const [p] = await db
    .insert(schema.people)
    .values({ firstName: "Rita", lastName: "Rechnung", memberTypeId: MEMBER_TYPE_IDS.NONE })
    .returning({ id: schema.people.id, fullName: schema.people.fullName });
  person = { id: p.id, fullName: p.fullName ?? "" };
  const [o] = await db
    .insert(schema.people)
    .values({ firstName: "Otto", lastName: "Anders", memberTypeId: MEMBER_TYPE_IDS.NONE })
    .returning({ id: schema.people.id });
  otherPerson = o;
});

describe("the invoices list (Rechnungen)", () => {
  it("lists every invoice, newest number first, with the toggles Alle / Nur offene / Nur bezahlte counting right", async () => {
    const cookie = await loginCookie("finance");
    const count = async (where: string) => ((await env.DB.prepare(`SELECT count(*) AS n FROM invoice_headers ${where}`).first()) as { n: number }).n;
    const [all, open, paid, drafts] = [
      await count(""),
      await count("WHERE open_amount > 0"),
      await count("WHERE status = 'ISSUED' AND open_amount = 0"),
      await count("WHERE status = 'DRAFT'"),
    ];
    expect(open).toBeGreaterThan(0);
    expect(paid).toBeGreaterThan(0);
    expect(drafts).toBeGreaterThan(0);
    expect(open + paid + drafts).toBe(all);
    const title = (n: number) => `Rechnungen <span class="font-normal text-slate-500">(${n})</span>`;
    const html = await page("/invoices", cookie);
    expect(html).toContain(title(all));
    for (const label of ["Alle", "Nur Entwürfe", "Nur offene", "Nur bezahlte", "Rechnungszeilen", "Rechungszeilen für Rechnung", "Entwurf", "Ausstellen"])
      expect(html).toContain(label);
    expect(html).toContain("max-height:300px");
    expect(await page("/invoices?status=open", cookie)).toContain(title(open));
    expect(await page("/invoices?status=paid", cookie)).toContain(title(paid));
    expect(await page("/invoices?status=draft", cookie)).toContain(title(drafts));
    const newest = ((await env.DB.prepare("SELECT max(invoice_number) AS n FROM invoice_headers").first()) as { n: number }).n;
    const listed = await listInvoiceHeaders(db, { status: "all", sort: { id: "invoiceNumber", descending: true }, page: 1 });
    expect(listed.rows[0].invoiceNumber).toBe(newest);
    expect(listed.total).toBe(all);
  });

  it("the toolbar offers Aktualisieren (spec 001 §2: Edit, Delete, ColumnChooser, Refresh): the same list again, without a dialog", async () => {
    const html = await page("/invoices?status=open&dialog=invoice-edit&dialogId=1", await loginCookie("finance"));
    const toolbar = html.slice(html.indexOf('aria-label="Rechnungen: Aktionen"'));
    const refresh = /<a [^>]*href="([^"]*)"[^>]*>Aktualisieren<\/a>/.exec(toolbar.slice(0, toolbar.indexOf("</div>")));
    expect(refresh).not.toBeNull();
    expect(refresh![1].replaceAll("&amp;", "&")).toMatch(/^\/invoices(\/\d+\/invoicerows)?\?status=open$/);
  });

  it("the person's tab 'Rechnungen für {person}' lists only their invoices, without the person column", async () => {
    const { header } = await makeInvoice([{ amount: 1_500 }]);
    const html = await page(`/people/${person.id}/invoiceheaders`, await loginCookie("finance"));
    expect(html).toContain(`Rechnungen für ${person.fullName} <span class="font-normal text-slate-500">(1)</span>`);
    expect(html).toContain(String(header.invoiceNumber));
    expect(html).not.toContain(">Person</");
    // Staff may not see the tab.
    const staff = await fetchApp(`/people/${person.id}/invoiceheaders`, { cookie: await loginCookie("staff") });
    expect(staff.status).toBe(302);
  });

  it("the rows tab is titled with the spec's spelling and sums the rows", async () => {
    const { header } = await makeInvoice([{ amount: 2_000 }, { amount: 500 }]);
    const html = await page(`/invoices/${header.id}/invoicerows`, await loginCookie("admin"));
    expect(html).toContain(`Rechungszeilen für Rechnung ${header.invoiceNumber} an ${person.fullName}`);
    expect(html).toContain("25,00");
  });
});

describe("the invoice dialog (spec 001 §4, §5)", () => {
  it("opens as 'Rechnung {n} bearbeiten' with Ist Offen following the open amount", async () => {
    const { header } = await makeInvoice([{ amount: 4_000 }], { openAmount: 0 });
    const html = await page(`/invoices/${header.id}/invoicerows?dialog=invoice-edit&dialogId=${header.id}`, await loginCookie("finance"));
    expect(html).toContain(`Rechnung ${header.invoiceNumber} bearbeiten`);
    expect(html).toMatch(/name="isOpen"(?![^>]*checked)[^>]*>/);
  });

  it("Ist Offen off: open amount 0; the fees of its rows settled ('ReNr n', no due date) in the same save; person and amount never from the form", async () => {
    const { header, fees } = await makeInvoice([{ amount: 5_000 }, { amount: 3_000, openAmount: 1_000 }]);
    const response = await saveInvoice(header, {
      openAmount: "12,00",
      amount: "1,00",
      personId: otherPerson.id,
      comments: "Kommentar",
      paymentComments: "per Überweisung",
      dueDate: "01.12.2026",
      sentDate: "",
    });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toMatchObject({ type: "success", message: "Rechnung wurde gespeichert" });
    const saved = await headerOf(header.id);
    expect(saved).toMatchObject({
      openAmount: 0,
      isOpen: false,
      amount: 8_000,
      personId: person.id,
      date: "2026-11-01",
      sentDate: null,
      dueDate: "2026-12-01",
      comments: "Kommentar",
      paymentComments: "per Überweisung",
      rowVersion: header.rowVersion + 1,
    });
    for (const fee of await feesById(fees.map((f) => f.id))) {
      expect(fee).toMatchObject({ openAmount: 0, dueDate: null, paymentReference: `ReNr ${header.invoiceNumber}`, rowVersion: 2 });
    }
  });

  it("Ist Offen on: the typed open amount (at most the amount) books the difference as a payment; fees settled even so; never raised by hand", async () => {
    const { header, fees } = await makeInvoice([{ amount: 6_000 }]);
    let response = await saveInvoice(header, { isOpen: true, openAmount: "30,00" });
    expect(response.status).toBe(302);
    const saved = await headerOf(header.id);
    expect(saved).toMatchObject({ openAmount: 3_000, isOpen: true });
    expect((await feesById([fees[0].id]))[0]).toMatchObject({ openAmount: 0, dueDate: null, paymentReference: `ReNr ${header.invoiceNumber}` });

    response = await saveInvoice(saved, { isOpen: true, openAmount: "60,01" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Der offene Betrag darf höchstens den Rechnungsbetrag");
    expect(await headerOf(header.id)).toEqual(saved);

    // The 30,00 € paid are a journal entry: the open amount does not go up again by hand.
    const [entry] = await db
      .select({ amount: schema.paymentAllocations.amount, method: schema.payments.method })
      .from(schema.paymentAllocations)
      .innerJoin(schema.payments, eq(schema.payments.id, schema.paymentAllocations.paymentId))
      .where(eq(schema.paymentAllocations.invoiceId, header.id));
    expect(entry).toEqual({ amount: 3_000, method: "TRANSFER" });
    response = await saveInvoice(saved, { isOpen: true, openAmount: "" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Der offene Betrag ergibt sich aus den gebuchten Zahlungen");
    expect(await headerOf(header.id)).toEqual(saved);
  });

  it("a stale rowVersion is refused (409) with nothing written, the fees untouched", async () => {
    const { header, fees } = await makeInvoice([{ amount: 2_500 }]);
    const response = await saveInvoice({ id: header.id, rowVersion: header.rowVersion + 5 }, { comments: "zu spät" });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("Der Datensatz wurde inzwischen");
    expect(await headerOf(header.id)).toEqual(header);
    expect(await feesById([fees[0].id])).toEqual(fees);
  });

  it.each([
    ["date", { date: "31.02.2026" }, "Datum"],
    ["no date", { date: "" }, "Datum ist erforderlich"],
    ["due date", { dueDate: "morgen" }, "TT.MM.JJJJ"],
    ["open amount", { isOpen: true, openAmount: "zwölf" }, "Bitte einen Betrag wie 1.234,56 eingeben"],
    ["negative open amount", { isOpen: true, openAmount: "-5,00" }, "Der Betrag darf nicht negativ sein"],
    ["id", { id: "abc" }, "Rechnung fehlt"],
    ["rowVersion", { rowVersion: "x" }, "Version fehlt"],
  ])("malformed %s: 400 with a German message, nothing changed", async (_name, fields, message) => {
    const { header, fees } = await makeInvoice([{ amount: 1_000 }]);
    const response = await saveInvoice(header, fields);
    expect(response.status).toBe(400);
    expect((await response.text()).replaceAll("&quot;", '"')).toContain(message);
    expect(await headerOf(header.id)).toEqual(header);
    expect(await feesById([fees[0].id])).toEqual(fees);
  });
});

describe("a draft's rows keep its amount the sum of the rows", () => {
  it("add (next line number), edit and delete recompute the amount (nothing open on a draft); a negative row is allowed", async () => {
    const { header } = await makeInvoice([{ amount: 5_000 }, { amount: 2_000 }], { draft: true });
    let response = await post(header.id, { intent: "invoiceRow:save", invoiceId: header.id, text: "Rabatt", amount: "-10,00" });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toMatchObject({ message: "Rechnungszeile wurde angelegt" });
    const discount = (await rowsOf(header.id)).at(-1)!;
    expect(discount).toMatchObject({ text: "Rabatt", amount: -1_000, lineNumber: 3, feeId: null });
    expect(await expectConsistent(header.id)).toMatchObject({ amount: 6_000, openAmount: 0, rowVersion: header.rowVersion + 1 });

    response = await post(header.id, { intent: "invoiceRow:save", id: discount.id, rowVersion: discount.rowVersion, text: "Treuerabatt", amount: "-15,5" });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toMatchObject({ message: "Rechnungszeile wurde gespeichert" });
    expect((await rowsOf(header.id)).at(-1)).toMatchObject({ text: "Treuerabatt", amount: -1_550, lineNumber: 3 });
    expect(await expectConsistent(header.id)).toMatchObject({ amount: 5_450, openAmount: 0 });

    response = await post(header.id, { intent: "invoiceRow:delete", id: discount.id });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toMatchObject({ message: "Rechnungszeile wurde gelöscht", undo: expect.any(Number) });
    expect(await expectConsistent(header.id)).toMatchObject({ amount: 7_000, openAmount: 0 });
  });

  it("a negative total is refused with a German message, on add, edit and delete, nothing written", async () => {
    const { header } = await makeInvoice([{ amount: 1_000 }], { draft: true });
    const before = { header: await headerOf(header.id), rows: await rowsOf(header.id) };
    let response = await post(header.id, { intent: "invoiceRow:save", invoiceId: header.id, text: "zu viel Rabatt", amount: "-10,01" });
    expect(response.status).toBe(400);
    expect((await response.text()).replaceAll("&quot;", '"')).toContain(NEGATIVE_TOTAL.slice(0, 40));
    const [row] = before.rows;
    response = await post(header.id, { intent: "invoiceRow:save", id: row.id, rowVersion: row.rowVersion, text: row.text, amount: "-0,01" });
    expect(response.status).toBe(400);
    expect({ header: await headerOf(header.id), rows: await rowsOf(header.id) }).toEqual(before);

    // A discount that stays: deleting the row it was set against would make the total negative.
    await post(header.id, { intent: "invoiceRow:save", invoiceId: header.id, text: "Rabatt", amount: "-5,00" });
    const withDiscount = { header: await headerOf(header.id), rows: await rowsOf(header.id) };
    const bin = await binCount();
    response = await post(header.id, { intent: "invoiceRow:delete", id: row.id });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("Der Rechnungsbetrag darf nicht negativ werden");
    expect({ header: await headerOf(header.id), rows: await rowsOf(header.id) }).toEqual(withDiscount);
    expect(await binCount()).toBe(bin);
  });

  it("a stale row version is refused (409), the header untouched", async () => {
    const { header } = await makeInvoice([{ amount: 1_000 }], { draft: true });
    const [row] = await rowsOf(header.id);
    const response = await post(header.id, { intent: "invoiceRow:save", id: row.id, rowVersion: row.rowVersion + 1, text: "neu", amount: "1,00" });
    expect(response.status).toBe(409);
    expect(await rowsOf(header.id)).toEqual([row]);
    expect(await headerOf(header.id)).toEqual(header);
  });

  it.each([
    ["amount", { amount: "1,2,3" }, "Bitte einen Betrag wie 1.234,56 eingeben"],
    ["huge amount", { amount: "99999999,00" }, "Der Betrag ist zu groß"],
    ["invoice id", { invoiceId: "abc" }, "Bitte eine Zahl eingeben"],
    ["no invoice", { invoiceId: "" }, "Rechnung fehlt"],
    ["unknown invoice", { invoiceId: "987654" }, "Diese Rechnung gibt es nicht"],
    ["text", { text: "x".repeat(201) }, "Höchstens 200 Zeichen"],
  ])("malformed %s: 400 with a German message, nothing changed", async (_name, fields, message) => {
    const { header } = await makeInvoice([{ amount: 1_000 }], { draft: true });
    const rows = await db.$count(schema.invoiceRows);
    const response = await post(header.id, { intent: "invoiceRow:save", invoiceId: header.id, text: "Zeile", amount: "1,00", ...fields });
    expect(response.status).toBe(400);
    expect((await response.text()).replaceAll("&quot;", '"')).toContain(message);
    expect(await db.$count(schema.invoiceRows)).toBe(rows);
    expect(await headerOf(header.id)).toEqual(header);
  });

  it("the row dialog opens from the invoice ('Zeile hinzufügen') and for edit with the spec's titles", async () => {
    const { header } = await makeInvoice([{ amount: 1_000 }], { draft: true });
    const [row] = await rowsOf(header.id);
    const cookie = await loginCookie("finance");
    expect(await page(`/invoices/${header.id}/invoicerows?dialog=invoice-addrow&dialogId=${header.id}`, cookie)).toContain("Neue Rechnungszeile anlegen");
    expect(await page(`/invoices/${header.id}/invoicerows?dialog=invoiceRow-edit&dialogId=${row.id}`, cookie)).toContain(
      `Rechnungszeile &#x27;${row.text}&#x27; bearbeiten`,
    );
  });
});

describe("deleting a draft into the Papierkorb and back", () => {
  it("a draft takes its rows along and its fees become billable again; the undo restores all of it exactly", async () => {
    const { header, fees } = await makeInvoice([{ amount: 5_000 }, { amount: 3_000, openAmount: 2_000 }], { draft: true });
    await post(header.id, { intent: "invoiceRow:save", invoiceId: header.id, text: "Rabatt", amount: "-5,00" });
    const before = { header: await headerOf(header.id), rows: await rowsOf(header.id), fees: await feesById(fees.map((f) => f.id)) };
    const cookie = await loginCookie("finance");

    const confirm = await page(`/invoices/${header.id}/invoicerows?dialog=invoice-delete&dialogId=${header.id}`, cookie);
    expect(confirm).toContain("Rechnungsentwurf löschen");
    expect(confirm).toContain("Ihre 2 offenen Posten werden wieder abrechenbar.");
    expect(confirm).toContain("3 Rechnungszeilen");

    const response = await postForm(`/invoices/${header.id}/invoicerows`, cookie, { intent: "invoice:delete", id: header.id });
    expect(response.status).toBe(302);
    const toast = toastOf(response);
    expect(toast).toMatchObject({ type: "success", message: "Rechnung wurde gelöscht", undo: expect.any(Number) });
    expect(await headerOf(header.id)).toBeUndefined();
    expect(await rowsOf(header.id)).toEqual([]);
    const billable = await feesById(fees.map((f) => f.id));
    expect(billable.map((fee) => [fee.isInvoiced, fee.openAmount])).toEqual([
      [false, 5_000],
      [false, 2_000],
    ]);
    const inBin = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.transactionId, toast!.undo!));
    expect(inBin.map((record) => record.tableName).sort()).toEqual(["fees", "fees", "invoice_headers", "invoice_rows", "invoice_rows", "invoice_rows"]);

    const undone = await postForm("/invoices", cookie, { intent: "bin:undo", transactionId: toast!.undo! });
    expect(undone.status).toBe(302);
    expect({ header: await headerOf(header.id), rows: await rowsOf(header.id), fees: await feesById(fees.map((f) => f.id)) }).toEqual(before);
    expect(await db.$count(schema.deletedRecords, eq(schema.deletedRecords.transactionId, toast!.undo!))).toBe(0);
  });

  it("a fee keeps its open amount when the draft goes (a draft settles nothing)", async () => {
    const { header, fees } = await makeInvoice([{ amount: 3_000, openAmount: 1_000 }], { draft: true });
    await postForm(`/invoices/${header.id}/invoicerows`, await loginCookie("admin"), { intent: "invoice:delete", id: header.id });
    expect((await feesById([fees[0].id]))[0]).toMatchObject({ isInvoiced: false, openAmount: 1_000, dueDate: "2026-10-15" });
  });

  it("the undo is refused, with nothing restored, when a fee was changed again in between", async () => {
    const { header, fees } = await makeInvoice([{ amount: 3_000 }], { draft: true });
    const cookie = await loginCookie("finance");
    const response = await postForm(`/invoices/${header.id}/invoicerows`, cookie, { intent: "invoice:delete", id: header.id });
    const { undo } = toastOf(response)!;
    await db.update(schema.fees).set({ comments: "inzwischen bearbeitet", rowVersion: 99 }).where(eq(schema.fees.id, fees[0].id));
    const undone = await postForm("/invoices", cookie, { intent: "bin:undo", transactionId: undo! });
    expect(undone.status).not.toBe(500);
    expect(await headerOf(header.id)).toBeUndefined();
    expect(await db.$count(schema.deletedRecords, eq(schema.deletedRecords.transactionId, undo!))).toBe(3);
  });

  it("a row's delete takes its fee's billing state and the header's totals into the bin; the undo puts them back", async () => {
    const { header, fees } = await makeInvoice([{ amount: 5_000 }, { amount: 2_000 }], { draft: true });
    const before = { header: await headerOf(header.id), rows: await rowsOf(header.id), fees: await feesById(fees.map((f) => f.id)) };
    const cookie = await loginCookie("finance");
    const response = await postForm(`/invoices/${header.id}/invoicerows`, cookie, { intent: "invoiceRow:delete", id: before.rows[1].id });
    expect(response.status).toBe(302);
    expect(await expectConsistent(header.id)).toMatchObject({ amount: 5_000, openAmount: 0 });
    expect((await feesById([fees[1].id]))[0]).toMatchObject({ isInvoiced: false, openAmount: 2_000, paymentReference: null });
    const undone = await postForm("/invoices", cookie, { intent: "bin:undo", transactionId: toastOf(response)!.undo! });
    expect(undone.status).toBe(302);
    expect({ header: await headerOf(header.id), rows: await rowsOf(header.id), fees: await feesById(fees.map((f) => f.id)) }).toEqual(before);
  });
});

describe("issuing a draft, and an issued invoice is frozen (issue 30)", () => {
  const counter = async () => ((await env.DB.prepare("SELECT last_invoice_number AS n FROM configuration WHERE id = 1").first()) as { n: number }).n;
  const highest = async () => ((await env.DB.prepare("SELECT max(invoice_number) AS n FROM invoice_headers").first()) as { n: number }).n;

  it("'Ausstellen' gives the next number, today's date, the recipient and the rows' dates of service, settles the fees; a second time nothing", async () => {
    const { header, fees } = await makeInvoice([{ amount: 2_500 }, { amount: 1_500 }], { draft: true });
    const expected = Math.max(await counter(), await highest()) + 1;
    const cookie = await loginCookie("finance");
    const confirm = await page(`/invoices/${header.id}/invoicerows?dialog=invoice-issue&dialogId=${header.id}`, cookie);
    expect(confirm).toContain(`Rechnung an ${person.fullName} ausstellen`);
    expect(confirm).toContain("nicht mehr geändert oder gelöscht werden, nur storniert");

    const response = await postForm(`/invoices/${header.id}/invoicerows`, cookie, { intent: "invoice:issue", id: header.id });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toMatchObject({ type: "success", message: `Rechnung ${expected} wurde ausgestellt` });
    const issued = await headerOf(header.id);
    const today = new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Berlin" }).format(new Date());
    expect(issued).toMatchObject({
      status: "ISSUED",
      invoiceNumber: expected,
      date: today,
      amount: 4_000,
      openAmount: 4_000,
      issuedLastName: "Rechnung",
      issuedFirstName: "Rita",
      issuedBy: "Fritz Finanz",
    });
    // The payment term of the draft (30 days) is kept from the day of issue.
    expect(issued.dueDate).toBe(new Date(Date.parse(`${today}T12:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10));
    expect(await counter()).toBe(expected);
    for (const row of await rowsOf(header.id)) expect(row).toMatchObject({ serviceFrom: "2026-10-01", serviceTo: "2026-10-01" });
    for (const fee of await feesById(fees.map((f) => f.id))) expect(fee).toMatchObject({ openAmount: 0, paymentReference: `ReNr ${expected}` });

    const again = await postForm(`/invoices/${header.id}/invoicerows`, cookie, { intent: "invoice:issue", id: header.id });
    expect(again.status).not.toBe(302);
    expect(await again.text()).toContain("Die Rechnung ist schon ausgestellt.");
    expect(await headerOf(header.id)).toEqual(issued);
    expect(await counter()).toBe(expected);
  });

  it("a draft without rows is not issued", async () => {
    const [empty] = await db.insert(schema.invoiceHeaders).values({ personId: person.id, date: "2026-11-01" }).returning();
    const response = await postForm(`/invoices/${empty.id}/invoicerows`, await loginCookie("finance"), { intent: "invoice:issue", id: empty.id });
    expect(await response.text()).toContain("Ein Entwurf ohne Zeilen kann nicht ausgestellt werden.");
    expect(await headerOf(empty.id)).toMatchObject({ status: "DRAFT", invoiceNumber: null });
  });

  it.each([
    ["its date", (h: Issued) => ({ intent: "invoice:save", id: h.id, rowVersion: h.rowVersion, date: "02.11.2026", dueDate: "01.12.2026" })],
    ["its due date", (h: Issued) => ({ intent: "invoice:save", id: h.id, rowVersion: h.rowVersion, date: "01.11.2026", dueDate: "24.12.2026" })],
    ["deleting it (Papierkorb)", (h: Issued) => ({ intent: "invoice:delete", id: h.id })],
    ["a new row", (h: Issued) => ({ intent: "invoiceRow:save", invoiceId: h.id, text: "Nachtrag", amount: "5,00" })],
    ["a changed row", (h: Issued) => ({ intent: "invoiceRow:save", id: h.rowId, rowVersion: h.rowVersion, text: "anders", amount: "1,00" })],
    ["deleting a row", (h: Issued) => ({ intent: "invoiceRow:delete", id: h.rowId })],
    ["issuing it again", (h: Issued) => ({ intent: "invoice:issue", id: h.id })],
    ["its PDF rendered anew", (h: Issued) => ({ intent: "invoicePdf:recreate", id: h.id })],
  ])("refuses %s with a German message and changes nothing", async (_what, request) => {
    const { header } = await makeInvoice([{ amount: 1_000 }]);
    const [row] = await rowsOf(header.id);
    const before = { header: await headerOf(header.id), rows: await rowsOf(header.id), bin: await binCount() };
    const response = await postForm(
      `/invoices/${header.id}/invoicerows`,
      await loginCookie("admin"),
      request({ id: header.id, rowVersion: header.rowVersion, rowId: row.id }),
    );
    expect(response.status).not.toBe(302);
    expect(response.status).toBeLessThan(500);
    expect((await response.text()).replaceAll("&quot;", '"')).toMatch(/ausgestellt|Stornorechnung|aufzubewahren|nicht neu erzeugt/);
    expect({ header: await headerOf(header.id), rows: await rowsOf(header.id), bin: await binCount() }).toEqual(before);
  });

  it("takes what stays writable: the sent date, the payment fields and the comment", async () => {
    const { header } = await makeInvoice([{ amount: 1_000 }]);
    const response = await saveInvoice(header, {
      sentDate: "03.11.2026",
      isOpen: true,
      openAmount: "4,00",
      comments: "angerufen",
      paymentComments: "Teilzahlung",
    });
    expect(response.status).toBe(302);
    expect(await headerOf(header.id)).toMatchObject({
      sentDate: "2026-11-03",
      openAmount: 400,
      comments: "angerufen",
      paymentComments: "Teilzahlung",
      date: "2026-11-01",
    });
  });

  it("the dialogs say why: the delete confirmation and the row dialog of an issued invoice keep their button disabled", async () => {
    const { header } = await makeInvoice([{ amount: 1_000 }]);
    const [row] = await rowsOf(header.id);
    const cookie = await loginCookie("finance");
    const confirm = await page(`/invoices/${header.id}/invoicerows?dialog=invoice-delete&dialogId=${header.id}`, cookie);
    expect(confirm).toContain("Ausgestellte Rechnungen werden nicht gelöscht.");
    expect(confirm).toMatch(/<button type="submit" disabled=""[^>]*>Löschen<\/button>/);
    const edit = await page(`/invoices/${header.id}/invoicerows?dialog=invoiceRow-edit&dialogId=${row.id}`, cookie);
    expect(edit).toContain("Die Rechnung ist ausgestellt");
    expect(edit).toMatch(/<button type="submit" disabled=""[^>]*>Speichern<\/button>/);
    const invoice = await page(`/invoices/${header.id}/invoicerows?dialog=invoice-edit&dialogId=${header.id}`, cookie);
    expect(invoice).toContain(`Rechnung ${header.invoiceNumber} bearbeiten`);
    expect(invoice).toContain("sind festgeschrieben");
  });

  it("below the models, the database refuses it too: no statement changes or deletes an issued invoice or its rows", async () => {
    const { header } = await makeInvoice([{ amount: 1_000 }]);
    const [row] = await rowsOf(header.id);
    const before = { header: await headerOf(header.id), rows: await rowsOf(header.id) };
    for (const statement of [
      `UPDATE invoice_headers SET date = '2020-01-01' WHERE id = ${header.id}`,
      `UPDATE invoice_headers SET amount = 1 WHERE id = ${header.id}`,
      `UPDATE invoice_headers SET invoice_number = 1 WHERE id = ${header.id}`,
      `UPDATE invoice_headers SET status = 'DRAFT', invoice_number = NULL, issued_on = NULL WHERE id = ${header.id}`,
      `UPDATE invoice_headers SET issued_last_name = 'Anders' WHERE id = ${header.id}`,
      `DELETE FROM invoice_headers WHERE id = ${header.id}`,
      `UPDATE invoice_rows SET amount = 1 WHERE id = ${row.id}`,
      `DELETE FROM invoice_rows WHERE id = ${row.id}`,
      `INSERT INTO invoice_rows (invoice_id, line_number, text, amount) VALUES (${header.id}, 9, 'x', 1)`,
    ]) {
      await expect(env.DB.prepare(statement).run(), statement).rejects.toThrow("frozen: issued invoice");
    }
    // The PDF's path and hash are set once.
    await env.DB.prepare(`UPDATE invoice_headers SET pdf_file_path = 'a.pdf', pdf_sha256 = 'ab' WHERE id = ${header.id}`).run();
    await expect(env.DB.prepare(`UPDATE invoice_headers SET pdf_file_path = 'b.pdf' WHERE id = ${header.id}`).run()).rejects.toThrow("frozen");
    await expect(env.DB.prepare(`UPDATE invoice_headers SET pdf_sha256 = 'cd' WHERE id = ${header.id}`).run()).rejects.toThrow("frozen");
    expect({
      header: { ...(await headerOf(header.id)), pdfFilePath: null, pdfSha256: null, rowVersion: before.header.rowVersion },
      rows: await rowsOf(header.id),
    }).toEqual(before);
  });
});

type Issued = { id: number; rowVersion: number; rowId: number };

describe("Stornieren: a Stornorechnung cancels an issued invoice (issue 30)", () => {
  const counter = async () => ((await env.DB.prepare("SELECT last_invoice_number AS n FROM configuration WHERE id = 1").first()) as { n: number }).n;

  it("issues a Stornorechnung with the next number, every row negated and naming the invoice; the invoice is settled and its fees are billable again", async () => {
    const { header, fees } = await makeInvoice([{ amount: 3_000 }, { amount: 1_250 }]);
    const cookie = await loginCookie("finance");
    const confirm = await page(`/invoices/${header.id}/invoicerows?dialog=invoice-cancel&dialogId=${header.id}`, cookie);
    expect(confirm).toContain(`Rechnung ${header.invoiceNumber} stornieren`);
    expect(confirm).toContain("Ihre offenen Posten werden wieder offen und abrechenbar.");
    const expected = Math.max(await counter(), ((await env.DB.prepare("SELECT max(invoice_number) AS n FROM invoice_headers").first()) as { n: number }).n) + 1;

    const response = await postForm(`/invoices/${header.id}/invoicerows`, cookie, { intent: "invoice:cancel", id: header.id });
    expect(response.status).toBe(302);
    expect(toastOf(response)).toMatchObject({ type: "success", message: `Stornorechnung ${expected} wurde ausgestellt` });
    const [storno] = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.correctsInvoiceId, header.id));
    expect(storno).toMatchObject({
      kind: "STORNO",
      status: "ISSUED",
      invoiceNumber: expected,
      amount: -4_250,
      openAmount: 0,
      personId: person.id,
      dueDate: null,
    });
    const originalRows = await rowsOf(header.id);
    expect((await rowsOf(storno.id)).map((row) => [row.lineNumber, row.text, row.amount, row.serviceFrom, row.feeId])).toEqual(
      originalRows.map((row) => [row.lineNumber, row.text, -row.amount, row.serviceFrom, null]),
    );
    expect(await counter()).toBe(expected);
    // The invoice stays as issued; nothing is open on it, its rows released their fees.
    expect(await headerOf(header.id)).toMatchObject({ status: "ISSUED", invoiceNumber: header.invoiceNumber, amount: 4_250, openAmount: 0, date: header.date });
    expect(originalRows.every((row) => row.feeReleased)).toBe(true);
    for (const fee of await feesById(fees.map((f) => f.id))) expect(fee).toMatchObject({ isInvoiced: false, openAmount: fee.amount, paymentReference: null });
    const listed = await page("/invoices", cookie);
    expect(listed).toContain("Storniert");
    expect(listed).toContain("Stornorechnung");

    // The fees can be billed again: a new row may name them.
    const [draft] = await db.insert(schema.invoiceHeaders).values({ personId: person.id, date: "2026-11-20" }).returning();
    await db
      .insert(schema.invoiceRows)
      .values(fees.map((fee, index) => ({ invoiceId: draft.id, feeId: fee.id, lineNumber: index + 1, text: fee.text, amount: fee.amount })));

    // Once is enough; a Stornorechnung is not cancelled.
    const again = await postForm(`/invoices/${header.id}/invoicerows`, cookie, { intent: "invoice:cancel", id: header.id });
    expect(await again.text()).toContain("Die Rechnung ist schon storniert.");
    const ofStorno = await postForm(`/invoices/${storno.id}/invoicerows`, cookie, { intent: "invoice:cancel", id: storno.id });
    expect(await ofStorno.text()).toContain("Nur eine Rechnung wird storniert");
    expect(await counter()).toBe(expected);
  });

  it("a partly paid invoice: the Stornorechnung books as 'Verrechnung', settles what is open, and what was paid is the person's credit", async () => {
    const cookie = await loginCookie("finance");
    const { header: paid } = await makeInvoice([{ amount: 1_000 }], { openAmount: 400 });
    const creditBefore = await personCredit(db, paid.personId);
    const response = await postForm(`/invoices/${paid.id}/invoicerows`, cookie, { intent: "invoice:cancel", id: paid.id });
    expect(response.status).toBe(302);
    expect(await headerOf(paid.id)).toMatchObject({ openAmount: 0, amount: 1_000 });
    const [offset] = await db
      .select()
      .from(schema.payments)
      .where(eq(schema.payments.entryKey, `storno:${paid.id}`));
    expect(offset).toMatchObject({ method: "OFFSET", source: "CORRECTION", amount: 1_000 });
    const allocations = await db.select().from(schema.paymentAllocations).where(eq(schema.paymentAllocations.paymentId, offset.id));
    expect(allocations).toMatchObject([{ invoiceId: paid.id, amount: 400 }]);
    expect(await personCredit(db, paid.personId)).toBe(creditBefore + 600);
  });

  it("refuses a draft, with nothing written", async () => {
    const cookie = await loginCookie("finance");
    const { header: draft } = await makeInvoice([{ amount: 1_000 }], { draft: true });
    const invoices = await db.$count(schema.invoiceHeaders);
    const confirm = await page(`/invoices/${draft.id}/invoicerows?dialog=invoice-cancel&dialogId=${draft.id}`, cookie);
    expect(confirm).toMatch(/<button type="submit" disabled=""[^>]*>Stornieren<\/button>/);
    const response = await postForm(`/invoices/${draft.id}/invoicerows`, cookie, { intent: "invoice:cancel", id: draft.id });
    expect(response.status).not.toBe(302);
    expect(await response.text()).toContain("Ein Entwurf wird nicht storniert");
    expect(await headerOf(draft.id)).toEqual(draft);
    expect(await db.$count(schema.invoiceHeaders)).toBe(invoices);
  });
});
