/**
 * Issue 35 item 6: e-invoices. An issued invoice, Stornorechnung and Gutschrift as XRechnung 3.0
 * (CII D16B), downloaded through `GET /invoices/xrechnung/{id}` as FINANCE, each validated against
 * the official UN/CEFACT CII D16B XSD and the Factur-X 1.07.3 EN 16931 XSD (xmllint on the Node
 * side, service binding XSD_VALIDATOR; schemas fetched by scripts/ensure-cii-xsd.sh) and against
 * the business rules of EN 16931 and XRechnung restated in tests/support/einvoice-rules.ts (the
 * official Schematron could not be had here: docs/money.md, 'E-Rechnung'). The totals equal the
 * invoice's amount and the PDF's VAT; the PDF Chromium prints for a business recipient carries the
 * same XML as factur-x.xml with the Factur-X XMP (read back with pdf-lib); drafts, unknown
 * invoices and other roles are refused.
 */
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream, PDFString, PDFHexString, decodePDFRawStream, type PDFRawStream } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { taxOfGross, taxSummary } from "~/lib/tax";
import { basisForTax, decimalOfCents, en16931Tax, lineNets, NOT_TAXABLE_REASON, XRECHNUNG_SPECIFICATION } from "~/lib/xrechnung";
import { issueInvoice, saveInvoiceRow } from "~/models/invoices.server";
import { sha256Hex } from "~/lib/bytes";
import { fetchApp, postForm } from "../support/app";
import { centsOf, einvoiceRuleErrors, parseCii } from "../support/einvoice-rules";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const actor = { name: "Fritz Finanz" };
const TODAY = "2026-11-27";
type TaxCaseName = "NOT_TAXABLE" | "EXEMPT" | "REDUCED" | "STANDARD";

const setClub = (values: Partial<typeof schema.configuration.$inferInsert>) =>
  db.update(schema.configuration).set(values).where(eq(schema.configuration.id, 1));
const REGULAR_CLUB = {
  taxStatus: "REGULAR",
  taxNumber: "21/815/08150",
  vatId: "DE123456788",
  taxExemptionNote: "Steuerfrei nach § 4 Nr. 21 UStG.",
  clubPhone: "0221 123456",
  clubEmail: "kasse@wuff.example",
  iban: "DE89370400440532013000",
  bic: "COBADEFFXXX",
} as const;

let businessId = 0;
let consumerId = 0;

/** A draft of the person with the given rows (written as the dialog writes them), issued by the app. */
async function issuedInvoice(personId: number, rows: readonly { text: string; amount: number; taxCase: TaxCaseName }[]) {
  const [draft] = await db
    .insert(schema.invoiceHeaders)
    .values({ personId, date: TODAY, dueDate: "2026-12-11", amount: 0, openAmount: 0, createdBy: "Test", createdOn: new Date().toISOString() })
    .returning({ id: schema.invoiceHeaders.id });
  for (const row of rows) expect((await saveInvoiceRow(db, { invoiceId: draft.id }, row, actor)).status).toBe("saved");
  const outcome = await issueInvoice(db, draft.id, actor, TODAY);
  if (outcome.status !== "issued") throw new Error(JSON.stringify(outcome));
  return { id: draft.id, invoiceNumber: outcome.invoiceNumber };
}

const download = async (id: number | string, who: "finance" | "admin" | "staff" | "gdpr" = "finance") =>
  fetchApp(`/invoices/xrechnung/${id}`, { cookie: await loginCookie(who) });

/** The XML of an issued invoice, checked against both XSDs and the rules: no error at all. */
async function validXml(id: number): Promise<string> {
  const response = await download(id);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
  const xml = await response.text();
  for (const schemaName of ["cii-d16b", "facturx-en16931"]) {
    const validation = await env.XSD_VALIDATOR.fetch(`http://xsd/validate?schema=${schemaName}`, { method: "POST", body: xml });
    const result = await validation.json<{ valid: boolean; output: string }>();
    expect(validation.status, result.output).toBe(200);
    expect(result, `${schemaName}: ${result.output}`).toMatchObject({ valid: true });
  }
  expect(einvoiceRuleErrors(xml)).toEqual([]);
  return xml;
}

const headerOf = async (id: number) => (await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.id, id)))[0];

const MIXED = [
  { text: "Einzelstunde Agility", amount: 11_900, taxCase: "STANDARD" },
  { text: "Seminar Zweckbetrieb", amount: 5_350, taxCase: "REDUCED" },
  { text: "Jahresbeitrag 2026", amount: 6_000, taxCase: "NOT_TAXABLE" },
  { text: "Kurs Schule (steuerfrei)", amount: 2_000, taxCase: "EXEMPT" },
  { text: "Leckerli", amount: 1_000, taxCase: "STANDARD" },
  { text: "Leine & Halsband <rot>", amount: 333, taxCase: "STANDARD" },
  { text: "Hundekekse", amount: 199, taxCase: "REDUCED" },
] as const;

beforeAll(async () => {
  await loadDemoData();
  const [business] = await db
    .insert(schema.people)
    .values({
      firstName: "Hundeschule",
      lastName: "Bello GmbH",
      streetNumber: "Industriestr. 7",
      zip: "50823",
      city: "Köln",
      email: "buchhaltung@bello.example",
      isBusiness: true,
      memberTypeId: 1,
      createdBy: "Test",
      createdOn: new Date().toISOString(),
    })
    .returning({ id: schema.people.id });
  businessId = business.id;
  const [consumer] = await db
    .insert(schema.people)
    .values({
      firstName: "Erika",
      lastName: "Verbraucherin",
      zip: "50667",
      city: "Köln",
      email: "erika@example.org",
      memberTypeId: 1,
      createdBy: "Test",
      createdOn: new Date().toISOString(),
    })
    .returning({ id: schema.people.id });
  consumerId = consumer.id;
});

describe("lineNets and amounts (pure)", () => {
  it("the rows' nets add up to the case's net of taxSummary, for any gross amounts", () => {
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647);
    for (let round = 0; round < 500; round++) {
      const rate = round % 2 === 0 ? 19 : 7;
      const rows = Array.from({ length: 1 + (random() % 9) }, () => ({
        amount: (random() % 20_000) - 2_000,
        taxCase: rate === 19 ? ("STANDARD" as const) : ("REDUCED" as const),
      }));
      const [line] = taxSummary(rows, "REGULAR");
      const nets = lineNets(rows, rate, line.net);
      expect(nets.reduce((sum, net) => sum + net, 0)).toBe(line.net);
      // Each row's net stays within a cent or two of its exact net.
      rows.forEach((row, index) => expect(Math.abs(nets[index] - (row.amount * 100) / (100 + rate))).toBeLessThan(2));
    }
  });

  it("every gross amount up to 1.000 € at 19 % and 7 %: a basis within a cent of the PDF's net on which EN 16931 computes the PDF's tax exactly (BR-S-09)", () => {
    let moved = 0;
    for (const rate of [19, 7])
      for (let gross = -2_000; gross <= 100_000; gross++) {
        const tax = taxOfGross(gross, rate);
        const basis = basisForTax(gross - tax, rate, tax);
        expect(en16931Tax(basis, rate)).toBe(tax);
        expect(Math.abs(basis - (gross - tax))).toBeLessThanOrEqual(1);
        if (basis !== gross - tax) moved += 1;
      }
    // The case is real: about one amount in six at 19 %, fewer at 7 %.
    expect(moved).toBeGreaterThan(10_000);
  });

  it("writes cents as XML decimals", () => {
    expect([0, 5, -5, 1234, -123_456, 100].map(decimalOfCents)).toEqual(["0.00", "0.05", "-0.05", "12.34", "-1234.56", "1.00"]);
    expect(["0.00", "0.05", "-0.05", "12.34", "-1234.56", "1.5", "1.234"].map(centsOf)).toEqual([0, 5, -5, 1234, -123_456, 150, Number.NaN]);
  });
});

describe("XRechnung of a Regelbesteuerung club", () => {
  it("an invoice mixing 19 %, 7 %, exempt and not taxable rows: valid (XSD, rules), totals equal the invoice and its VAT per rate", async () => {
    await setClub(REGULAR_CLUB);
    const invoice = await issuedInvoice(businessId, MIXED);
    const header = await headerOf(invoice.id);
    const xml = await validXml(invoice.id);
    const parsed = parseCii(xml);
    expect(parsed.typeCode).toBe("380");
    expect(xml).toContain(`<ram:ID>${XRECHNUNG_SPECIFICATION}</ram:ID>`);
    expect(xml).toContain(`<ram:ID>${invoice.invoiceNumber}</ram:ID>`);
    expect(xml).toContain("Leine &amp; Halsband &lt;rot&gt;");
    // What is due is the invoice's amount, the VAT per rate the PDF's (taxSummary); the grand
    // total and the rounding amount add up to it.
    expect(parsed.totals.duePayable).toBe(header.amount);
    expect(parsed.totals.grandTotal + parsed.totals.rounding).toBe(header.amount);
    const summary = taxSummary(MIXED, "REGULAR");
    expect(parsed.totals.taxTotal).toBe(summary.reduce((sum, line) => sum + line.tax, 0));
    const byCase = Object.fromEntries(summary.map((line) => [line.taxCase, line]));
    expect(parsed.breakdown).toEqual([
      {
        category: "E",
        rate: "0",
        basis: byCase.NOT_TAXABLE.net + byCase.EXEMPT.net,
        tax: 0,
        reason: `${NOT_TAXABLE_REASON}; Steuerfrei nach § 4 Nr. 21 UStG.`,
        reasonCode: undefined,
      },
      { category: "S", rate: "7", basis: byCase.REDUCED.net, tax: byCase.REDUCED.tax, reason: undefined, reasonCode: undefined },
      { category: "S", rate: "19", basis: byCase.STANDARD.net, tax: byCase.STANDARD.tax, reason: undefined, reasonCode: undefined },
    ]);
    expect(parsed.totals.rounding).toBe(0);
    // The seller's Steuernummer and USt-IdNr, the buyer's reference (their number in Wuff), the IBAN.
    expect(xml).toContain('<ram:ID schemeID="FC">21/815/08150</ram:ID>');
    expect(xml).toContain('<ram:ID schemeID="VA">DE123456788</ram:ID>');
    expect(xml).toContain(`<ram:BuyerReference>${businessId}</ram:BuyerReference>`);
    expect(xml).toContain("<ram:IBANID>DE89370400440532013000</ram:IBANID>");
    expect(xml).toContain(`<ram:PaymentReference>ReNr ${invoice.invoiceNumber}</ram:PaymentReference>`);
    // The download names the file; the same invoice gives the same bytes again.
    const again = await download(invoice.id);
    expect(again.headers.get("Content-Disposition")).toContain(`XRechnung_${invoice.invoiceNumber}.xml`);
    expect(again.headers.get("Content-Disposition")).toMatch(/^attachment/);
    expect(await again.text()).toBe(xml);
  });

  it("a rate total whose PDF net EN 16931 would tax a cent less: the basis moves a cent, the tax and the amount due stay the PDF's (BT-114 rounding)", async () => {
    await setClub(REGULAR_CLUB);
    // 49,95 € at 19 %: the PDF says 41,97 € net and 7,98 € tax; EN 16931 taxes 41,97 € with 7,97 €.
    const invoice = await issuedInvoice(businessId, [{ text: "Kurs Welpen", amount: 4_995, taxCase: "STANDARD" }]);
    const parsed = parseCii(await validXml(invoice.id));
    expect(parsed.breakdown).toEqual([{ category: "S", rate: "19", basis: 4_198, tax: 798, reason: undefined, reasonCode: undefined }]);
    expect(parsed.lines.map((line) => line.net)).toEqual([4_198]);
    expect(parsed.totals).toEqual({ lineTotal: 4_198, taxBasis: 4_198, taxTotal: 798, rounding: -1, grandTotal: 4_996, duePayable: 4_995 });
  });

  it("an invoice of not taxable rows only: category O with its reason and no seller USt-IdNr (BR-O-02)", async () => {
    await setClub(REGULAR_CLUB);
    const invoice = await issuedInvoice(businessId, [{ text: "Jahresbeitrag 2026", amount: 6_000, taxCase: "NOT_TAXABLE" }]);
    const xml = await validXml(invoice.id);
    expect(parseCii(xml).breakdown).toEqual([{ category: "O", rate: "0", basis: 6_000, tax: 0, reason: NOT_TAXABLE_REASON, reasonCode: "VATEX-EU-O" }]);
    expect(xml).not.toContain('schemeID="VA"');
  });

  it("a Stornorechnung: type 381 naming the invoice (BT-25/26), its amounts positive and equal to the invoice's", async () => {
    await setClub(REGULAR_CLUB);
    const invoice = await issuedInvoice(businessId, MIXED);
    expect((await postForm("/invoices", await loginCookie("finance"), { intent: "invoice:cancel", id: invoice.id })).status).toBe(302);
    const [storno] = await db.select().from(schema.invoiceHeaders).where(eq(schema.invoiceHeaders.correctsInvoiceId, invoice.id));
    expect(storno.kind).toBe("STORNO");
    const xml = await validXml(storno.id);
    const parsed = parseCii(xml);
    expect(parsed.typeCode).toBe("381");
    expect(parsed.preceding).toBe(String(invoice.invoiceNumber));
    expect(xml).toContain('<qdt:DateTimeString format="102">20261127</qdt:DateTimeString>');
    expect(parsed.totals.grandTotal).toBe(-storno.amount);
    expect(parsed.totals.grandTotal).toBe((await headerOf(invoice.id)).amount);
    const original = parseCii(await validXml(invoice.id));
    expect(parsed.breakdown).toEqual(original.breakdown);
    expect(parsed.lines.map((line) => line.net)).toEqual(original.lines.map((line) => line.net));
  });

  it("a Gutschrift: type 381 naming the invoice, the credited 19 % amount with its tax", async () => {
    await setClub(REGULAR_CLUB);
    const invoice = await issuedInvoice(businessId, MIXED);
    const response = await postForm("/invoices", await loginCookie("finance"), {
      intent: "creditNote:create",
      id: String(invoice.id),
      text: "Gutschrift Einzelstunde ausgefallen",
      taxCase: "STANDARD",
      amount: "23,80",
      formKey: crypto.randomUUID(),
    });
    expect(response.status).toBe(302);
    const [note] = await db
      .select()
      .from(schema.invoiceHeaders)
      .where(and(eq(schema.invoiceHeaders.correctsInvoiceId, invoice.id), eq(schema.invoiceHeaders.kind, "CREDIT_NOTE")));
    const parsed = parseCii(await validXml(note.id));
    expect(parsed.typeCode).toBe("381");
    expect(parsed.preceding).toBe(String(invoice.invoiceNumber));
    expect(parsed.totals).toEqual({ lineTotal: 2_000, taxBasis: 2_000, taxTotal: 380, rounding: 0, grandTotal: 2_380, duePayable: 2_380 });
    expect(parsed.breakdown).toEqual([{ category: "S", rate: "19", basis: 2_000, tax: 380, reason: undefined, reasonCode: undefined }]);
  });
});

describe("the checks themselves", () => {
  it("catch a broken e-invoice: the XSD a misplaced element, the rules wrong sums and a missing buyer reference", async () => {
    await setClub(REGULAR_CLUB);
    const invoice = await issuedInvoice(businessId, [{ text: "Kurs", amount: 5_000, taxCase: "STANDARD" }]);
    const xml = await validXml(invoice.id);
    // BT-83 after the currency: out of the schema's order.
    const moved = xml
      .replace(/<ram:PaymentReference>[^<]*<\/ram:PaymentReference>\s*/, "")
      .replace(
        "<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>",
        "<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode><ram:PaymentReference>x</ram:PaymentReference>",
      );
    const validation = await env.XSD_VALIDATOR.fetch("http://xsd/validate?schema=cii-d16b", { method: "POST", body: moved });
    expect(await validation.json()).toMatchObject({ valid: false });
    const tampered = xml.replace(/<ram:GrandTotalAmount>[^<]*</, "<ram:GrandTotalAmount>50.01<").replace(/<ram:BuyerReference>[^<]*<\/ram:BuyerReference>/, "");
    expect(einvoiceRuleErrors(tampered)).toEqual([
      "BR-DE-15: Käuferreferenz (BT-10) fehlt",
      "BR-CO-15: Gesamtbetrag (BT-112) ≠ BT-109 + BT-110",
      "BR-CO-16: Zahlbetrag (BT-115) ≠ BT-112 − BT-113 + BT-114",
    ]);
  });
});

describe("XRechnung of a small business (§ 19 UStG)", () => {
  it("every taxable row is E with the § 19 note as the reason, not taxable rows too; no tax", async () => {
    await setClub({ ...REGULAR_CLUB, taxStatus: "SMALL_BUSINESS", vatId: null, taxExemptionNote: null });
    const invoice = await issuedInvoice(businessId, MIXED);
    const header = await headerOf(invoice.id);
    expect(header.issuedTaxStatus).toBe("SMALL_BUSINESS");
    const parsed = parseCii(await validXml(invoice.id));
    expect(parsed.totals).toEqual({
      lineTotal: header.amount,
      taxBasis: header.amount,
      taxTotal: 0,
      rounding: 0,
      grandTotal: header.amount,
      duePayable: header.amount,
    });
    expect(parsed.breakdown).toEqual([
      {
        category: "E",
        rate: "0",
        basis: header.amount,
        tax: 0,
        reason: `${NOT_TAXABLE_REASON}; Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.`,
        reasonCode: undefined,
      },
    ]);
    expect(parsed.lines.every((line) => line.category === "E")).toBe(true);
  });

  it("without Steuernummer or USt-IdNr, or without the club's phone, the download names what is missing (422)", async () => {
    await setClub({ ...REGULAR_CLUB, taxStatus: "SMALL_BUSINESS", vatId: null, taxNumber: null, clubPhone: null });
    const invoice = await issuedInvoice(businessId, [{ text: "Kurs", amount: 5_000, taxCase: "STANDARD" }]);
    const response = await download(invoice.id);
    expect(response.status).toBe(422);
    expect(await response.text()).toBe(
      "Für die E-Rechnung (XRechnung) fehlt: Telefon des Vereins (Einstellungen), Steuernummer oder USt-IdNr. des Vereins (Einstellungen).",
    );
  });
});

/** The files embedded in a PDF (/Names /EmbeddedFiles), with their /AFRelationship and whether the catalog's /AF lists them. */
async function embeddedFiles(bytes: Uint8Array) {
  const document = await PDFDocument.load(bytes);
  const names = document.catalog
    .lookupMaybe(PDFName.of("Names"), PDFDict)
    ?.lookupMaybe(PDFName.of("EmbeddedFiles"), PDFDict)
    ?.lookupMaybe(PDFName.of("Names"), PDFArray);
  const associated = document.catalog.lookupMaybe(PDFName.of("AF"), PDFArray);
  const files: { name: string; relationship: string | undefined; associated: boolean; subtype: string | undefined; text: string }[] = [];
  for (let i = 0; names && i < names.size(); i += 2) {
    const spec = names.lookup(i + 1, PDFDict);
    const stream = spec.lookup(PDFName.of("EF"), PDFDict).lookup(PDFName.of("F"), PDFStream) as PDFRawStream;
    const name = spec.lookup(PDFName.of("UF"));
    files.push({
      name: name instanceof PDFHexString || name instanceof PDFString ? name.decodeText() : String(name),
      relationship: spec.get(PDFName.of("AFRelationship"))?.toString(),
      associated: Boolean(associated?.asArray().some((entry) => entry === names.get(i + 1))),
      subtype: stream.dict.get(PDFName.of("Subtype"))?.toString(),
      text: new TextDecoder().decode(decodePDFRawStream(stream).decode()),
    });
  }
  const metadata = document.catalog.lookupMaybe(PDFName.of("Metadata"), PDFStream) as PDFRawStream | undefined;
  return { files, xmp: metadata ? new TextDecoder().decode(decodePDFRawStream(metadata).decode()) : "", fileId: document.context.trailerInfo.ID?.toString() };
}

describe("ZUGFeRD: the PDF of a business recipient", () => {
  it("carries the XRechnung as factur-x.xml (Alternative, in /AF) with the Factur-X XMP, equal to the download; stored once with its SHA-256", async () => {
    await setClub(REGULAR_CLUB);
    const invoice = await issuedInvoice(businessId, MIXED);
    const created = await postForm("/invoices", await loginCookie("finance"), { intent: "invoicePdf:create", id: invoice.id });
    expect(created.status).toBe(302);
    const header = await headerOf(invoice.id);
    const stored = await env.INVOICES.get(header.pdfFilePath!);
    const bytes = new Uint8Array(await stored!.arrayBuffer());
    expect(header.pdfSha256).toBe(await sha256Hex(bytes));
    const { files, xmp, fileId } = await embeddedFiles(bytes);
    // PDF/A's file identifier (Chromium writes none).
    expect(fileId).toMatch(/^\[ <[0-9a-f]{32}> <[0-9a-f]{32}> \]$/i);
    expect(files.map(({ text: _, ...file }) => file)).toEqual([
      { name: "factur-x.xml", relationship: "/Alternative", associated: true, subtype: "/text#2Fxml" },
    ]);
    expect(files[0].text).toBe(await validXml(invoice.id));
    for (const entry of [
      "<pdfaid:part>3</pdfaid:part>",
      "<pdfaid:conformance>B</pdfaid:conformance>",
      "<fx:DocumentType>INVOICE</fx:DocumentType>",
      "<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>",
      "<fx:Version>1.0</fx:Version>",
      "<fx:ConformanceLevel>XRECHNUNG</fx:ConformanceLevel>",
      "<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>",
    ])
      expect(xmp).toContain(entry);
    // The printed totals are still there (the PDF is Chromium's, the attachment added).
    expect(
      centsOf(
        parseCii(files[0].text).root.SupplyChainTradeTransaction.ApplicableHeaderTradeSettlement.SpecifiedTradeSettlementHeaderMonetarySummation
          .GrandTotalAmount,
      ),
    ).toBe(header.amount);
  });

  it("a consumer's PDF carries none", async () => {
    await setClub(REGULAR_CLUB);
    const invoice = await issuedInvoice(consumerId, [{ text: "Kurs", amount: 5_000, taxCase: "STANDARD" }]);
    expect((await postForm("/invoices", await loginCookie("finance"), { intent: "invoicePdf:create", id: invoice.id })).status).toBe(302);
    const stored = await env.INVOICES.get((await headerOf(invoice.id)).pdfFilePath!);
    const { files, xmp } = await embeddedFiles(new Uint8Array(await stored!.arrayBuffer()));
    expect(files).toEqual([]);
    expect(xmp).not.toContain("factur-x");
    // The route still serves the e-invoice of any issued invoice.
    await validXml(invoice.id);
  });
});

describe("the download route", () => {
  it("refuses a draft (409), an unknown invoice (404) and a malformed id (400), in German", async () => {
    const [draft] = await db
      .insert(schema.invoiceHeaders)
      .values({ personId: businessId, date: TODAY, amount: 0, openAmount: 0, createdBy: "Test", createdOn: new Date().toISOString() })
      .returning({ id: schema.invoiceHeaders.id });
    const refused = await download(draft.id);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toMatch(/^Ein Rechnungsentwurf hat noch keine E-Rechnung/);
    const unknown = await download(999_999);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe("Diese Rechnung gibt es nicht (mehr).");
    const malformed = await download("abc");
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toBe("Ungültige Rechnung.");
  });

  it("is for ADMIN and FINANCE only: staff and gdpr get no XML, anonymous goes to the login", async () => {
    await setClub(REGULAR_CLUB);
    const invoice = await issuedInvoice(businessId, [{ text: "Kurs", amount: 5_000, taxCase: "STANDARD" }]);
    expect((await download(invoice.id, "admin")).status).toBe(200);
    for (const who of ["staff", "gdpr"] as const) {
      const response = await download(invoice.id, who);
      expect(response.status, who).not.toBe(200);
      expect(await response.text()).not.toContain("CrossIndustryInvoice");
    }
    const anonymous = await fetchApp(`/invoices/xrechnung/${invoice.id}`);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/login/);
  });

  it("is offered as a row action on the issued invoices of business recipients only", async () => {
    await setClub(REGULAR_CLUB);
    const business = await issuedInvoice(businessId, [{ text: "Kurs", amount: 5_000, taxCase: "STANDARD" }]);
    const consumer = await issuedInvoice(consumerId, [{ text: "Kurs", amount: 5_000, taxCase: "STANDARD" }]);
    const cookie = await loginCookie("finance");
    const html = async (id: number) => (await fetchApp(`/invoices/${id}/invoicerows`, { cookie })).text();
    expect(await html(business.id)).toContain(`href="/invoices/xrechnung/${business.id}"`);
    expect(await html(consumer.id)).not.toContain(`href="/invoices/xrechnung/${consumer.id}"`);
  });
});
