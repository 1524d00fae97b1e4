/**
 * The invoice as a document (spec 001 §3 'Invoice PDF template data', §9 PDF format and file
 * name): the values the template 'invoice' is rendered with, formatted the German way, the file
 * name of its PDF, and the default template a new installation starts with. Pure: the model reads
 * the records, the services render and store.
 */
import { asciiFileNamePart, readableFileNamePart } from "./file-names";
import { groupIban } from "./banking";
import { formatDate, formatMoney } from "./format";
import { INVOICE_KIND_LABELS, type InvoiceKindName } from "./invoice-state";
import { epcPayload, girocodeSvg } from "./girocode";
import { SMALL_BUSINESS_NOTE, TAX_CASE_SHORT, effectiveTaxCase, taxSummary, type ClubTaxStatus, type TaxCase } from "./tax";

/** The name of the invoice template in `templates` (spec: 'No invoice template found' without it). */
export const INVOICE_TEMPLATE_NAME = "invoice";
export const NO_INVOICE_TEMPLATE = "No invoice template found";

/** What an invoice document is made of: the header, its rows, the person and the club's settings. */
/** What an invoice says of the club (Einstellungen, 'Verein auf Rechnungen'). */
export type ClubInvoiceData = {
  clubName: string | null;
  clubStreet: string | null;
  clubZip: string | null;
  clubCity: string | null;
  clubPhone: string | null;
  clubEmail: string | null;
  taxStatus: ClubTaxStatus;
  taxNumber: string | null;
  vatId: string | null;
  taxExemptionNote: string | null;
  bankAccountHolder: string | null;
  iban: string | null;
  bic: string | null;
  bankName: string | null;
};

/** The demo club: the demo data's settings and the club of the template preview's sample invoice. */
export const DEMO_CLUB: ClubInvoiceData = {
  clubName: "Hundesportverein Wuff e.V.",
  clubStreet: "Am Hundeplatz 1",
  clubZip: "50667",
  clubCity: "Köln",
  clubPhone: "0221 123456",
  clubEmail: "kasse@wuff.example",
  taxStatus: "SMALL_BUSINESS",
  taxNumber: null,
  vatId: null,
  taxExemptionNote: "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.",
  bankAccountHolder: "Hundesportverein Wuff e.V.",
  iban: "DE89370400440532013000",
  bic: "COBADEFFXXX",
  bankName: "Commerzbank Köln",
};

export type InvoiceDocumentSource = {
  /** openAmount: what the GiroCode asks for (the amount when left out). */
  header: {
    invoiceNumber: number;
    date: string;
    dueDate: string | null;
    amount: number;
    openAmount?: number;
    /** A Stornorechnung names the invoice it cancels (issue 30). */
    kind?: InvoiceKindName;
    corrects?: { invoiceNumber: number; date: string } | null;
    /** The club's tax status the invoice was issued under (a draft: today's); left out: the club's. */
    taxStatus?: ClubTaxStatus | null;
  };
  /** serviceFrom/To: the date or period of the service (§ 14 Abs. 4 Nr. 6 UStG), set when issued;
   *  taxCase: how the row is taxed (left out: not taxable). */
  rows: { lineNumber: number; text: string; amount: number; serviceFrom?: string | null; serviceTo?: string | null; taxCase?: TaxCase }[];
  person: {
    salutation: string | null;
    title: string | null;
    firstName: string;
    lastName: string;
    streetNumber: string | null;
    zip: string | null;
    city: string | null;
  };
  club: ClubInvoiceData | null;
};

const joined = (...parts: (string | null | undefined)[]) =>
  parts
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(" ");
const orEmpty = (value: string | null | undefined) => value?.trim() ?? "";

/** 'Sehr geehrte Frau Dr. Muster,' / 'Sehr geehrter Herr Muster,' / 'Guten Tag Erika Muster,'. */
export function salutationOf(person: InvoiceDocumentSource["person"]): string {
  if (person.salutation === "Frau") return `Sehr geehrte ${joined("Frau", person.title, person.lastName)},`;
  if (person.salutation === "Herr") return `Sehr geehrter ${joined("Herr", person.title, person.lastName)},`;
  return `Guten Tag ${joined(person.title, person.firstName, person.lastName)},`;
}

/** 'DE89 3704 0044 0532 0130 00': an IBAN in groups of four, as it is printed. */
const formatIban = groupIban;

/** The reference a payment of the invoice names ('ReNr 2026001'): on the invoice, in the GiroCode
 *  and in mails. */
export const invoicePaymentReference = (invoiceNumber: number) => `ReNr ${invoiceNumber}`;

/**
 * The EPC payload of the invoice's GiroCode: the club's account, the open amount and 'ReNr {n}';
 * null without the club's IBAN or with nothing open.
 */
export function invoiceEpcPayload(club: ClubInvoiceData | null, invoice: { invoiceNumber: number; openAmount: number }): string | null {
  if (!club?.iban) return null;
  return epcPayload({
    name: orEmpty(club.bankAccountHolder) || orEmpty(club.clubName),
    iban: club.iban,
    bic: club.bic,
    amount: invoice.openAmount,
    remittance: invoicePaymentReference(invoice.invoiceNumber),
  });
}

/**
 * The note on an invoice without VAT (§ 14 Abs. 4 Satz 1 Nr. 8 UStG, § 34a UStDV): a small
 * business's own wording or the standard § 19 note, an exempt club's legal reason; nothing under
 * Regelbesteuerung (its rows show the tax). Printed whether or not a Steuernummer is given.
 */
export function taxNoteOf(
  club: Pick<ClubInvoiceData, "taxStatus" | "taxExemptionNote"> | null,
  /** Under Regelbesteuerung: whether the invoice has exempt rows (their reason is the club's note). */
  exemptRows = false,
): string {
  const own = orEmpty(club?.taxExemptionNote);
  switch (club?.taxStatus ?? "SMALL_BUSINESS") {
    case "SMALL_BUSINESS":
      return own || SMALL_BUSINESS_NOTE;
    case "EXEMPT":
      return own;
    case "REGULAR":
      return exemptRows ? own : "";
  }
}

/** What a document (an invoice, a reminder letter) says of the club: {{club.name}}, {{club.bank.iban}}, ... */
export function clubTemplateData(club: ClubInvoiceData | null) {
  return {
    name: orEmpty(club?.clubName),
    street: orEmpty(club?.clubStreet),
    zipCity: joined(club?.clubZip, club?.clubCity),
    phone: orEmpty(club?.clubPhone),
    email: orEmpty(club?.clubEmail),
    taxNumber: orEmpty(club?.taxNumber),
    vatId: orEmpty(club?.vatId),
    taxExemptionNote: orEmpty(club?.taxExemptionNote),
    taxNote: taxNoteOf(club),
    bank: {
      accountHolder: orEmpty(club?.bankAccountHolder) || orEmpty(club?.clubName),
      iban: formatIban(club?.iban),
      bic: orEmpty(club?.bic).toUpperCase(),
      name: orEmpty(club?.bankName),
    },
  };
}

/** What a document says of its addressee: {{person.name}}, {{person.street}}, {{person.zipCity}}. */
export function personTemplateData(person: InvoiceDocumentSource["person"]) {
  return {
    name: joined(person.title, person.firstName, person.lastName),
    firstName: person.firstName,
    lastName: person.lastName,
    street: orEmpty(person.streetNumber),
    zipCity: joined(person.zip, person.city),
  };
}

/** '15.03.2026' or '01.01.2026 – 31.12.2026': a row's date or period of service, '' without one. */
function servicePeriod(from: string | null, to: string | null): string {
  if (!from) return "";
  return to && to !== from ? `${formatDate(from)} – ${formatDate(to)}` : formatDate(from);
}

/**
 * The invoice's VAT (§ 14 Abs. 4 Satz 1 Nr. 7 and 8 UStG, issue 30): under Regelbesteuerung each
 * row's rate and, per rate, net, tax and gross (worked out on the rate's total, app/lib/tax.ts);
 * a small business or an exempt club shows none of it, only its note.
 */
function taxTemplateData(rows: InvoiceDocumentSource["rows"], status: ClubTaxStatus) {
  const taxed = rows.map((row) => ({ amount: row.amount, taxCase: row.taxCase ?? "NOT_TAXABLE" }));
  const lines = taxSummary(taxed, status);
  return {
    showTax: status === "REGULAR",
    caseOf: (row: InvoiceDocumentSource["rows"][number]) => TAX_CASE_SHORT[effectiveTaxCase(status, row.taxCase ?? "NOT_TAXABLE")],
    exemptRows: lines.some((line) => line.taxCase === "EXEMPT"),
    taxLines: lines.map((line) => ({
      label: TAX_CASE_SHORT[line.taxCase],
      net: formatMoney(line.net),
      tax: formatMoney(line.tax),
      gross: formatMoney(line.gross),
    })),
    netTotal: formatMoney(lines.reduce((sum, line) => sum + line.net, 0)),
    taxTotal: formatMoney(lines.reduce((sum, line) => sum + line.tax, 0)),
  };
}

/** The values of the template 'invoice' (every one a formatted string; mustache escapes them). */
export function invoiceTemplateData(source: InvoiceDocumentSource) {
  const { header, rows, person } = source;
  const club = source.club;
  const reference = invoicePaymentReference(header.invoiceNumber);
  const payload = invoiceEpcPayload(club, { invoiceNumber: header.invoiceNumber, openAmount: header.openAmount ?? header.amount });
  const status = header.taxStatus ?? club?.taxStatus ?? "SMALL_BUSINESS";
  const { caseOf, exemptRows, ...tax } = taxTemplateData(rows, status);
  return {
    // The note follows the status the invoice was issued under, not today's.
    club: { ...clubTemplateData(club), taxNote: taxNoteOf(club && { ...club, taxStatus: status }, exemptRows) },
    ...tax,
    salutation: salutationOf(person),
    person: personTemplateData(person),
    invoiceNumber: String(header.invoiceNumber),
    /** 'Rechnung', 'Stornorechnung' or 'Gutschrift' (the heading says '{documentTitle} Nr. {n}'). */
    documentTitle: INVOICE_KIND_LABELS[header.kind ?? "INVOICE"],
    /** The invoice a correction names (number and date; `storno`: cancelled whole, else a credit note), or null for an invoice. */
    corrects: header.corrects
      ? { invoiceNumber: String(header.corrects.invoiceNumber), date: formatDate(header.corrects.date), storno: header.kind === "STORNO" }
      : null,
    /** Whether the document asks for a payment (a correction does not). */
    payable: (header.kind ?? "INVOICE") === "INVOICE",
    date: formatDate(header.date),
    dueDate: formatDate(header.dueDate),
    invoiceAmount: formatMoney(header.amount),
    rows: rows.map((row, index) => ({
      lineNumber: String(row.lineNumber || index + 1),
      text: row.text,
      amount: formatMoney(row.amount),
      service: servicePeriod(row.serviceFrom ?? null, row.serviceTo ?? null),
      tax: caseOf(row),
    })),
    paymentReference: reference,
    /** The GiroCode as inline SVG markup (use it raw: {{{girocode}}}), empty without the club's
     *  IBAN or an open amount. */
    girocode: payload ? girocodeSvg(payload) : "",
  };
}

// ---------------------------------------------------------------------------------------------
// The PDF's file name

/**
 * 'Rechnung_{number}_{lastName}_{year}.pdf' (spec 001 §9; the year is the invoice date's, where
 * the spec had the then-current year fixed): `key` is the R2 key and stored path (ASCII),
 * `display` the name the browser saves it as (umlauts kept).
 */
export function invoicePdfName(header: { invoiceNumber: number; date: string }, lastName: string) {
  const year = header.date.slice(0, 4);
  return {
    key: `Rechnung_${header.invoiceNumber}_${asciiFileNamePart(lastName)}_${year}.pdf`,
    display: `Rechnung_${header.invoiceNumber}_${readableFileNamePart(lastName)}_${year}.pdf`,
  };
}

// ---------------------------------------------------------------------------------------------
// The default template and sample data (the Vorlagen screen's preview)

/** An invoice that exists nowhere, to preview a template with. */
export const SAMPLE_INVOICE: InvoiceDocumentSource = {
  header: { invoiceNumber: 2026001, date: "2026-11-02", dueDate: "2026-12-02", amount: 18_550 },
  rows: [
    { lineNumber: 1, text: "Jahresbeitrag 2026", amount: 6_000, taxCase: "NOT_TAXABLE", serviceFrom: "2026-01-01", serviceTo: "2026-12-31" },
    { lineNumber: 2, text: "Kursgebühr Junghundekurs (Luna)", amount: 11_000, taxCase: "STANDARD", serviceFrom: "2026-09-06", serviceTo: "2026-10-25" },
    { lineNumber: 3, text: "Prüfungsgebühr BH/VT", amount: 1_550, taxCase: "STANDARD", serviceFrom: "2026-10-31" },
  ],
  person: { salutation: "Frau", title: null, firstName: "Erika", lastName: "Mustermann", streetNumber: "Heidestraße 17", zip: "51147", city: "Köln" },
  club: DEMO_CLUB,
};

/**
 * The invoice template a new installation starts with (HTML for Chromium, A4 portrait; the page
 * margins and the footer 'Seite x von y' come from the PDF settings, app/services/pdf.server.ts).
 * Every value is `{{escaped}}`.
 */
export const DEFAULT_INVOICE_TEMPLATE = `<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>Rechnung {{invoiceNumber}}</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10pt; line-height: 1.4; color: #1e293b; }
  .head { display: flex; justify-content: space-between; align-items: flex-start; }
  .club { text-align: right; font-size: 9pt; }
  .club strong { display: block; font-size: 13pt; color: #7c2d12; }
  .sender { font-size: 7pt; color: #64748b; border-bottom: 0.5pt solid #94a3b8; display: inline-block; margin-bottom: 2mm; }
  .address { margin-top: 12mm; min-height: 35mm; }
  .facts { margin-top: 4mm; border-collapse: collapse; font-size: 9.5pt; }
  .facts th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  h1 { font-size: 16pt; margin: 10mm 0 4mm; }
  table.rows { width: 100%; border-collapse: collapse; margin-top: 4mm; }
  table.rows th { text-align: left; border-bottom: 1pt solid #334155; padding: 1.5mm 2mm; }
  table.rows td { border-bottom: 0.5pt solid #cbd5e1; padding: 1.5mm 2mm; vertical-align: top; }
  table.rows tr { page-break-inside: avoid; }
  .num { text-align: right; white-space: nowrap; }
  .pos { width: 12mm; }
  .service { font-size: 8.5pt; color: #475569; }
  tfoot td { font-weight: bold; border-bottom: none; border-top: 1pt solid #334155; }
  .payment { margin-top: 8mm; page-break-inside: avoid; }
  .bank { margin-top: 2mm; border-collapse: collapse; }
  .bank th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  .tax { margin-top: 6mm; font-size: 9pt; color: #334155; }
  table.taxes { margin: 4mm 0 0 auto; border-collapse: collapse; font-size: 9pt; }
  table.taxes th, table.taxes td { padding: 1mm 2mm; }
  table.taxes th { text-align: left; font-weight: normal; color: #475569; border-bottom: 0.5pt solid #94a3b8; }
  table.taxes tfoot td { border-top: 0.5pt solid #94a3b8; }
  .girocode { margin-top: 4mm; font-size: 8pt; color: #475569; }
  .girocode svg { display: block; margin-bottom: 1mm; }
</style>
</head>
<body>
  <div class="head">
    <div class="address">
      <div class="sender">{{club.name}} · {{club.street}} · {{club.zipCity}}</div>
      <div>{{person.name}}</div>
      <div>{{person.street}}</div>
      <div>{{person.zipCity}}</div>
    </div>
    <div class="club">
      <strong>{{club.name}}</strong>
      <div>{{club.street}}</div>
      <div>{{club.zipCity}}</div>
      {{#club.phone}}<div>Telefon: {{club.phone}}</div>{{/club.phone}}
      {{#club.email}}<div>E-Mail: {{club.email}}</div>{{/club.email}}
      {{#club.taxNumber}}<div>Steuernummer: {{club.taxNumber}}</div>{{/club.taxNumber}}
      {{#club.vatId}}<div>USt-IdNr.: {{club.vatId}}</div>{{/club.vatId}}
    </div>
  </div>
  <table class="facts">
    <tr><th>Rechnungsnummer</th><td>{{invoiceNumber}}</td></tr>
    <tr><th>Rechnungsdatum</th><td>{{date}}</td></tr>
    {{#dueDate}}<tr><th>Fälligkeitsdatum</th><td>{{dueDate}}</td></tr>{{/dueDate}}
  </table>
  <h1>{{documentTitle}} Nr. {{invoiceNumber}}</h1>
  <p>{{salutation}}</p>
  {{^corrects}}<p>hiermit stellen wir Ihnen folgende Leistungen in Rechnung:</p>{{/corrects}}
  {{#corrects}}<p>{{#corrects.storno}}hiermit stornieren wir unsere Rechnung Nr. {{corrects.invoiceNumber}} vom {{corrects.date}} vollständig. Es ist nichts zu zahlen.{{/corrects.storno}}{{^corrects.storno}}hiermit schreiben wir Ihnen zu unserer Rechnung Nr. {{corrects.invoiceNumber}} vom {{corrects.date}} den folgenden Betrag gut (Rechnungskorrektur). Er wird mit der Rechnung verrechnet; was Sie darüber hinaus schon gezahlt haben, erstatten wir Ihnen oder verrechnen es mit der nächsten Rechnung.{{/corrects.storno}}</p>{{/corrects}}
  <table class="rows">
    <thead><tr><th class="pos">Pos.</th><th>Text</th>{{#showTax}}<th class="num">USt.</th>{{/showTax}}<th class="num">Betrag</th></tr></thead>
    <tbody>
      {{#rows}}<tr><td class="pos">{{lineNumber}}</td><td>{{text}}{{#service}} <span class="service">(Leistung: {{service}})</span>{{/service}}</td>{{#showTax}}<td class="num">{{tax}}</td>{{/showTax}}<td class="num">{{amount}}</td></tr>{{/rows}}
    </tbody>
    <tfoot><tr><td></td><td>Summe</td>{{#showTax}}<td></td>{{/showTax}}<td class="num">{{invoiceAmount}}</td></tr></tfoot>
  </table>
  {{#showTax}}<table class="taxes">
    <thead><tr><th>Umsatzsteuer</th><th class="num">Netto</th><th class="num">Steuer</th><th class="num">Brutto</th></tr></thead>
    <tbody>{{#taxLines}}<tr><td>{{label}}</td><td class="num">{{net}}</td><td class="num">{{tax}}</td><td class="num">{{gross}}</td></tr>{{/taxLines}}</tbody>
    <tfoot><tr><td>Gesamt</td><td class="num">{{netTotal}}</td><td class="num">{{taxTotal}}</td><td class="num">{{invoiceAmount}}</td></tr></tfoot>
  </table>{{/showTax}}
  {{#payable}}<div class="payment">
    <p>Bitte überweisen Sie den Betrag von {{invoiceAmount}}{{#dueDate}} bis zum {{dueDate}}{{/dueDate}} unter Angabe des Verwendungszwecks <strong>{{paymentReference}}</strong> auf folgendes Konto:</p>
    <table class="bank">
      <tr><th>Kontoinhaber</th><td>{{club.bank.accountHolder}}</td></tr>
      <tr><th>IBAN</th><td>{{club.bank.iban}}</td></tr>
      <tr><th>BIC</th><td>{{club.bank.bic}}</td></tr>
      {{#club.bank.name}}<tr><th>Bank</th><td>{{club.bank.name}}</td></tr>{{/club.bank.name}}
      <tr><th>Verwendungszweck</th><td>{{paymentReference}}</td></tr>
    </table>
    {{#girocode}}<div class="girocode">{{{girocode}}}<div>Bequem bezahlen: GiroCode mit der Banking-App scannen</div></div>{{/girocode}}
  </div>{{/payable}}
  {{#club.taxNote}}<p class="tax">{{club.taxNote}}</p>{{/club.taxNote}}
  <p>Mit freundlichen Grüßen<br>{{club.name}}</p>
</body>
</html>
`;
