/**
 * Issue 30 (tax): the pure rules of app/lib/tax.ts. Examples a tax adviser can check by hand, and
 * properties over random invoices (fast-check, fixed seed): every line adds up, the lines add up
 * to the invoice, a Storno's tax is exactly the negated tax, and rounding is at most half a cent.
 */
import { env } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_INVOICE_TEMPLATE, DEMO_CLUB, invoiceTemplateData, SAMPLE_INVOICE, taxNoteOf, type ClubInvoiceData } from "~/lib/invoice-document";
import { renderHtmlTemplate } from "~/lib/templates";
import {
  effectiveTaxCase,
  isValidTaxNumber,
  isValidVatId,
  SMALL_BUSINESS_NOTE,
  smallBusinessAllowed,
  TAX_CASES,
  TAX_RATE_PERCENT,
  taxOfGross,
  taxSummary,
  type TaxCase,
} from "~/lib/tax";

describe("the tax in a gross amount", () => {
  it("is worked out to the cent, rounded half away from zero", () => {
    expect(taxOfGross(11_900, 19)).toBe(1_900);
    expect(taxOfGross(10_700, 7)).toBe(700);
    // 100,00 € at 19 %: 15,966… → 15,97; at 7 %: 6,542… → 6,54.
    expect(taxOfGross(10_000, 19)).toBe(1_597);
    expect(taxOfGross(10_000, 7)).toBe(654);
    // 0,50 € at 7 %: 0,0327 → 0,03; 1 cent at 19 %: 0,16 → 0.
    expect(taxOfGross(50, 7)).toBe(3);
    expect(taxOfGross(1, 19)).toBe(0);
    // 5,95 € at 19 % holds exactly 0,95 € (no half cents arise at 7 or 19 %: 107 and 119 are odd).
    expect(taxOfGross(595, 19)).toBe(95);
    expect(taxOfGross(-10_000, 19)).toBe(-1_597);
    expect(taxOfGross(12_345, 0)).toBe(0);
  });

  it("refuses what is not whole cents", () => {
    expect(() => taxOfGross(10.5, 19)).toThrow(RangeError);
  });
});

describe("an invoice's tax summary", () => {
  const row = (amount: number, taxCase: TaxCase) => ({ amount, taxCase });

  it("sums 0, 7 and 19 % rows per rate, the tax once per rate (not per row)", () => {
    const lines = taxSummary(
      [row(3_000, "NOT_TAXABLE"), row(1_000, "STANDARD"), row(1_000, "STANDARD"), row(1_000, "STANDARD"), row(2_140, "REDUCED"), row(4_500, "EXEMPT")],
      "REGULAR",
    );
    expect(lines).toEqual([
      { taxCase: "NOT_TAXABLE", ratePercent: 0, gross: 3_000, net: 3_000, tax: 0 },
      { taxCase: "EXEMPT", ratePercent: 0, gross: 4_500, net: 4_500, tax: 0 },
      { taxCase: "REDUCED", ratePercent: 7, gross: 2_140, net: 2_000, tax: 140 },
      // 30,00 € at 19 %: 4,789… → 4,79 (per row it would be 3 × 1,60 = 4,80).
      { taxCase: "STANDARD", ratePercent: 19, gross: 3_000, net: 2_521, tax: 479 },
    ]);
  });

  it("charges a § 19 small business and an exempt club no tax; a membership fee stays not taxable", () => {
    for (const status of ["SMALL_BUSINESS", "EXEMPT"] as const) {
      expect(taxSummary([row(5_000, "STANDARD"), row(1_070, "REDUCED"), row(6_000, "NOT_TAXABLE")], status)).toEqual([
        { taxCase: "NOT_TAXABLE", ratePercent: 0, gross: 6_000, net: 6_000, tax: 0 },
        { taxCase: "EXEMPT", ratePercent: 0, gross: 6_070, net: 6_070, tax: 0 },
      ]);
      expect(effectiveTaxCase(status, "STANDARD")).toBe("EXEMPT");
    }
    expect(effectiveTaxCase("REGULAR", "REDUCED")).toBe("REDUCED");
  });

  const rows = fc.array(fc.record({ amount: fc.integer({ min: -5_000_00, max: 5_000_00 }), taxCase: fc.constantFrom(...TAX_CASES) }), { maxLength: 12 });
  const status = fc.constantFrom("REGULAR" as const, "SMALL_BUSINESS" as const, "EXEMPT" as const);

  it("adds up: net + tax = gross per line, the lines' gross is the invoice's total, tax within half a cent", () => {
    fc.assert(
      fc.property(rows, status, (invoiceRows, clubStatus) => {
        const lines = taxSummary(invoiceRows, clubStatus);
        expect(lines.reduce((sum, line) => sum + line.gross, 0)).toBe(invoiceRows.reduce((sum, r) => sum + r.amount, 0));
        for (const line of lines) {
          expect(line.net + line.tax).toBe(line.gross);
          expect(Number.isInteger(line.tax)).toBe(true);
          const exact = (line.gross * line.ratePercent) / (100 + line.ratePercent);
          expect(Math.abs(line.tax - exact)).toBeLessThanOrEqual(0.5);
          expect(line.ratePercent).toBe(TAX_RATE_PERCENT[line.taxCase]);
          if (clubStatus !== "REGULAR") expect(line.tax).toBe(0);
        }
      }),
      { numRuns: 500, seed: 20261127 },
    );
  });

  it("gives a Storno (every row negated) exactly the negated net and tax", () => {
    fc.assert(
      fc.property(rows, status, (invoiceRows, clubStatus) => {
        const original = taxSummary(invoiceRows, clubStatus);
        const storno = taxSummary(
          invoiceRows.map((r) => ({ ...r, amount: -r.amount })),
          clubStatus,
        );
        expect(storno).toEqual(original.map((line) => ({ ...line, gross: -line.gross || 0, net: -line.net || 0, tax: -line.tax || 0 })));
      }),
      { numRuns: 500, seed: 20261128 },
    );
  });
});

describe("the small-business limits of § 19 UStG since 2025", () => {
  it("allow up to 25,000 EUR last year and 100,000 EUR this year, net", () => {
    expect(smallBusinessAllowed(2_500_000, 10_000_000)).toBe(true);
    expect(smallBusinessAllowed(2_500_001, 0)).toBe(false);
    expect(smallBusinessAllowed(0, 10_000_001)).toBe(false);
  });
});

describe("tax numbers", () => {
  it("checks a USt-IdNr by its check digit (ISO 7064 MOD 11,10)", () => {
    for (const valid of ["DE136695976", "DE123456788", "de 811 907 980"]) expect(isValidVatId(valid), valid).toBe(true);
    for (const invalid of ["DE136695975", "DE12345678", "AT123456788", "DE1234567890", "", "DE12345678X"]) expect(isValidVatId(invalid), invalid).toBe(false);
  });

  it("takes a Steuernummer in the form of the Finanzamt or the federal form, nothing else", () => {
    for (const valid of ["21/815/08150", "181/815/08155", "2181508150", "9181081508155", "12 345 67890"]) expect(isValidTaxNumber(valid), valid).toBe(true);
    for (const invalid of ["", "12/345", "abc/def/ghijk", "21-815-08150", "12345678901234", "/21/815/08150"])
      expect(isValidTaxNumber(invalid), invalid).toBe(false);
  });
});

describe("the club's tax status on the invoice", () => {
  const html = (club: Partial<ClubInvoiceData>) =>
    renderHtmlTemplate(DEFAULT_INVOICE_TEMPLATE, invoiceTemplateData({ ...SAMPLE_INVOICE, club: { ...DEMO_CLUB, ...club } }))
      .replace(/\s+/g, " ")
      .replaceAll("&#x2F;", "/");

  it("prints the § 19 note for a small business, with or without a Steuernummer, and its own wording where given", () => {
    const withNumber = html({ taxStatus: "SMALL_BUSINESS", taxNumber: "21/815/08150", taxExemptionNote: null });
    expect(withNumber).toContain("<div>Steuernummer: 21/815/08150</div>");
    expect(withNumber).toContain(`<p class="tax">${SMALL_BUSINESS_NOTE}</p>`);
    expect(html({ taxStatus: "SMALL_BUSINESS", taxNumber: null, taxExemptionNote: "Kleinunternehmer, § 19 UStG." })).toContain(
      '<p class="tax">Kleinunternehmer, § 19 UStG.</p>',
    );
  });

  it("prints an exempt club's legal reason, and no note under Regelbesteuerung; the USt-IdNr. with the club", () => {
    expect(html({ taxStatus: "EXEMPT", taxExemptionNote: "Steuerfrei nach § 4 Nr. 22 Buchst. a UStG." })).toContain(
      '<p class="tax">Steuerfrei nach § 4 Nr. 22 Buchst. a UStG.</p>',
    );
    const regular = html({ taxStatus: "REGULAR", vatId: "DE123456788", taxExemptionNote: "alter Hinweis" });
    expect(regular).not.toContain('class="tax"');
    expect(regular).toContain("<div>USt-IdNr.: DE123456788</div>");
    expect(taxNoteOf(null)).toBe(SMALL_BUSINESS_NOTE);
  });

  /** A migration's template update, with those of the migrations after it, brings `before` (the
   *  stored default of before it) to today's default, changes nothing a second time and leaves a
   *  template its owner changed alone. */
  async function expectTemplateMigration(prefix: string, before: string) {
    expect(before).not.toBe(DEFAULT_INVOICE_TEMPLATE);
    const from = env.TEST_MIGRATIONS.find((migration) => migration.name.startsWith(prefix))!.name;
    const updates = env.TEST_MIGRATIONS.filter((migration) => migration.name >= from)
      .flatMap((migration) => migration.queries.filter((query) => query.includes("UPDATE `templates`")))
      .map((query) => env.DB.prepare(query));
    const stored = async () => (await env.DB.prepare("SELECT html FROM templates WHERE name = 'invoice'").first<{ html: string }>())!.html;
    await env.DB.batch([
      env.DB.prepare("DELETE FROM templates WHERE name = 'invoice'"),
      env.DB.prepare("INSERT INTO templates (name, kind, html) VALUES ('invoice', 'INVOICE', ?1)").bind(before),
      ...updates,
    ]);
    expect(await stored()).toBe(DEFAULT_INVOICE_TEMPLATE);
    await env.DB.batch([...updates, env.DB.prepare("UPDATE templates SET html = '<p>eigene</p>' WHERE name = 'invoice'"), ...updates]);
    expect(await stored()).toBe("<p>eigene</p>");
    await env.DB.prepare("UPDATE templates SET html = ?1 WHERE name = 'invoice'").bind(DEFAULT_INVOICE_TEMPLATE).run();
  }

  /** What migration 0035 added to the default (each fragment and what it became). */
  const TAX_FRAGMENTS: [before: string, after: string][] = [
    [
      "  .girocode { margin-top: 4mm; font-size: 8pt; color: #475569; }",
      "  table.taxes { margin: 4mm 0 0 auto; border-collapse: collapse; font-size: 9pt; }\n  table.taxes th, table.taxes td { padding: 1mm 2mm; }\n  table.taxes th { text-align: left; font-weight: normal; color: #475569; border-bottom: 0.5pt solid #94a3b8; }\n  table.taxes tfoot td { border-top: 0.5pt solid #94a3b8; }\n  .girocode { margin-top: 4mm; font-size: 8pt; color: #475569; }",
    ],
    ['<th class="num">Betrag</th></tr></thead>', '{{#showTax}}<th class="num">USt.</th>{{/showTax}}<th class="num">Betrag</th></tr></thead>'],
    ['<td class="num">{{amount}}</td></tr>{{/rows}}', '{{#showTax}}<td class="num">{{tax}}</td>{{/showTax}}<td class="num">{{amount}}</td></tr>{{/rows}}'],
    [
      '<tfoot><tr><td></td><td>Summe</td><td class="num">{{invoiceAmount}}</td></tr></tfoot>\n  </table>',
      '<tfoot><tr><td></td><td>Summe</td>{{#showTax}}<td></td>{{/showTax}}<td class="num">{{invoiceAmount}}</td></tr></tfoot>\n  </table>\n  {{#showTax}}<table class="taxes">\n    <thead><tr><th>Umsatzsteuer</th><th class="num">Netto</th><th class="num">Steuer</th><th class="num">Brutto</th></tr></thead>\n    <tbody>{{#taxLines}}<tr><td>{{label}}</td><td class="num">{{net}}</td><td class="num">{{tax}}</td><td class="num">{{gross}}</td></tr>{{/taxLines}}</tbody>\n    <tfoot><tr><td>Gesamt</td><td class="num">{{netTotal}}</td><td class="num">{{taxTotal}}</td><td class="num">{{invoiceAmount}}</td></tr></tfoot>\n  </table>{{/showTax}}',
    ],
  ];
  /** What migration 0036 changed: a credit note's sentence beside the Storno's. */
  const CREDIT_NOTE_FRAGMENT: [before: string, after: string] = [
    "  {{#corrects}}<p>hiermit stornieren wir unsere Rechnung Nr. {{corrects.invoiceNumber}} vom {{corrects.date}} vollständig. Es ist nichts zu zahlen.</p>{{/corrects}}",
    "  {{#corrects}}<p>{{#corrects.storno}}hiermit stornieren wir unsere Rechnung Nr. {{corrects.invoiceNumber}} vom {{corrects.date}} vollständig. Es ist nichts zu zahlen.{{/corrects.storno}}{{^corrects.storno}}hiermit schreiben wir Ihnen zu unserer Rechnung Nr. {{corrects.invoiceNumber}} vom {{corrects.date}} den folgenden Betrag gut (Rechnungskorrektur). Er wird mit der Rechnung verrechnet; was Sie darüber hinaus schon gezahlt haben, erstatten wir Ihnen oder verrechnen es mit der nächsten Rechnung.{{/corrects.storno}}</p>{{/corrects}}",
  ];
  /** The default as it was before migration 0036 (a correction was always a Storno). */
  const withoutCreditNote = (template: string) => template.replace(CREDIT_NOTE_FRAGMENT[1], CREDIT_NOTE_FRAGMENT[0]);
  /** The default as it was before migration 0035 (no VAT per rate; nor what came later). */
  const withoutTax = (template: string) => TAX_FRAGMENTS.reduce((html, [before, after]) => html.replace(after, before), withoutCreditNote(template));

  it("migration 0036 tells a credit note from a Storno in a stored default template, and leaves a changed one alone", async () => {
    await expectTemplateMigration("0036_", withoutCreditNote(DEFAULT_INVOICE_TEMPLATE));
  });

  it("migration 0035 adds each row's rate and the sums per rate to a stored default template, and leaves a changed one alone", async () => {
    await expectTemplateMigration("0035_", withoutTax(DEFAULT_INVOICE_TEMPLATE));
  });

  it("migration 0031 names the document in the heading and keeps a Stornorechnung from asking for payment", async () => {
    await expectTemplateMigration(
      "0031_",
      withoutTax(DEFAULT_INVOICE_TEMPLATE)
        .replace("<h1>{{documentTitle}} Nr. {{invoiceNumber}}</h1>", "<h1>Rechnung Nr. {{invoiceNumber}}</h1>")
        .replace(
          "{{^corrects}}<p>hiermit stellen wir Ihnen folgende Leistungen in Rechnung:</p>{{/corrects}}\n  {{#corrects}}<p>hiermit stornieren wir unsere Rechnung Nr. {{corrects.invoiceNumber}} vom {{corrects.date}} vollständig. Es ist nichts zu zahlen.</p>{{/corrects}}",
          "<p>hiermit stellen wir Ihnen folgende Leistungen in Rechnung:</p>",
        )
        .replace('{{#payable}}<div class="payment">', '<div class="payment">')
        .replace("</div></div>{{/girocode}}\n  </div>{{/payable}}", "</div></div>{{/girocode}}\n  </div>"),
    );
  });

  it("migration 0030 adds each row's date of service to a stored default template, and leaves a changed one alone", async () => {
    await expectTemplateMigration(
      "0030_",
      withoutTax(DEFAULT_INVOICE_TEMPLATE)
        .replace('{{#service}} <span class="service">(Leistung: {{service}})</span>{{/service}}', "")
        .replace("\n  .service { font-size: 8.5pt; color: #475569; }", ""),
    );
  });

  it("migration 0029 brings a stored default template of before to today's default", async () => {
    // The default as it was before 0029: the note only without a Steuernummer, no USt-IdNr.
    await expectTemplateMigration(
      "0029_",
      withoutTax(DEFAULT_INVOICE_TEMPLATE)
        .replace("      {{#club.vatId}}<div>USt-IdNr.: {{club.vatId}}</div>{{/club.vatId}}\n", "")
        .replace(
          '  {{#club.taxNote}}<p class="tax">{{club.taxNote}}</p>{{/club.taxNote}}',
          '  <p class="tax">{{^club.taxNumber}}{{club.taxExemptionNote}}{{/club.taxNumber}}{{#club.taxNumber}}Steuernummer: {{club.taxNumber}}{{/club.taxNumber}}</p>',
        ),
    );
  });
});
