/**
 * The e-invoice (issue 35 item 6): an issued invoice, Stornorechnung or Gutschrift as XRechnung 3.0
 * in the UN/CEFACT Cross Industry Invoice syntax (CII D16B, EN 16931-1 with the German CIUS
 * XRechnung), the same XML that the PDF of a business recipient carries as its ZUGFeRD attachment.
 * Pure: made from the invoice as it was issued (header, rows, recipient, the club's settings), so
 * the same invoice always gives the same bytes (no time stamp, no open amount).
 *
 * - Type code (BT-3): 380 (commercial invoice) for an invoice; 381 (credit note) for a Gutschrift and
 *   for a Stornorechnung, both naming the invoice they correct as BT-25/BT-26. Not 384 (corrected
 *   invoice): that replaces an invoice with a new full one, while Wuff's Storno cancels it and its
 *   Gutschrift credits part of it. A credit note states its amounts as positive numbers (the
 *   amounts the club owes back), so Wuff's negative correction rows are negated.
 * - Amounts: Wuff's rows are gross; EN 16931 states each line's net amount (BT-131) and, per VAT
 *   category, the net basis (BT-116) and the tax (BT-117). Both come from `taxSummary`, the
 *   calculation the PDF prints (tax once per rate on its total), so the XML's totals equal the
 *   PDF's to the cent; the lines' net amounts are each row's own net with the category's rounding
 *   difference spread over its largest rows one cent at a time, so they add up to the basis.
 *   EN 16931 computes the tax from the net (BR-S-09); where the PDF's net would give a cent more or
 *   less, the basis moves by that cent and the rounding amount (BT-114) takes it (`basisForTax`):
 *   tax and amount due are always the PDF's.
 *   Quantity 1 (−1 for a negative line, as the item price BT-146 must not be negative), unit C62.
 * - VAT categories (BT-118, BT-151): 19 % and 7 % are S; an exempt row (steuerfrei) and every row
 *   of a small business (§ 19 UStG) or of an exempt club are E with the club's note as the
 *   exemption reason (BT-120; § 19 UStG has no VATEX code); a not taxable row (echter
 *   Mitgliedsbeitrag) is O (VATEX-EU-O) when the whole invoice is not taxable, and otherwise goes
 *   into the E category with the reason naming both, since EN 16931 allows O on no invoice with
 *   other categories (BR-O-11, BR-O-12).
 * - CIUS XRechnung: BT-10 Buyer reference is the person's number in Wuff (there is no Leitweg-ID;
 *   a private buyer accepts any reference), seller contact BT-41..43 from Einstellungen, electronic
 *   addresses BT-34/BT-49 as e-mail (scheme EM), payment means 58 (SEPA credit transfer) with the
 *   club's IBAN, the remittance 'ReNr {n}' as BT-83. The seller is identified by its USt-IdNr.
 *   (BT-31) or, without one on the invoice, by BT-29 (its Steuernummer), as BR-CO-26 asks.
 */
import { XMLBuilder } from "fast-xml-parser";
import { taxNoteOf, type ClubInvoiceData, type InvoiceDocumentSource } from "./invoice-document";
import type { InvoiceKindName } from "./invoice-state";
import { effectiveTaxCase, taxOfGross, taxSummary, type ClubTaxStatus, type TaxCase } from "./tax";

/** BT-24 of XRechnung 3.0.x (CIUS), BT-23 the Peppol billing process KoSIT recommends. */
export const XRECHNUNG_SPECIFICATION = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0";
const BUSINESS_PROCESS = "urn:fdc:peppol.eu:2017:poacc:billing:01.0";

/** The reason printed for not taxable rows in an e-invoice (BT-120). */
export const NOT_TAXABLE_REASON = "Nicht steuerbar (kein Leistungsaustausch, z. B. echter Mitgliedsbeitrag)";

export type XRechnungSource = {
  header: {
    invoiceNumber: number;
    date: string;
    dueDate: string | null;
    kind: InvoiceKindName;
    /** The club's status the invoice was issued under. */
    taxStatus: ClubTaxStatus;
    corrects: { invoiceNumber: number; date: string } | null;
  };
  rows: { lineNumber: number; text: string; amount: number; serviceFrom: string | null; serviceTo: string | null; taxCase: TaxCase }[];
  buyer: {
    /** BT-10 and BT-46: the person's number in Wuff. */
    reference: string;
    title: string | null;
    firstName: string;
    lastName: string;
    streetNumber: string | null;
    zip: string | null;
    city: string | null;
    email: string | null;
  };
  club: ClubInvoiceData | null;
};

export type XRechnungResult = { ok: true; xml: string; fileName: string } | { ok: false; missing: string[] };

/** The e-invoice's data from an invoice document as the PDF is made of it (issued: frozen), and
 *  the recipient's number and e-mail in Wuff. */
export function xrechnungSourceOf(document: InvoiceDocumentSource & { recipient: { id: number; email: string | null } }): XRechnungSource {
  const { header, person } = document;
  return {
    header: {
      invoiceNumber: header.invoiceNumber,
      date: header.date,
      dueDate: header.dueDate,
      kind: header.kind ?? "INVOICE",
      taxStatus: header.taxStatus ?? document.club?.taxStatus ?? "SMALL_BUSINESS",
      corrects: header.corrects ?? null,
    },
    rows: document.rows.map((row) => ({
      lineNumber: row.lineNumber,
      text: row.text,
      amount: row.amount,
      serviceFrom: row.serviceFrom ?? null,
      serviceTo: row.serviceTo ?? null,
      taxCase: row.taxCase ?? "NOT_TAXABLE",
    })),
    buyer: {
      reference: String(document.recipient.id),
      title: person.title,
      firstName: person.firstName,
      lastName: person.lastName,
      streetNumber: person.streetNumber,
      zip: person.zip,
      city: person.city,
      email: document.recipient.email,
    },
    club: document.club,
  };
}

/** The file name of the download ('XRechnung_2026001.xml'). */
const xrechnungFileName = (invoiceNumber: number) => `XRechnung_${invoiceNumber}.xml`;

/** What an e-invoice needs that Wuff may not have (German, for the refusal). */
function missingData(source: XRechnungSource, needsTaxId: boolean): string[] {
  const club = source.club;
  const blank = (value: string | null | undefined) => !value?.trim();
  const missing: string[] = [];
  if (blank(club?.clubName)) missing.push("Name des Vereins (Einstellungen)");
  if (blank(club?.clubZip) || blank(club?.clubCity)) missing.push("PLZ und Ort des Vereins (Einstellungen)");
  if (blank(club?.clubPhone)) missing.push("Telefon des Vereins (Einstellungen)");
  if (blank(club?.clubEmail)) missing.push("E-Mail des Vereins (Einstellungen)");
  if (blank(club?.iban)) missing.push("IBAN des Vereins (Einstellungen)");
  if (needsTaxId && blank(club?.taxNumber) && blank(club?.vatId)) missing.push("Steuernummer oder USt-IdNr. des Vereins (Einstellungen)");
  if (blank(source.buyer.zip) || blank(source.buyer.city)) missing.push("PLZ und Ort der Empfängerin / des Empfängers");
  if (blank(source.buyer.email)) missing.push("E-Mail-Adresse der Empfängerin / des Empfängers");
  return missing;
}

/** Cents as an XML decimal: 1234 → '12.34', -5 → '-0.05'. */
export function decimalOfCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** '2026-03-15' → '20260315' (format 102). */
const date102 = (iso: string) => ({ "udt:DateTimeString": { "@_format": "102", "#text": iso.slice(0, 10).replaceAll("-", "") } });

type Category = {
  code: "S" | "E" | "O";
  ratePercent: number;
  net: number;
  tax: number;
  reason?: string;
  reasonCode?: string;
};

/**
 * Each row's net amount, so that the rows of one tax case add up to that case's net in the summary:
 * the row's own net, then the case's rounding difference spread one cent at a time over its rows,
 * largest first.
 */
export function lineNets(rows: readonly { amount: number }[], ratePercent: number, caseNet: number): number[] {
  const nets = rows.map((row) => row.amount - taxOfGross(row.amount, ratePercent));
  let difference = caseNet - nets.reduce((sum, net) => sum + net, 0);
  const order = rows.map((_, index) => index).sort((a, b) => Math.abs(rows[b].amount) - Math.abs(rows[a].amount) || a - b);
  for (let i = 0; difference !== 0 && order.length > 0; i = (i + 1) % order.length) {
    const step = difference > 0 ? 1 : -1;
    nets[order[i]] += step;
    difference -= step;
  }
  return nets;
}

/** The tax EN 16931 asks for on a net (BR-S-09: BT-116 × BT-119 / 100, rounded to the cent half
 *  up, as XPath's round() does), in cents. */
export const en16931Tax = (net: number, ratePercent: number) => Math.floor((net * ratePercent + 50) / 100);

/**
 * The net (BT-116) closest to `net` on which EN 16931 computes exactly `tax`. Wuff works the tax
 * out of the gross (the PDF's figures); on about one rate total in six, gross − tax gives a net
 * whose tax EN 16931 rounds to a cent more or less. Then the basis moves by that cent, the tax
 * stays the PDF's, and the cent goes into the rounding amount (BT-114), so what is to be paid
 * (BT-115) is still the invoice's amount.
 */
export function basisForTax(net: number, ratePercent: number, tax: number): number {
  for (let step = 0; step <= 100; step++) {
    if (en16931Tax(net - step, ratePercent) === tax) return net - step;
    if (en16931Tax(net + step, ratePercent) === tax) return net + step;
  }
  throw new RangeError(`Kein Nettobetrag mit ${tax} Cent Steuer bei ${ratePercent} %`);
}

/** The e-invoice of an issued invoice, or what is missing to make one. */
export function buildXRechnung(source: XRechnungSource): XRechnungResult {
  const { header, club, buyer } = source;
  const status = header.taxStatus;
  const isCorrection = header.kind !== "INVOICE";
  // A credit note states what the club owes back as positive amounts.
  const sign = isCorrection ? -1 : 1;
  const rows = source.rows.map((row) => ({ ...row, amount: sign * row.amount, taxCase: effectiveTaxCase(status, row.taxCase) }));
  const summary = taxSummary(rows, status);

  const onlyNotTaxable = summary.length > 0 && summary.every((line) => line.taxCase === "NOT_TAXABLE");
  // The club's note as the PDF prints it (§ 19 UStG, the exemption's legal reason).
  const exemptReason = taxNoteOf(club && { ...club, taxStatus: status }, true) || "Steuerfreier Umsatz";
  const categoryOf = (taxCase: TaxCase): Category["code"] => {
    if (taxCase === "STANDARD" || taxCase === "REDUCED") return "S";
    if (taxCase === "NOT_TAXABLE" && onlyNotTaxable) return "O";
    return "E";
  };
  const needsTaxId = summary.some((line) => categoryOf(line.taxCase) !== "O");
  const missing = missingData(source, needsTaxId);
  if (missing.length > 0 || !club) return { ok: false, missing };

  // The net of each case as EN 16931 states it: the PDF's net, but for S the basis on which
  // EN 16931 computes the PDF's tax exactly (BR-S-09, `basisForTax`).
  const basisOf = new Map(
    summary.map((line) => [line.taxCase, categoryOf(line.taxCase) === "S" ? basisForTax(line.net, line.ratePercent, line.tax) : line.net]),
  );
  // The categories of the VAT breakdown (BG-23): S per rate, one E, or O alone.
  const categories: Category[] = [];
  for (const line of summary) {
    const code = categoryOf(line.taxCase);
    if (code === "S") categories.push({ code, ratePercent: line.ratePercent, net: basisOf.get(line.taxCase)!, tax: line.tax });
    else if (code === "O") categories.push({ code, ratePercent: 0, net: line.net, tax: 0, reason: NOT_TAXABLE_REASON, reasonCode: "VATEX-EU-O" });
    else {
      const reason = line.taxCase === "NOT_TAXABLE" ? NOT_TAXABLE_REASON : exemptReason;
      const existing = categories.find((category) => category.code === "E");
      if (existing) {
        existing.net += line.net;
        existing.reason = `${existing.reason}; ${reason}`;
      } else categories.push({ code, ratePercent: 0, net: line.net, tax: 0, reason });
    }
  }

  // Each row's net, by its case's summary line.
  const netOfRow = new Map<number, number>();
  for (const line of summary) {
    const indexes = rows.flatMap((row, index) => (row.taxCase === line.taxCase ? [index] : []));
    const nets = lineNets(
      indexes.map((index) => rows[index]),
      line.ratePercent,
      basisOf.get(line.taxCase)!,
    );
    indexes.forEach((index, i) => netOfRow.set(index, nets[i]));
  }

  const lineTotal = summary.reduce((sum, line) => sum + basisOf.get(line.taxCase)!, 0);
  const taxTotal = summary.reduce((sum, line) => sum + line.tax, 0);
  // What is to be paid is the invoice's amount; the grand total may differ from it by the cents
  // the bases moved (BT-114, rounding amount).
  const payable = summary.reduce((sum, line) => sum + line.gross, 0);
  const grandTotal = lineTotal + taxTotal;
  const rounding = payable - grandTotal;
  const servicePeriod = (from: string | null, to: string | null) =>
    from ? { "ram:StartDateTime": date102(from), "ram:EndDateTime": date102(to && to >= from ? to : from) } : undefined;
  const starts = rows.flatMap((row) => (row.serviceFrom ? [row.serviceFrom] : [])).sort();
  const ends = rows.flatMap((row) => (row.serviceFrom ? [row.serviceTo && row.serviceTo >= row.serviceFrom ? row.serviceTo : row.serviceFrom] : [])).sort();

  const lines = rows.map((row, index) => {
    const net = netOfRow.get(index) ?? 0;
    const code = categoryOf(row.taxCase);
    return {
      "ram:AssociatedDocumentLineDocument": { "ram:LineID": String(index + 1) },
      "ram:SpecifiedTradeProduct": { "ram:Name": row.text.trim() || "Posten" },
      "ram:SpecifiedLineTradeAgreement": { "ram:NetPriceProductTradePrice": { "ram:ChargeAmount": decimalOfCents(Math.abs(net)) } },
      "ram:SpecifiedLineTradeDelivery": { "ram:BilledQuantity": { "@_unitCode": "C62", "#text": net < 0 ? "-1" : "1" } },
      "ram:SpecifiedLineTradeSettlement": {
        "ram:ApplicableTradeTax": {
          "ram:TypeCode": "VAT",
          "ram:CategoryCode": code,
          // Not subject to VAT carries no rate on the line (BR-O-05).
          "ram:RateApplicablePercent": code === "O" ? undefined : String(code === "S" ? (row.taxCase === "REDUCED" ? 7 : 19) : 0),
        },
        "ram:BillingSpecifiedPeriod": servicePeriod(row.serviceFrom, row.serviceTo),
        "ram:SpecifiedTradeSettlementLineMonetarySummation": { "ram:LineTotalAmount": decimalOfCents(net) },
      },
    };
  });

  const buyerName = [buyer.title, buyer.firstName, buyer.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(" ");
  // A seller VAT identifier is not allowed on an invoice not subject to VAT (BR-O-02).
  const vatId = needsTaxId ? club.vatId?.trim() : undefined;
  // Without it, the seller is identified by BT-29 (BR-CO-26): the Steuernummer, else the e-mail.
  const sellerId = vatId ? undefined : club.taxNumber?.trim() || club.vatId?.trim() || club.clubEmail!.trim();
  const taxRegistrations = [
    vatId ? { "ram:ID": { "@_schemeID": "VA", "#text": vatId } } : undefined,
    club.taxNumber?.trim() ? { "ram:ID": { "@_schemeID": "FC", "#text": club.taxNumber.trim() } } : undefined,
  ].filter(Boolean);

  const corrects = header.corrects;
  const notes = corrects
    ? [
        {
          "ram:Content":
            header.kind === "STORNO"
              ? `Stornorechnung: Hiermit stornieren wir unsere Rechnung Nr. ${corrects.invoiceNumber} vollständig.`
              : `Gutschrift (Rechnungskorrektur) zu unserer Rechnung Nr. ${corrects.invoiceNumber}.`,
        },
      ]
    : [];
  const dueDate = !isCorrection && header.dueDate ? header.dueDate : null;
  const paymentTerms = isCorrection
    ? "Der Betrag wird mit offenen Posten verrechnet oder erstattet."
    : dueDate
      ? `Zahlbar bis ${dueDate.slice(8, 10)}.${dueDate.slice(5, 7)}.${dueDate.slice(0, 4)} ohne Abzug.`
      : "Zahlbar sofort ohne Abzug.";

  const document = {
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    "rsm:CrossIndustryInvoice": {
      "@_xmlns:rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
      "@_xmlns:ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
      "@_xmlns:qdt": "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
      "@_xmlns:udt": "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
      "rsm:ExchangedDocumentContext": {
        "ram:BusinessProcessSpecifiedDocumentContextParameter": { "ram:ID": BUSINESS_PROCESS },
        "ram:GuidelineSpecifiedDocumentContextParameter": { "ram:ID": XRECHNUNG_SPECIFICATION },
      },
      "rsm:ExchangedDocument": {
        "ram:ID": String(header.invoiceNumber),
        "ram:TypeCode": isCorrection ? "381" : "380",
        "ram:IssueDateTime": date102(header.date),
        "ram:IncludedNote": notes.length > 0 ? notes : undefined,
      },
      "rsm:SupplyChainTradeTransaction": {
        "ram:IncludedSupplyChainTradeLineItem": lines,
        "ram:ApplicableHeaderTradeAgreement": {
          "ram:BuyerReference": buyer.reference,
          "ram:SellerTradeParty": {
            "ram:ID": sellerId,
            "ram:Name": club.clubName!.trim(),
            "ram:DefinedTradeContact": {
              "ram:PersonName": club.clubName!.trim(),
              "ram:TelephoneUniversalCommunication": { "ram:CompleteNumber": club.clubPhone!.trim() },
              "ram:EmailURIUniversalCommunication": { "ram:URIID": club.clubEmail!.trim() },
            },
            "ram:PostalTradeAddress": {
              "ram:PostcodeCode": club.clubZip!.trim(),
              "ram:LineOne": club.clubStreet?.trim() || undefined,
              "ram:CityName": club.clubCity!.trim(),
              "ram:CountryID": "DE",
            },
            "ram:URIUniversalCommunication": { "ram:URIID": { "@_schemeID": "EM", "#text": club.clubEmail!.trim() } },
            "ram:SpecifiedTaxRegistration": taxRegistrations.length > 0 ? taxRegistrations : undefined,
          },
          "ram:BuyerTradeParty": {
            "ram:ID": buyer.reference,
            "ram:Name": buyerName,
            "ram:PostalTradeAddress": {
              "ram:PostcodeCode": buyer.zip!.trim(),
              "ram:LineOne": buyer.streetNumber?.trim() || undefined,
              "ram:CityName": buyer.city!.trim(),
              "ram:CountryID": "DE",
            },
            "ram:URIUniversalCommunication": { "ram:URIID": { "@_schemeID": "EM", "#text": buyer.email!.trim() } },
          },
        },
        // BT-72: when the service was completed (the last day of service; the invoice's date without
        // one), so that no element is left empty.
        "ram:ApplicableHeaderTradeDelivery": {
          "ram:ActualDeliverySupplyChainEvent": { "ram:OccurrenceDateTime": date102(ends.length > 0 ? ends[ends.length - 1] : header.date) },
        },
        "ram:ApplicableHeaderTradeSettlement": {
          "ram:PaymentReference": `ReNr ${header.invoiceNumber}`,
          "ram:InvoiceCurrencyCode": "EUR",
          "ram:SpecifiedTradeSettlementPaymentMeans": {
            "ram:TypeCode": "58",
            "ram:PayeePartyCreditorFinancialAccount": {
              "ram:IBANID": club.iban!.replace(/\s+/g, "").toUpperCase(),
              "ram:AccountName": club.bankAccountHolder?.trim() || club.clubName!.trim(),
            },
            "ram:PayeeSpecifiedCreditorFinancialInstitution": club.bic?.trim() ? { "ram:BICID": club.bic.trim().toUpperCase() } : undefined,
          },
          "ram:ApplicableTradeTax": categories.map((category) => ({
            "ram:CalculatedAmount": decimalOfCents(category.tax),
            "ram:TypeCode": "VAT",
            "ram:ExemptionReason": category.reason,
            "ram:BasisAmount": decimalOfCents(category.net),
            "ram:CategoryCode": category.code,
            "ram:ExemptionReasonCode": category.reasonCode,
            "ram:RateApplicablePercent": String(category.ratePercent),
          })),
          "ram:BillingSpecifiedPeriod":
            starts.length > 0 ? { "ram:StartDateTime": date102(starts[0]), "ram:EndDateTime": date102(ends[ends.length - 1]) } : undefined,
          "ram:SpecifiedTradePaymentTerms": {
            "ram:Description": paymentTerms,
            "ram:DueDateDateTime": dueDate ? date102(dueDate) : undefined,
          },
          "ram:SpecifiedTradeSettlementHeaderMonetarySummation": {
            "ram:LineTotalAmount": decimalOfCents(lineTotal),
            "ram:TaxBasisTotalAmount": decimalOfCents(lineTotal),
            "ram:TaxTotalAmount": { "@_currencyID": "EUR", "#text": decimalOfCents(taxTotal) },
            "ram:RoundingAmount": rounding === 0 ? undefined : decimalOfCents(rounding),
            "ram:GrandTotalAmount": decimalOfCents(grandTotal),
            "ram:DuePayableAmount": decimalOfCents(payable),
          },
          "ram:InvoiceReferencedDocument": corrects
            ? {
                "ram:IssuerAssignedID": String(corrects.invoiceNumber),
                "ram:FormattedIssueDateTime": { "qdt:DateTimeString": { "@_format": "102", "#text": corrects.date.slice(0, 10).replaceAll("-", "") } },
              }
            : undefined,
        },
      },
    },
  };
  return { ok: true, xml: builder.build(document) as string, fileName: xrechnungFileName(header.invoiceNumber) };
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", format: true, indentBy: "  ", suppressEmptyNode: true });

/** The refusal when an e-invoice cannot be made ('Für die E-Rechnung fehlt: …'). */
export const xrechnungMissingMessage = (missing: readonly string[]) => `Für die E-Rechnung (XRechnung) fehlt: ${missing.join(", ")}.`;
