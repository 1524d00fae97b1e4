/**
 * Issue 30 item 3: the VAT of an invoice as a Steuerberater reads it. A Regelbesteuerung club's
 * invoice mixing 19 %, 7 %, exempt and not taxable rows shows per row the rate and per rate net, tax
 * and gross to the cent, with every § 14 Abs. 4 UStG content (read from the PDF Chromium made); its
 * Stornorechnung negates each figure; a § 19 club's invoice shows the note and no tax. The club's
 * status and each row's case are frozen when the invoice is issued. New rows take the default case
 * of their fee's kind or course type.
 */
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { SMALL_BUSINESS_NOTE } from "~/lib/tax";
import { issueInvoice, saveInvoiceRow } from "~/models/invoices.server";
import { defaultTaxCaseOfFee } from "~/models/tax.server";
import { sellCard } from "~/models/cards.server";
import { postForm } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const actor = { name: "Fritz Finanz" };
const TODAY = "2026-11-27";

async function pdfTextOf(invoiceId: number): Promise<string> {
  const response = await postForm("/invoices", await loginCookie("finance"), { intent: "invoicePdf:create", id: invoiceId });
  expect(response.status).toBe(302);
  const [header] = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, invoiceId));
  const stored = await env.INVOICES.get(header.pdfFilePath!);
  const document = await getDocumentProxy(new Uint8Array(await stored!.arrayBuffer()));
  return ((await extractText(document, { mergePages: true })).text as string).replace(/\s+/g, " ");
}

const setClub = (values: Partial<typeof schema.configuration.$inferInsert>) =>
  db.update(schema.configuration).set(values).where(eq(schema.configuration.id, 1));

/** A draft of person 1 with the given rows (written as the dialog writes them), issued by the app. */
async function issuedInvoice(rows: { text: string; amount: number; taxCase: "NOT_TAXABLE" | "EXEMPT" | "REDUCED" | "STANDARD" }[]) {
  const [draft] = await db
    .insert(schema.invoiceHeaders)
    .values({ personId: 1, date: TODAY, dueDate: "2026-12-11", amount: 0, openAmount: 0, createdBy: "Test", createdOn: new Date().toISOString() })
    .returning({ id: schema.invoiceHeaders.id });
  for (const row of rows) expect((await saveInvoiceRow(db, { invoiceId: draft.id }, row, actor)).status).toBe("saved");
  const outcome = await issueInvoice(db, draft.id, actor, TODAY);
  if (outcome.status !== "issued") throw new Error(JSON.stringify(outcome));
  return { id: draft.id, invoiceNumber: outcome.invoiceNumber };
}

const MIXED = [
  { text: "Einzelstunde Agility", amount: 11_900, taxCase: "STANDARD" }, // 100,00 + 19,00
  { text: "Seminar Zweckbetrieb", amount: 5_350, taxCase: "REDUCED" }, // 50,00 + 3,50
  { text: "Jahresbeitrag 2026", amount: 6_000, taxCase: "NOT_TAXABLE" },
  { text: "Kurs Schule (steuerfrei)", amount: 2_000, taxCase: "EXEMPT" },
  { text: "Leckerli", amount: 1_000, taxCase: "STANDARD" }, // with the 119,00: 129,00 at 19 % → 20,60 tax (rounded once per rate)
] as const;

beforeAll(async () => {
  await loadDemoData();
});

describe("a Regelbesteuerung club's invoice (§ 14 Abs. 4 UStG)", () => {
  it("shows per row the rate, per rate net, tax and gross to the cent, the Steuernummer, the dates of service and the exemption's reason", async () => {
    await setClub({ taxStatus: "REGULAR", taxNumber: "21/815/08150", taxExemptionNote: "Steuerfrei nach § 4 Nr. 21 UStG." });
    const invoice = await issuedInvoice([...MIXED]);
    const [header] = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, invoice.id));
    expect(header.issuedTaxStatus).toBe("REGULAR");
    expect(header.amount).toBe(26_250);

    const text = await pdfTextOf(invoice.id);
    // Issuer with Steuernummer, recipient, date, number (Nr. 1-4).
    expect(text).toContain("Hundesportverein Wuff e.V.");
    expect(text).toContain("Steuernummer: 21/815/08150");
    expect(text).toContain(`Rechnung Nr. ${invoice.invoiceNumber}`);
    expect(text).toContain("Rechnungsdatum 27.11.2026");
    // The service and its date (Nr. 5, 6): set at issue, here the invoice's date.
    expect(text).toContain("Einzelstunde Agility (Leistung: 27.11.2026)");
    // Per rate: net, tax, gross (Nr. 7, 8), the rate beside each row.
    expect(text).toMatch(/19 % 108,40 € 20,60 € 129,00 €/);
    expect(text).toMatch(/7 % 50,00 € 3,50 € 53,50 €/);
    expect(text).toMatch(/steuerfrei 20,00 € 0,00 € 20,00 €/);
    expect(text).toMatch(/nicht steuerbar 60,00 € 0,00 € 60,00 €/);
    expect(text).toMatch(/Gesamt 238,40 € 24,10 € 262,50 €/);
    expect(text).toContain("Einzelstunde Agility (Leistung: 27.11.2026) 19 % 119,00 €");
    // The reason of the exemption (Nr. 8).
    expect(text).toContain("Steuerfrei nach § 4 Nr. 21 UStG.");
    expect(text).not.toContain(SMALL_BUSINESS_NOTE);
  });

  it("its Stornorechnung negates every figure exactly, under the status the invoice was issued with", async () => {
    await setClub({ taxStatus: "REGULAR", taxNumber: "21/815/08150" });
    const invoice = await issuedInvoice([...MIXED]);
    // A later change in Einstellungen changes neither the invoice nor its Storno.
    await setClub({ taxStatus: "SMALL_BUSINESS" });
    expect((await postForm("/invoices", await loginCookie("finance"), { intent: "invoice:cancel", id: invoice.id })).status).toBe(302);
    const [storno] = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.correctsInvoiceId, invoice.id));
    expect(storno.issuedTaxStatus).toBe("REGULAR");
    const text = await pdfTextOf(storno.id);
    expect(text).toContain(`Stornorechnung Nr. ${storno.invoiceNumber}`);
    expect(text).toMatch(/19 % -108,40 € -20,60 € -129,00 €/);
    expect(text).toMatch(/7 % -50,00 € -3,50 € -53,50 €/);
    expect(text).toMatch(/Gesamt -238,40 € -24,10 € -262,50 €/);
    expect(text).not.toContain(SMALL_BUSINESS_NOTE);
  });

  it("freezes each row's case with the invoice: a changed case of an issued row is refused by the database", async () => {
    await setClub({ taxStatus: "REGULAR", taxNumber: "21/815/08150" });
    const invoice = await issuedInvoice([MIXED[0]]);
    await expect(env.DB.prepare("UPDATE invoice_rows SET tax_case = 'REDUCED' WHERE invoice_id = ?1").bind(invoice.id).run()).rejects.toThrow(
      /frozen: issued invoice/,
    );
    await expect(env.DB.prepare("UPDATE invoice_headers SET issued_tax_status = 'SMALL_BUSINESS' WHERE id = ?1").bind(invoice.id).run()).rejects.toThrow(
      /frozen: issued invoice/,
    );
  });
});

describe("a small business's invoice (§ 19 UStG)", () => {
  it("prints the § 19 note and no tax, whatever the rows' cases", async () => {
    await setClub({ taxStatus: "SMALL_BUSINESS", taxExemptionNote: null });
    const invoice = await issuedInvoice([...MIXED]);
    const text = await pdfTextOf(invoice.id);
    expect(text).toContain(SMALL_BUSINESS_NOTE);
    expect(text).not.toContain("Netto");
    expect(text).not.toMatch(/19 %/);
    expect(text).toContain("262,50 €");
  });
});

describe("the case a new row starts with", () => {
  it("is Einstellungen' default of its fee's kind, a course type's own where it has one; a row by hand takes 'sonstige Posten'", async () => {
    await setClub({ taxCaseAnnual: "NOT_TAXABLE", taxCaseEnrollment: "STANDARD", taxCaseCourse: "REDUCED", taxCaseOther: "EXEMPT" });
    const caseOf = async (where: string) => {
      const [row] = await db.all<{ taxCase: string }>(sql`SELECT ${defaultTaxCaseOfFee(sql`f`)} AS taxCase FROM fees f WHERE ${sql.raw(where)} LIMIT 1`);
      expect(row, where).toBeDefined();
      return row.taxCase;
    };
    expect(await caseOf("f.kind = 'ANNUAL'")).toBe("NOT_TAXABLE");
    const [other] = await db
      .insert(schema.fees)
      .values({ personId: 2, date: TODAY, text: "Leine", amount: 900, openAmount: 900, sendInvoice: true, kind: "OTHER" })
      .returning({ id: schema.fees.id });
    expect(await caseOf(`f.id = ${other.id}`)).toBe("EXEMPT");
    const courseFee = "f.kind = 'COURSE' AND f.course_membership_id IS NOT NULL";
    expect(await caseOf(courseFee)).toBe("REDUCED");
    // The course type of that fee says 19 %: its own case wins.
    const [{ masterId }] = await db.all<{ masterId: number }>(
      sql`SELECT c.course_master_id AS masterId FROM fees f JOIN course_memberships m ON m.id = f.course_membership_id JOIN courses c ON c.id = m.course_id WHERE ${sql.raw(courseFee)} LIMIT 1`,
    );
    await db.update(schema.courseMasters).set({ taxCase: "STANDARD" }).where(eq(schema.courseMasters.id, masterId));
    expect(await caseOf(courseFee)).toBe("STANDARD");
    // A 10er-Karte's fee (kind OTHER) takes its product's case, not 'sonstige Posten' (issue 34).
    const [product] = await db
      .insert(schema.cardProducts)
      .values({ name: "10er-Karte Steuer", kind: "CARD", units: 10, validMonths: 6, priceFull: 10000, taxCase: "REDUCED" })
      .returning({ id: schema.cardProducts.id });
    await db.insert(schema.cardProductScopes).values({ productId: product.id, courseMasterId: masterId });
    const sold = await sellCard(db, { personId: 2, productId: product.id, validFrom: TODAY, price: 10000 }, actor);
    if (sold.status !== "sold") throw new Error(JSON.stringify(sold));
    expect(await caseOf(`f.id = ${sold.feeId}`)).toBe("REDUCED");

    const [draft] = await db
      .insert(schema.invoiceHeaders)
      .values({ personId: 2, date: TODAY, amount: 0, openAmount: 0, createdBy: "Test", createdOn: new Date().toISOString() })
      .returning({ id: schema.invoiceHeaders.id });
    const saved = await saveInvoiceRow(db, { invoiceId: draft.id }, { text: "Ohne Angabe", amount: 500 }, actor);
    if (saved.status !== "saved") throw new Error(JSON.stringify(saved));
    const [row] = await db.select().from(schema.invoiceRows).where(eq(schema.invoiceRows.id, saved.id));
    expect(row.taxCase).toBe("EXEMPT");
    // A change without a case keeps it; with one, takes it (the draft is not issued).
    const [current] = await db.select().from(schema.invoiceRows).where(eq(schema.invoiceRows.id, saved.id));
    await saveInvoiceRow(db, { id: saved.id, rowVersion: current.rowVersion }, { text: "Ohne Angabe", amount: 600 }, actor);
    expect((await db.select().from(schema.invoiceRows).where(eq(schema.invoiceRows.id, saved.id)))[0].taxCase).toBe("EXEMPT");
  });
});
