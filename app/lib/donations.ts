/**
 * Spenden and Zuwendungsbestätigungen (issue 35 item 5): the rules, pure.
 *
 * - A steuerbegünstigter Verein may confirm money it received as a donation (§ 10b Abs. 1 EStG,
 *   § 50 Abs. 1 EStDV) on the official template (BMF-Schreiben vom 7. November 2013, IV C 4 -
 *   S 2223/07/0018 :005, BStBl I S. 1333: "Bestätigung über Geldzuwendungen" for a body of § 5
 *   Abs. 1 Nr. 9 KStG, and its Sammelbestätigung). The template's wording and order are binding;
 *   only the passages that apply are taken (point 1 and 2 of the letter), so a club whose
 *   membership fees are not deductible confirms "Geldzuwendungen" only and says so.
 * - Membership fees of a sports club (Hundesport is sport, § 52 Abs. 2 Satz 1 Nr. 21 AO) are not
 *   deductible (§ 10b Abs. 1 Satz 8 Nr. 1 EStG): Wuff confirms only donations recorded as such,
 *   never a membership fee (app/db/schema.ts `donations` and its trigger).
 * - § 63 Abs. 5 AO: no receipt once the Freistellungsbescheid (or the Anlage zum
 *   Körperschaftsteuerbescheid) is more than five years old, or the Feststellung nach § 60a AO
 *   more than three years, counted to the day the receipt is issued.
 * - The amount in words may be one word or digit by digit (BMF, as above); Wuff writes the word
 *   (n2words) and closes both ends with "X" so nothing can be added.
 */
import Mustache from "mustache";
import { toCardinal } from "n2words/de-DE";
import { formatDate, formatMoney } from "./format";

export const EXEMPTION_NOTICE_KINDS = ["FREISTELLUNG", "FESTSTELLUNG_60A"] as const;
export type ExemptionNoticeKind = (typeof EXEMPTION_NOTICE_KINDS)[number];

export const EXEMPTION_NOTICE_LABELS: Record<ExemptionNoticeKind, string> = {
  FREISTELLUNG: "Freistellungsbescheid (oder Anlage zum Körperschaftsteuerbescheid)",
  FESTSTELLUNG_60A: "Feststellung der satzungsmäßigen Voraussetzungen nach § 60a AO",
};

/** How many years a notice carries receipts (§ 63 Abs. 5 AO). */
const NOTICE_VALID_YEARS: Record<ExemptionNoticeKind, number> = { FREISTELLUNG: 5, FESTSTELLUNG_60A: 3 };

export const DONATION_RECEIPT_KINDS = ["SINGLE", "COLLECTIVE"] as const;
export type DonationReceiptKind = (typeof DONATION_RECEIPT_KINDS)[number];

/** How a donation came in: a transfer or cash booked now, or money already in the journal as the
 *  donor's credit (a transfer the bank statement import booked without an item). */
export const DONATION_METHODS = ["TRANSFER", "CASH", "CREDIT"] as const;
export type DonationMethod = (typeof DONATION_METHODS)[number];
export const DONATION_METHOD_LABELS: Record<DonationMethod, string> = {
  TRANSFER: "Überweisung",
  CASH: "Bar",
  CREDIT: "Schon gebucht: aus dem Guthaben der Person (z. B. Kontoauszug)",
};

/** The club as a receipt names it, with its notice from the tax office. */
export type Issuer = {
  clubName: string;
  street: string;
  zipCity: string;
  /** Where the receipt is signed (the club's city). */
  place: string;
  noticeKind: ExemptionNoticeKind;
  taxOffice: string;
  taxNumber: string;
  noticeDate: string;
  /** Freistellungsbescheid: the last Veranlagungszeitraum it covers ('2024'). */
  assessmentPeriod: string | null;
  /** The steuerbegünstigte Zwecke as the statutes name them. */
  purposes: string;
};

/** What the Einstellungen hold about the notice (any of it may be missing). */
export type IssuerSettings = {
  clubName: string | null;
  clubStreet: string | null;
  clubZip: string | null;
  clubCity: string | null;
  taxNumber: string | null;
  exemptionNoticeKind: ExemptionNoticeKind | null;
  exemptionTaxOffice: string | null;
  exemptionNoticeDate: string | null;
  exemptionAssessmentPeriod: string | null;
  exemptionPurposes: string | null;
};

const addYears = (isoDate: string, years: number) => `${Number(isoDate.slice(0, 4)) + years}${isoDate.slice(4)}`;

/**
 * The issuer of a receipt issued on `issuedOn`, or why no receipt may be issued (German). Without
 * the notice, the Steuernummer, the club's name and address, nothing may be confirmed; nor with a
 * notice older than § 63 Abs. 5 AO allows.
 */
export function issuerOf(settings: IssuerSettings, issuedOn: string): { issuer: Issuer } | { refusal: string } {
  const kind = settings.exemptionNoticeKind;
  if (!kind || !settings.exemptionNoticeDate || !settings.exemptionTaxOffice) {
    return {
      refusal:
        "Zuwendungsbestätigungen stellt nur ein steuerbegünstigter Verein aus: Bitte in den Einstellungen den Bescheid des Finanzamts (Art, Finanzamt, Datum) eintragen.",
    };
  }
  if (!settings.taxNumber) return { refusal: "Bitte in den Einstellungen die Steuernummer des Vereins eintragen: Sie steht auf jeder Zuwendungsbestätigung." };
  if (!settings.clubName || !settings.clubStreet || !settings.clubZip || !settings.clubCity) {
    return { refusal: "Bitte in den Einstellungen Name und Anschrift des Vereins eintragen: Sie stehen als Aussteller auf jeder Zuwendungsbestätigung." };
  }
  if (!settings.exemptionPurposes) return { refusal: "Bitte in den Einstellungen die steuerbegünstigten Zwecke nach der Satzung eintragen." };
  if (kind === "FREISTELLUNG" && !settings.exemptionAssessmentPeriod) {
    return { refusal: "Bitte in den Einstellungen den Veranlagungszeitraum des Freistellungsbescheids eintragen." };
  }
  if (settings.exemptionNoticeDate > issuedOn) return { refusal: "Der Bescheid des Finanzamts ist auf ein Datum nach heute eingetragen: Bitte prüfen." };
  const years = NOTICE_VALID_YEARS[kind];
  if (addYears(settings.exemptionNoticeDate, years) < issuedOn) {
    return {
      refusal: `Der Bescheid vom ${formatDate(settings.exemptionNoticeDate)} ist älter als ${years} Jahre: Darauf darf keine Zuwendungsbestätigung mehr ausgestellt werden (§ 63 Abs. 5 AO). Bitte den neuen Bescheid in den Einstellungen eintragen.`,
    };
  }
  return {
    issuer: {
      clubName: settings.clubName,
      street: settings.clubStreet,
      zipCity: `${settings.clubZip} ${settings.clubCity}`,
      place: settings.clubCity,
      noticeKind: kind,
      taxOffice: settings.exemptionTaxOffice,
      taxNumber: settings.taxNumber,
      noticeDate: settings.exemptionNoticeDate,
      assessmentPeriod: settings.exemptionAssessmentPeriod,
      purposes: settings.exemptionPurposes,
    },
  };
}

/**
 * The amount in words as the template asks ('- in Buchstaben -'): euros as one word, cents as
 * digits over hundred, both ends closed with 'X' (BMF: the blank before and after is struck out).
 */
export function amountInWords(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents <= 0) throw new RangeError(`Kein Zuwendungsbetrag: ${cents}`);
  const euros = Math.floor(cents / 100);
  const rest = cents % 100;
  const words = euros === 0 ? "null" : toCardinal(euros);
  return `X ${words} Euro${rest > 0 ? ` ${String(rest).padStart(2, "0")}/100` : ""} X`;
}

type ReceiptDonation = { date: string; amount: number };

export type ReceiptDocument = {
  kind: DonationReceiptKind;
  number: string;
  issuedOn: string;
  donorName: string;
  donorAddress: string;
  periodFrom: string;
  periodTo: string;
  amount: number;
  issuer: Issuer;
  donations: ReceiptDonation[];
};

/**
 * The receipt as a self-contained HTML page (A4, the PDF renderer's input): the template's
 * passages in their order, only those that apply (the notice the club has; Geldzuwendungen only).
 * A Sammelbestätigung lists every donation in its Anlage with date, kind, Verzicht and amount, and
 * the same total.
 */
export function receiptHtml(receipt: ReceiptDocument): string {
  const collective = receipt.kind === "COLLECTIVE";
  const { issuer } = receipt;
  return Mustache.render(RECEIPT_TEMPLATE, {
    collective,
    title: collective ? "Sammelbestätigung über Geldzuwendungen" : "Bestätigung über Geldzuwendungen",
    number: receipt.number,
    issuer,
    donorName: receipt.donorName,
    donorAddress: receipt.donorAddress,
    amount: formatMoney(receipt.amount),
    amountWords: amountInWords(receipt.amount),
    date: formatDate(receipt.periodFrom),
    period: `${formatDate(receipt.periodFrom)} bis ${formatDate(receipt.periodTo)}`,
    freistellung: issuer.noticeKind === "FREISTELLUNG",
    noticeDate: formatDate(issuer.noticeDate),
    issuedOn: formatDate(receipt.issuedOn),
    donations: receipt.donations.map((donation) => ({ date: formatDate(donation.date), amount: formatMoney(donation.amount) })),
  });
}

const RECEIPT_TEMPLATE = `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><title>{{title}} {{number}}</title>
<style>
  @page { size: A4; }
  body { font-family: sans-serif; font-size: 9.5pt; line-height: 1.35; color: #111; margin: 0; }
  .issuer { font-size: 9pt; }
  .label { font-size: 7.5pt; color: #444; }
  h1 { font-size: 12pt; margin: 10pt 0 2pt; }
  .sub { margin: 0 0 8pt; }
  .box { border: 1px solid #111; padding: 4pt 6pt; margin: 0 0 6pt; }
  table.amount { width: 100%; border-collapse: collapse; margin-bottom: 6pt; }
  table.amount td { border: 1px solid #111; padding: 3pt 6pt; vertical-align: top; }
  p { margin: 0 0 6pt; }
  .check { font-family: sans-serif; }
  .sign { margin-top: 14pt; width: 70%; }
  .sign .line { margin-top: 30pt; border-top: 1px solid #111; padding-top: 2pt; }
  .note { font-size: 8pt; margin-top: 10pt; }
  .number { float: right; font-size: 8pt; }
  .annex { page-break-before: always; }
  table.list { width: 100%; border-collapse: collapse; margin-top: 6pt; }
  table.list th, table.list td { border: 1px solid #111; padding: 3pt 5pt; text-align: left; }
  table.list .n { text-align: right; white-space: nowrap; }
</style></head>
<body>
<div class="number">Nr. {{number}}</div>
<div class="issuer"><div class="label">Aussteller (Bezeichnung und Anschrift der steuerbegünstigten Einrichtung)</div>
{{issuer.clubName}}, {{issuer.street}}, {{issuer.zipCity}}</div>
<h1>{{title}}</h1>
<p class="sub">im Sinne des § 10b des Einkommensteuergesetzes an eine der in § 5 Abs. 1 Nr. 9 des Körperschaftsteuergesetzes bezeichneten Körperschaften, Personenvereinigungen oder Vermögensmassen</p>
<div class="box"><div class="label">Name und Anschrift des Zuwendenden:</div>{{donorName}}, {{donorAddress}}</div>
<table class="amount"><tr>
<td><div class="label">{{#collective}}Gesamtbetrag der Zuwendung{{/collective}}{{^collective}}Betrag der Zuwendung{{/collective}} - in Ziffern -</div>{{amount}}</td>
<td><div class="label">- in Buchstaben -</div>{{amountWords}}</td>
<td><div class="label">{{#collective}}Zeitraum der Sammelbestätigung:{{/collective}}{{^collective}}Tag der Zuwendung:{{/collective}}</div>{{#collective}}{{period}}{{/collective}}{{^collective}}{{date}}{{/collective}}</td>
</tr></table>
{{^collective}}<p>Es handelt sich um den Verzicht auf Erstattung von Aufwendungen: Ja <span class="check">☐</span> Nein <span class="check">☒</span></p>{{/collective}}
{{#freistellung}}<p><span class="check">☒</span> Wir sind wegen Förderung {{issuer.purposes}} nach dem Freistellungsbescheid bzw. nach der Anlage zum Körperschaftsteuerbescheid des Finanzamtes {{issuer.taxOffice}}, StNr. {{issuer.taxNumber}}, vom {{noticeDate}} für den letzten Veranlagungszeitraum {{issuer.assessmentPeriod}} nach § 5 Abs. 1 Nr. 9 des Körperschaftsteuergesetzes von der Körperschaftsteuer und nach § 3 Nr. 6 des Gewerbesteuergesetzes von der Gewerbesteuer befreit.</p>{{/freistellung}}
{{^freistellung}}<p><span class="check">☒</span> Die Einhaltung der satzungsmäßigen Voraussetzungen nach den §§ 51, 59, 60 und 61 AO wurde vom Finanzamt {{issuer.taxOffice}}, StNr. {{issuer.taxNumber}}, mit Bescheid vom {{noticeDate}} nach § 60a AO gesondert festgestellt. Wir fördern nach unserer Satzung die Förderung {{issuer.purposes}}.</p>{{/freistellung}}
<p>Es wird bestätigt, dass die Zuwendung nur zur Förderung {{issuer.purposes}} verwendet wird.</p>
<p><span class="check">☒</span> Es wird bestätigt, dass es sich nicht um {{#collective}}Mitgliedsbeiträge handelt, deren{{/collective}}{{^collective}}einen Mitgliedsbeitrag handelt, dessen{{/collective}} Abzug nach § 10b Abs. 1 des Einkommensteuergesetzes ausgeschlossen ist.</p>
{{#collective}}<p>Es wird bestätigt, dass über die in der Gesamtsumme enthaltenen Zuwendungen keine weiteren Bestätigungen, weder formelle Zuwendungsbestätigungen noch Beitragsquittungen oder ähnliches ausgestellt wurden und werden.</p>
<p>Ob es sich um den Verzicht auf Erstattung von Aufwendungen handelt, ist der Anlage zur Sammelbestätigung zu entnehmen.</p>{{/collective}}
<div class="sign"><div>{{issuer.place}}, {{issuedOn}}</div><div class="line"><span class="label">(Ort, Datum und Unterschrift des Zuwendungsempfängers)</span></div></div>
<div class="note"><strong>Hinweis:</strong><br>
Wer vorsätzlich oder grob fahrlässig eine unrichtige Zuwendungsbestätigung erstellt oder veranlasst, dass Zuwendungen nicht zu den in der Zuwendungsbestätigung angegebenen steuerbegünstigten Zwecken verwendet werden, haftet für die entgangene Steuer (§ 10b Abs. 4 EStG, § 9 Abs. 3 KStG, § 9 Nr. 5 GewStG).<br>
Diese Bestätigung wird nicht als Nachweis für die steuerliche Berücksichtigung der Zuwendung anerkannt, wenn das Datum des Freistellungsbescheides länger als 5 Jahre bzw. das Datum der Feststellung der Einhaltung der satzungsmäßigen Voraussetzungen nach § 60a Abs. 1 AO länger als 3 Jahre seit Ausstellung der Bestätigung zurückliegt (§ 63 Abs. 5 AO).</div>
{{#collective}}<div class="annex">
<h1>Anlage zur Sammelbestätigung vom {{issuedOn}}</h1>
<p>Nr. {{number}}, {{donorName}}</p>
<table class="list"><thead><tr><th>Datum der Zuwendung</th><th>Art der Zuwendung (Geldzuwendung/Mitgliedsbeitrag)</th><th>Verzicht auf die Erstattung von Aufwendungen (ja/nein)</th><th class="n">Betrag</th></tr></thead>
<tbody>{{#donations}}<tr><td>{{date}}</td><td>Geldzuwendung</td><td>nein</td><td class="n">{{amount}}</td></tr>{{/donations}}</tbody>
<tfoot><tr><th colspan="3">Gesamtsumme</th><th class="n">{{amount}}</th></tr></tfoot></table>
</div>{{/collective}}
</body></html>`;
