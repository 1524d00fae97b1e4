/**
 * Selected business rules of EN 16931-1 (BR-*, BR-CO-*, BR-S/E/O-*) and of the CIUS XRechnung 3.0
 * (BR-DE-*), restated here in TypeScript over a CII invoice, for the e-invoice tests (issue 35
 * item 6). NOT the official Schematron: the CEN and KoSIT Schematron artefacts could not be had
 * from the package registries this machine reaches (see docs/money.md, 'E-Rechnung'). Each check
 * names the rule it restates; amounts are compared in cents, exactly (BR-S-09 rounds half up, as
 * XPath's round() in the official rule does).
 */
import { XMLParser } from "fast-xml-parser";

const ARRAYS = new Set(["IncludedSupplyChainTradeLineItem", "ApplicableTradeTax", "SpecifiedTaxRegistration", "IncludedNote"]);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => ARRAYS.has(name),
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed XML tree
type Node = any;

const text = (node: Node): string | undefined => (node === undefined || node === null ? undefined : typeof node === "object" ? node["#text"] : String(node));

/** '12.34' → 1234, '-0.05' → -5; NaN for anything with more than two decimals or not a number. */
export function centsOf(value: string | undefined): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value ?? "");
  if (!match) return Number.NaN;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "0").padEnd(2, "0"));
  return match[1] ? -cents : cents;
}

/** ISO 13616 check of an IBAN (mod 97). */
function ibanValid(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
}

export type ParsedInvoice = {
  typeCode: string;
  lines: { id: string; name: string; net: number; price: number; quantity: number; category: string; rate: string | undefined }[];
  breakdown: { category: string; rate: string | undefined; basis: number; tax: number; reason: string | undefined; reasonCode: string | undefined }[];
  totals: { lineTotal: number; taxBasis: number; taxTotal: number; rounding: number; grandTotal: number; duePayable: number };
  preceding: string | undefined;
  root: Node;
};

export function parseCii(xml: string): ParsedInvoice {
  const root = parser.parse(xml).CrossIndustryInvoice;
  const transaction = root.SupplyChainTradeTransaction;
  const settlement = transaction.ApplicableHeaderTradeSettlement;
  const sums = settlement.SpecifiedTradeSettlementHeaderMonetarySummation;
  return {
    typeCode: text(root.ExchangedDocument?.TypeCode) ?? "",
    lines: (transaction.IncludedSupplyChainTradeLineItem ?? []).map((line: Node) => {
      const tax = line.SpecifiedLineTradeSettlement?.ApplicableTradeTax?.[0];
      return {
        id: text(line.AssociatedDocumentLineDocument?.LineID) ?? "",
        name: text(line.SpecifiedTradeProduct?.Name) ?? "",
        net: centsOf(text(line.SpecifiedLineTradeSettlement?.SpecifiedTradeSettlementLineMonetarySummation?.LineTotalAmount)),
        price: centsOf(text(line.SpecifiedLineTradeAgreement?.NetPriceProductTradePrice?.ChargeAmount)),
        quantity: Number(text(line.SpecifiedLineTradeDelivery?.BilledQuantity)),
        category: text(tax?.CategoryCode) ?? "",
        rate: text(tax?.RateApplicablePercent),
      };
    }),
    breakdown: (settlement.ApplicableTradeTax ?? []).map((tax: Node) => ({
      category: text(tax.CategoryCode) ?? "",
      rate: text(tax.RateApplicablePercent),
      basis: centsOf(text(tax.BasisAmount)),
      tax: centsOf(text(tax.CalculatedAmount)),
      reason: text(tax.ExemptionReason),
      reasonCode: text(tax.ExemptionReasonCode),
    })),
    totals: {
      lineTotal: centsOf(text(sums?.LineTotalAmount)),
      taxBasis: centsOf(text(sums?.TaxBasisTotalAmount)),
      taxTotal: centsOf(text(sums?.TaxTotalAmount)),
      rounding: sums?.RoundingAmount === undefined ? 0 : centsOf(text(sums.RoundingAmount)),
      grandTotal: centsOf(text(sums?.GrandTotalAmount)),
      duePayable: centsOf(text(sums?.DuePayableAmount)),
    },
    preceding: text(settlement.InvoiceReferencedDocument?.IssuerAssignedID),
    root,
  };
}

/** The rules the invoice breaks, as 'BR-xx: …' (empty: none of these is broken). */
export function einvoiceRuleErrors(xml: string): string[] {
  const invoice = parseCii(xml);
  const { root, lines, breakdown, totals } = invoice;
  const errors: string[] = [];
  const check = (ok: unknown, rule: string) => {
    if (!ok) errors.push(rule);
  };
  const agreement = root.SupplyChainTradeTransaction.ApplicableHeaderTradeAgreement;
  const settlement = root.SupplyChainTradeTransaction.ApplicableHeaderTradeSettlement;
  const seller = agreement?.SellerTradeParty;
  const buyer = agreement?.BuyerTradeParty;
  const contact = seller?.DefinedTradeContact;
  const means = settlement?.SpecifiedTradeSettlementPaymentMeans;
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

  check(text(root.ExchangedDocumentContext?.GuidelineSpecifiedDocumentContextParameter?.ID), "BR-01: Spezifikationskennung (BT-24) fehlt");
  check(
    text(root.ExchangedDocumentContext?.GuidelineSpecifiedDocumentContextParameter?.ID) ===
      "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0",
    "BR-DE-21: BT-24 ist nicht die Kennung von XRechnung 3.0",
  );
  check(text(root.ExchangedDocument?.ID), "BR-02: Rechnungsnummer (BT-1) fehlt");
  check(/^\d{8}$/.test(text(root.ExchangedDocument?.IssueDateTime?.DateTimeString) ?? ""), "BR-03: Rechnungsdatum (BT-2) fehlt");
  check(["326", "380", "384", "389", "381", "875", "876", "877"].includes(invoice.typeCode), "BR-DE-17: Rechnungsart (BT-3) nicht erlaubt");
  check(text(settlement?.InvoiceCurrencyCode) === "EUR", "BR-05: Währung (BT-5) fehlt");
  check(text(agreement?.BuyerReference), "BR-DE-15: Käuferreferenz (BT-10) fehlt");
  check(text(seller?.Name), "BR-06: Name des Verkäufers (BT-27) fehlt");
  check(text(buyer?.Name), "BR-07: Name des Käufers (BT-44) fehlt");
  check(seller?.PostalTradeAddress, "BR-08: Anschrift des Verkäufers (BG-5) fehlt");
  check(text(seller?.PostalTradeAddress?.CountryID), "BR-09: Land des Verkäufers (BT-40) fehlt");
  check(buyer?.PostalTradeAddress, "BR-10: Anschrift des Käufers (BG-8) fehlt");
  check(text(buyer?.PostalTradeAddress?.CountryID), "BR-11: Land des Käufers (BT-55) fehlt");
  check(text(seller?.PostalTradeAddress?.CityName), "BR-DE-3: Ort des Verkäufers (BT-37) fehlt");
  check(text(seller?.PostalTradeAddress?.PostcodeCode), "BR-DE-4: PLZ des Verkäufers (BT-38) fehlt");
  check(contact, "BR-DE-2: Kontakt des Verkäufers (BG-6) fehlt");
  check(text(contact?.PersonName), "BR-DE-5: Kontaktstelle (BT-41) fehlt");
  check(
    /\d.*\d.*\d/.test(text(contact?.TelephoneUniversalCommunication?.CompleteNumber) ?? ""),
    "BR-DE-6/BR-DE-27: Telefon (BT-42) fehlt oder hat keine drei Ziffern",
  );
  check(/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(text(contact?.EmailURIUniversalCommunication?.URIID) ?? ""), "BR-DE-7/BR-DE-28: E-Mail (BT-43) fehlt oder ungültig");
  check(text(buyer?.PostalTradeAddress?.CityName), "BR-DE-8: Ort des Käufers (BT-52) fehlt");
  check(text(buyer?.PostalTradeAddress?.PostcodeCode), "BR-DE-9: PLZ des Käufers (BT-53) fehlt");
  check(
    seller?.URIUniversalCommunication?.URIID?.["@schemeID"] && text(seller?.URIUniversalCommunication?.URIID),
    "PEPPOL-EN16931-R020: elektronische Adresse des Verkäufers (BT-34) fehlt",
  );
  check(
    buyer?.URIUniversalCommunication?.URIID?.["@schemeID"] && text(buyer?.URIUniversalCommunication?.URIID),
    "PEPPOL-EN16931-R010: elektronische Adresse des Käufers (BT-49) fehlt",
  );

  check(means, "BR-DE-1: Zahlungsanweisungen (BG-16) fehlen");
  if (text(means?.TypeCode) === "58" || text(means?.TypeCode) === "30") {
    const iban = text(means?.PayeePartyCreditorFinancialAccount?.IBANID) ?? "";
    check(iban, "BR-DE-23-a: Überweisung ohne Kontokennung (BT-84)");
    check(ibanValid(iban), "BR-DE-19: IBAN (BT-84) ungültig");
  }
  if (totals.duePayable > 0)
    check(
      settlement?.SpecifiedTradePaymentTerms?.DueDateDateTime || text(settlement?.SpecifiedTradePaymentTerms?.Description),
      "BR-CO-25: Fälligkeit oder Zahlungsbedingungen fehlen",
    );

  check(!/<[\w:]+(\s[^>]*)?\/>|<([\w:]+)(\s[^>]*)?>\s*<\/\2>/.test(xml), "PEPPOL-EN16931-R008: leeres Element");
  check(lines.length > 0, "BR-16: keine Rechnungsposition");
  for (const line of lines) {
    check(line.id, "BR-21: Positionsnummer (BT-126) fehlt");
    check(Number.isFinite(line.quantity), "BR-22: Menge (BT-129) fehlt");
    check(Number.isFinite(line.net), "BR-24: Nettobetrag der Position (BT-131) fehlt");
    check(line.name, "BR-25: Artikelname (BT-153) fehlt");
    check(Number.isFinite(line.price), "BR-26: Nettopreis (BT-146) fehlt");
    check(line.price >= 0, "BR-27: Nettopreis (BT-146) negativ");
    check(line.quantity * line.price === line.net, `Position ${line.id}: Menge × Preis ≠ Nettobetrag`);
    check(line.category, "BR-CO-4: Umsatzsteuerkategorie der Position (BT-151) fehlt");
    if (line.category === "S") check(Number(line.rate) > 0, "BR-S-05: Steuersatz der Position (BT-152) fehlt oder 0");
    if (line.category === "E") check(line.rate === "0", "BR-E-05: Steuersatz der Position (BT-152) nicht 0");
    if (line.category === "O") check(line.rate === undefined, "BR-O-05: Position mit Kategorie O hat einen Steuersatz");
  }

  check(totals.lineTotal === sum(lines.map((line) => line.net)), "BR-CO-10: Summe der Positionen (BT-106) ≠ Σ BT-131");
  check(totals.taxBasis === totals.lineTotal, "BR-CO-13: Summe ohne USt (BT-109) ≠ BT-106");
  check(totals.taxTotal === sum(breakdown.map((tax) => tax.tax)), "BR-CO-14: Umsatzsteuer gesamt (BT-110) ≠ Σ BT-117");
  check(totals.grandTotal === totals.taxBasis + totals.taxTotal, "BR-CO-15: Gesamtbetrag (BT-112) ≠ BT-109 + BT-110");
  check(totals.duePayable === totals.grandTotal + totals.rounding, "BR-CO-16: Zahlbetrag (BT-115) ≠ BT-112 − BT-113 + BT-114");
  check(breakdown.length > 0, "BR-CO-18: keine Aufschlüsselung der Umsatzsteuer (BG-23)");
  for (const tax of breakdown) {
    check(tax.rate !== undefined, "BR-DE-14: Steuersatz der Kategorie (BT-119) fehlt");
    const ofCategory = lines.filter((line) => line.category === tax.category && (tax.category !== "S" || Number(line.rate) === Number(tax.rate)));
    check(
      tax.basis === sum(ofCategory.map((line) => line.net)),
      `BR-${tax.category}-08: Bemessungsgrundlage (BT-116) ≠ Σ BT-131 der Kategorie ${tax.category} ${tax.rate ?? ""}`,
    );
    if (tax.category === "S") {
      check(tax.tax === Math.floor((tax.basis * Number(tax.rate) + 50) / 100), `BR-S-09/BR-CO-17: Steuer (BT-117) ≠ BT-116 × BT-119 (Kategorie S ${tax.rate})`);
    } else {
      check(tax.tax === 0, `BR-${tax.category}-09: Steuer der Kategorie ${tax.category} nicht 0`);
      check(tax.reason || tax.reasonCode, `BR-${tax.category}-10: Befreiungsgrund (BT-120/121) fehlt`);
    }
  }
  const categories = new Set(breakdown.map((tax) => tax.category));
  for (const line of lines)
    check(
      breakdown.some((tax) => tax.category === line.category),
      `BR-${line.category}-01: Kategorie ohne Aufschlüsselung`,
    );
  check(breakdown.filter((tax) => tax.category === "E").length <= 1, "BR-E-01: mehr als eine Aufschlüsselung der Kategorie E");
  if (categories.has("O")) {
    check(categories.size === 1, "BR-O-11: Kategorie O neben anderen Kategorien");
    const registrations: Node[] = seller?.SpecifiedTaxRegistration ?? [];
    check(!registrations.some((registration) => registration.ID?.["@schemeID"] === "VA"), "BR-O-02: USt-IdNr. des Verkäufers bei Kategorie O");
  }
  check(
    text(seller?.ID) ||
      text(seller?.SpecifiedLegalOrganization?.ID) ||
      (seller?.SpecifiedTaxRegistration ?? []).some((registration: Node) => registration.ID?.["@schemeID"] === "VA"),
    "BR-CO-26: Verkäufer ohne Kennung (BT-29, BT-30 oder BT-31)",
  );
  if (categories.has("S") || categories.has("E")) {
    const registrations: Node[] = seller?.SpecifiedTaxRegistration ?? [];
    check(
      registrations.some((registration) => ["VA", "FC"].includes(registration.ID?.["@schemeID"])),
      "BR-DE-16/BR-S-02/BR-E-02: Steuernummer oder USt-IdNr. des Verkäufers fehlt",
    );
  }
  if (invoice.typeCode === "381" || invoice.typeCode === "384") check(invoice.preceding, "BR-DE-26/BR-55: Korrektur ohne Bezug auf die Rechnung (BT-25)");
  return errors;
}
