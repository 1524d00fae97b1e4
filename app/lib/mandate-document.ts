/**
 * The SEPA-Lastschriftmandat given online in Mein Wuff (issue 32 item 4) as a document: what the
 * SEPA Core rulebook (DS-01) asks a mandate to name — the creditor with its address and creditor
 * identifier, the mandate reference, recurrent payments, the debtor with address, IBAN (and BIC
 * outside Germany), the mandate text with the refund note (eight weeks), date and place — and how
 * it was signed: online, confirmed through a link mailed to the debtor's address. Rendered to PDF
 * and kept in R2 as the record of the mandate (§ 675j BGB: the payer's consent must be provable by
 * the payee; an online mandate without a handwritten signature leaves that risk with the club,
 * which needs its bank's agreement for such mandates).
 */
import { formatDate, formatDateTime } from "./format";
import { groupIban } from "./banking";
import { renderHtmlTemplate } from "./templates";

export type MandateDocument = {
  club: { name: string; street: string | null; zip: string | null; city: string | null; creditorId: string };
  mandateText: string;
  reference: string;
  debtor: { name: string; street: string | null; zip: string | null; city: string | null; email: string };
  accountHolder: string;
  iban: string;
  bic: string | null;
  /** The day the mandate counts from (its date) and the instants it was asked and confirmed. */
  mandateDate: string;
  requestedOn: string;
  confirmedOn: string;
};

const TEMPLATE = `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><title>SEPA-Lastschriftmandat {{reference}}</title>
<style>
body { font-family: Arial, Helvetica, sans-serif; font-size: 11pt; color: #111; margin: 0; }
h1 { font-size: 16pt; margin: 0 0 4mm; }
table { border-collapse: collapse; width: 100%; margin: 3mm 0; }
th { text-align: left; font-weight: normal; color: #444; width: 45mm; vertical-align: top; padding: 1mm 0; }
td { padding: 1mm 0; }
.text { border: 1px solid #999; padding: 3mm; margin: 4mm 0; }
.small { font-size: 9pt; color: #444; }
</style></head><body>
<h1>SEPA-Lastschriftmandat</h1>
<table>
<tr><th>Zahlungsempfänger</th><td>{{club.name}}{{#clubAddress}}, {{clubAddress}}{{/clubAddress}}</td></tr>
<tr><th>Gläubiger-Identifikationsnummer</th><td>{{club.creditorId}}</td></tr>
<tr><th>Mandatsreferenz</th><td>{{reference}}</td></tr>
<tr><th>Zahlungsart</th><td>Wiederkehrende Zahlungen</td></tr>
</table>
<div class="text">{{mandateText}}</div>
<table>
<tr><th>Kontoinhaber</th><td>{{accountHolder}}</td></tr>
<tr><th>Zahlungspflichtige Person</th><td>{{debtor.name}}{{#debtorAddress}}, {{debtorAddress}}{{/debtorAddress}}</td></tr>
<tr><th>IBAN</th><td>{{iban}}</td></tr>
{{#bic}}<tr><th>BIC</th><td>{{bic}}</td></tr>{{/bic}}
<tr><th>Datum</th><td>{{mandateDate}}</td></tr>
<tr><th>Unterschrift</th><td>Online erteilt in Mein Wuff am {{requestedOn}} und am {{confirmedOn}} über den an {{debtor.email}} gesandten Bestätigungslink bestätigt.</td></tr>
</table>
<p class="small">Die Mandatsreferenz und die Fälligkeitstermine teilt {{club.name}} vor jeder Lastschrift mit (Vorabankündigung).</p>
</body></html>`;

const addressOf = (party: { street: string | null; zip: string | null; city: string | null }) =>
  [party.street, [party.zip, party.city].filter(Boolean).join(" ")].filter(Boolean).join(", ");

/** The mandate as a self-contained HTML document (every value escaped), for the PDF. */
export function mandateDocumentHtml(mandate: MandateDocument): string {
  return renderHtmlTemplate(TEMPLATE, {
    ...mandate,
    clubAddress: addressOf(mandate.club),
    debtorAddress: addressOf(mandate.debtor),
    iban: groupIban(mandate.iban),
    mandateDate: formatDate(mandate.mandateDate),
    requestedOn: formatDateTime(mandate.requestedOn),
    confirmedOn: formatDateTime(mandate.confirmedOn),
  });
}

/** The PDF's file name: 'Lastschriftmandat_WUFF-12-1.pdf'. */
export const mandateFileName = (reference: string) => `Lastschriftmandat_${reference}.pdf`;
