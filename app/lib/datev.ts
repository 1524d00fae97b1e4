/**
 * The DATEV-Format (EXTF) as DATEV publishes it for imports from other programmes
 * (developer.datev.de, "DATEV-Format": header version 700; Buchungsstapel = category 21, format
 * version 13, 125 fields; Debitoren/Kreditoren = category 16, format version 5, 254 fields).
 * Pure: it writes what the models hand over and knows nothing of Wuff's tables.
 *
 * The file: line 1 the header (31 fields), line 2 the field names, then one line per record; fields
 * separated by ';', lines ended by CR LF, text fields in double quotes (a quote doubled), no
 * control characters, decimal comma without thousands separators, encoded in Windows-1252 (ANSI),
 * the character set DATEV's import reads. A Buchungsstapel covers one fiscal year at most (the
 * Belegdatum carries only day and month) and at most 99,999 bookings.
 */

const DATEV_HEADER_VERSION = 700;
export const BOOKING_CATEGORY = 21;
const BOOKING_FORMAT_VERSION = 13;
export const DEBTOR_CATEGORY = 16;
const DEBTOR_FORMAT_VERSION = 5;
export const MAX_BOOKINGS = 99_999;

const numbered = (count: number, name: (n: number) => string[]) => Array.from({ length: count }, (_, index) => name(index + 1)).flat();

/** Buchungsstapel, format version 13: the 125 fields in their order. */
const BOOKING_FIELDS: readonly string[] = [
  "Umsatz (ohne Soll/Haben-Kz)",
  "Soll/Haben-Kennzeichen",
  "WKZ Umsatz",
  "Kurs",
  "Basis-Umsatz",
  "WKZ Basis-Umsatz",
  "Konto",
  "Gegenkonto (ohne BU-Schlüssel)",
  "BU-Schlüssel",
  "Belegdatum",
  "Belegfeld 1",
  "Belegfeld 2",
  "Skonto",
  "Buchungstext",
  "Postensperre",
  "Diverse Adressnummer",
  "Geschäftspartnerbank",
  "Sachverhalt",
  "Zinssperre",
  "Beleglink",
  ...numbered(8, (n) => [`Beleginfo - Art ${n}`, `Beleginfo - Inhalt ${n}`]),
  "KOST1 - Kostenstelle",
  "KOST2 - Kostenstelle",
  "Kost-Menge",
  "EU-Land u. UStID (Bestimmung)",
  "EU-Steuersatz (Bestimmung)",
  "Abw. Versteuerungsart",
  "Sachverhalt L+L",
  "Funktionsergänzung L+L",
  "BU 49 Hauptfunktionstyp",
  "BU 49 Hauptfunktionsnummer",
  "BU 49 Funktionsergänzung",
  ...numbered(20, (n) => [`Zusatzinformation - Art ${n}`, `Zusatzinformation- Inhalt ${n}`]),
  "Stück",
  "Gewicht",
  "Zahlweise",
  "Forderungsart",
  "Veranlagungsjahr",
  "Zugeordnete Fälligkeit",
  "Skontotyp",
  "Auftragsnummer",
  "Buchungstyp",
  "USt-Schlüssel (Anzahlungen)",
  "EU-Land (Anzahlungen)",
  "Sachverhalt L+L (Anzahlungen)",
  "EU-Steuersatz (Anzahlungen)",
  "Erlöskonto (Anzahlungen)",
  "Herkunft-Kz",
  "Buchungs GUID",
  "KOST-Datum",
  "SEPA-Mandatsreferenz",
  "Skontosperre",
  "Gesellschaftername",
  "Beteiligtennummer",
  "Identifikationsnummer",
  "Zeichnernummer",
  "Postensperre bis",
  "Bezeichnung SoBil-Sachverhalt",
  "Kennzeichen SoBil-Buchung",
  "Festschreibung",
  "Leistungsdatum",
  "Datum Zuord. Steuerperiode",
  "Fälligkeit",
  "Generalumkehr (GU)",
  "Steuersatz",
  "Land",
  "Abrechnungsreferenz",
  "BVV-Position",
  "EU-Land u. UStID (Ursprung)",
  "EU-Steuersatz (Ursprung)",
  "Abw. Skontokonto",
];

const bankFields = (n: number) => [
  `Bankleitzahl ${n}`,
  `Bankbezeichnung ${n}`,
  `Bank-Kontonummer ${n}`,
  `Länderkennzeichen ${n}`,
  `IBAN-Nr. ${n}`,
  "Leerfeld",
  `SWIFT-Code ${n}`,
  `Abw. Kontoinhaber ${n}`,
  `Kennz. Hauptbankverb. ${n}`,
  `Bankverb ${n} Gültig von`,
  `Bankverb ${n} Gültig bis`,
];

/** Debitoren/Kreditoren, format version 5: the 254 fields in their order. */
const DEBTOR_FIELDS: readonly string[] = [
  "Konto",
  "Name (Adressatentyp Unternehmen)",
  "Unternehmensgegenstand",
  "Name (Adressatentyp natürl. Person)",
  "Vorname (Adressatentyp natürl. Person)",
  "Name (Adressatentyp keine Angabe)",
  "Adressatentyp",
  "Kurzbezeichnung",
  "EU-Land",
  "EU-UStID",
  "Anrede",
  "Titel/Akad. Grad",
  "Adelstitel",
  "Namensvorsatz",
  "Adressart",
  "Straße",
  "Postfach",
  "Postleitzahl",
  "Ort",
  "Land",
  "Versandzusatz",
  "Adresszusatz",
  "Abweichende Anrede",
  "Abw. Zustellbezeichnung 1",
  "Abw. Zustellbezeichnung 2",
  "Kennz. Korrespondenzadresse",
  "Adresse Gültig von",
  "Adresse Gültig bis",
  "Telefon",
  "Bemerkung (Telefon)",
  "Telefon GL",
  "Bemerkung (Telefon GL)",
  "E-Mail",
  "Bemerkung (E-Mail)",
  "Internet",
  "Bemerkung (Internet)",
  "Fax",
  "Bemerkung (Fax)",
  "Sonstige",
  "Bemerkung (Sonstige)",
  ...numbered(5, bankFields),
  "Leerfeld",
  "Briefanrede",
  "Grußformel",
  "Kunden-/Lief.-Nr.",
  "Steuernummer",
  "Sprache",
  "Ansprechpartner",
  "Vertreter",
  "Sachbearbeiter",
  "Diverse-Konto",
  "Ausgabeziel",
  "Währungssteuerung",
  "Kreditlimit (Debitor)",
  "Zahlungsbedingung",
  "Fälligkeit in Tagen (Debitor)",
  "Skonto in Prozent (Debitor)",
  "Kreditoren-Ziel 1 Tg.",
  "Kreditoren-Skonto 1 %",
  "Kreditoren-Ziel 2 Tg.",
  "Kreditoren-Skonto 2 %",
  "Kreditoren-Ziel 3 Brutto Tg.",
  "Kreditoren-Ziel 4 Tg.",
  "Kreditoren-Skonto 4 %",
  "Kreditoren-Ziel 5 Tg.",
  "Kreditoren-Skonto 5 %",
  "Mahnung",
  "Kontoauszug",
  "Mahntext 1",
  "Mahntext 2",
  "Mahntext 3",
  "Kontoauszugstext",
  "Mahnlimit Betrag",
  "Mahnlimit %",
  "Zinsberechnung",
  "Mahnzinssatz 1",
  "Mahnzinssatz 2",
  "Mahnzinssatz 3",
  "Lastschrift",
  "Leerfeld",
  "Mandantenbank",
  "Zahlungsträger",
  ...numbered(15, (n) => [`Indiv. Feld ${n}`]),
  "Abweichende Anrede (Rechnungsadresse)",
  "Adressart (Rechnungsadresse)",
  "Straße (Rechnungsadresse)",
  "Postfach (Rechnungsadresse)",
  "Postleitzahl (Rechnungsadresse)",
  "Ort (Rechnungsadresse)",
  "Land (Rechnungsadresse)",
  "Versandzusatz (Rechnungsadresse)",
  "Adresszusatz (Rechnungsadresse)",
  "Abw. Zustellbezeichnung 1 (Rechnungsadresse)",
  "Abw. Zustellbezeichnung 2 (Rechnungsadresse)",
  "Adresse Gültig von (Rechnungsadresse)",
  "Adresse Gültig bis (Rechnungsadresse)",
  ...numbered(5, (n) => bankFields(n + 5)),
  "Nummer Fremdsystem",
  "Insolvent",
  ...numbered(10, (n) => [`SEPA-Mandatsreferenz ${n}`]),
  "Verknüpftes OPOS-Konto",
  "Mahnsperre bis",
  "Lastschriftsperre bis",
  "Zahlungssperre bis",
  "Gebührenberechnung",
  "Mahngebühr 1",
  "Mahngebühr 2",
  "Mahngebühr 3",
  "Pauschalenberechnung",
  "Verzugspauschale 1",
  "Verzugspauschale 2",
  "Verzugspauschale 3",
  "Alternativer Suchname",
  "Status",
  "Anschrift manuell geändert (Korrespondenzadresse)",
  "Anschrift individuell (Korrespondenzadresse)",
  "Anschrift manuell geändert (Rechnungsadresse)",
  "Anschrift individuell (Rechnungsadresse)",
  "Fristberechnung bei Debitor",
  "Mahnfrist 1",
  "Mahnfrist 2",
  "Mahnfrist 3",
  "Letzte Frist",
];

/** A field's value as the line carries it: text is quoted, numbers are not, empty is empty. */
type Field = { text: string } | { number: string } | null;

const text = (value: string | null | undefined, max: number): Field => (value ? { text: cleanText(value).slice(0, max) } : null);
const number = (value: string | number | null | undefined): Field => (value === null || value === undefined || value === "" ? null : { number: String(value) });

/** Control characters (line breaks, tabs) are not allowed inside a text field. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const cleanText = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();

const renderField = (field: Field) => (field === null ? "" : "text" in field ? `"${field.text.replaceAll('"', '""')}"` : field.number);

const renderLine = (fields: readonly Field[]) => fields.map(renderField).join(";");

/** Cents as DATEV's amount: positive, decimal comma, two places, no thousands separator. */
const datevAmount = (cents: number) => {
  const abs = Math.abs(cents);
  return `${Math.floor(abs / 100)},${String(abs % 100).padStart(2, "0")}`;
};

/** 2026-11-30 → '3011' (Belegdatum: the year comes from the header's period). */
const datevDayMonth = (isoDate: string) => `${isoDate.slice(8, 10)}${isoDate.slice(5, 7)}`;
/** 2026-11-30 → '30112026' (Leistungsdatum). */
const datevFullDate = (isoDate: string) => `${isoDate.slice(8, 10)}${isoDate.slice(5, 7)}${isoDate.slice(0, 4)}`;
/** 2026-11-30 → '20261130' (header dates). */
const datevHeaderDate = (isoDate: string) => isoDate.replaceAll("-", "");

/** Belegfeld 1 takes letters, digits and $ % - / only, at most 36. */
const documentField = (value: string) => value.replace(/[^A-Za-z0-9$%\-/]/g, "").slice(0, 36);

type DatevClient = {
  advisorNumber: number;
  clientNumber: number;
  /** First day of the fiscal year, ISO. */
  fiscalYearStart: string;
  accountLength: number;
  /** '42', '03' or '04'. */
  chart: string;
};

export type DatevHeader = DatevClient & {
  category: typeof BOOKING_CATEGORY | typeof DEBTOR_CATEGORY;
  /** YYYYMMDDHHMMSSFFF */
  createdAt: string;
  from?: string;
  to?: string;
  title: string;
};

/** Line 1: the 31 header fields. */
function headerLine(header: DatevHeader): string {
  const bookings = header.category === BOOKING_CATEGORY;
  const fields: Field[] = [
    { text: "EXTF" },
    number(DATEV_HEADER_VERSION),
    number(header.category),
    { text: bookings ? "Buchungsstapel" : "Debitoren/Kreditoren" },
    number(bookings ? BOOKING_FORMAT_VERSION : DEBTOR_FORMAT_VERSION),
    number(header.createdAt),
    null, // importiert (DATEV's own)
    { text: "RE" }, // Herkunft
    { text: "" }, // exportiert von
    { text: "" }, // importiert von
    number(header.advisorNumber),
    number(header.clientNumber),
    number(datevHeaderDate(header.fiscalYearStart)),
    number(header.accountLength),
    number(bookings && header.from ? datevHeaderDate(header.from) : null),
    number(bookings && header.to ? datevHeaderDate(header.to) : null),
    { text: cleanText(header.title).slice(0, 30) },
    { text: "" }, // Diktatkürzel
    number(bookings ? 1 : null), // Buchungstyp: Finanzbuchführung
    number(bookings ? 0 : null), // Rechnungslegungszweck: unabhängig
    number(bookings ? 0 : null), // Festschreibung: the adviser fixes the bookings after checking them
    { text: "EUR" },
    null,
    { text: "" }, // Derivatskennzeichen
    null,
    null,
    { text: header.chart },
    null, // Branchen-Lösungs-Id
    null,
    { text: "" },
    { text: "" }, // Anwendungsinformation
  ];
  return renderLine(fields);
}

export type DatevBooking = {
  /** Cents; the sign says Soll (above zero) or Haben on `account`. */
  amount: number;
  account: string;
  contraAccount: string;
  taxKey: string;
  date: string;
  document: string;
  text: string;
  costCentre: string | null;
  serviceDate: string | null;
};

/** One booking's 125 fields. */
export function bookingLine(booking: DatevBooking): string {
  const fields: Field[] = Array.from({ length: BOOKING_FIELDS.length }, () => null);
  const set = (name: string, field: Field) => (fields[BOOKING_FIELDS.indexOf(name)] = field);
  set("Umsatz (ohne Soll/Haben-Kz)", number(datevAmount(booking.amount)));
  set("Soll/Haben-Kennzeichen", { text: booking.amount < 0 ? "H" : "S" });
  set("WKZ Umsatz", { text: "EUR" });
  set("Konto", number(booking.account));
  set("Gegenkonto (ohne BU-Schlüssel)", number(booking.contraAccount));
  set("BU-Schlüssel", booking.taxKey ? { text: booking.taxKey } : null);
  set("Belegdatum", number(datevDayMonth(booking.date)));
  set("Belegfeld 1", text(documentField(booking.document), 36));
  set("Buchungstext", text(booking.text, 60));
  set("KOST1 - Kostenstelle", booking.costCentre ? { text: booking.costCentre } : null);
  set("Festschreibung", number(0));
  set("Leistungsdatum", booking.serviceDate ? number(datevFullDate(booking.serviceDate)) : null);
  return renderLine(fields);
}

export type DatevDebtor = {
  account: string;
  isBusiness: boolean;
  lastName: string;
  firstName: string | null;
  salutation: string | null;
  street: string | null;
  zip: string | null;
  city: string | null;
  customerNumber: string;
};

/** One debtor's 254 fields: the name (a business's as the company's, a person's as name and first name) and the address. */
export function debtorLine(debtor: DatevDebtor): string {
  const fields: Field[] = Array.from({ length: DEBTOR_FIELDS.length }, () => null);
  const set = (name: string, field: Field) => (fields[DEBTOR_FIELDS.indexOf(name)] = field);
  const fullName = [debtor.firstName, debtor.lastName].filter(Boolean).join(" ");
  set("Konto", number(debtor.account));
  if (debtor.isBusiness) {
    set("Name (Adressatentyp Unternehmen)", text(fullName, 50));
    set("Adressatentyp", { text: "2" });
  } else {
    set("Name (Adressatentyp natürl. Person)", text(debtor.lastName, 30));
    set("Vorname (Adressatentyp natürl. Person)", text(debtor.firstName, 30));
    set("Adressatentyp", { text: "1" });
    set("Anrede", text(debtor.salutation, 30));
  }
  set("Kurzbezeichnung", text(fullName, 15));
  if (debtor.street || debtor.zip || debtor.city) {
    set("Adressart", { text: "STR" });
    set("Straße", text(debtor.street, 36));
    set("Postleitzahl", text(debtor.zip, 10));
    set("Ort", text(debtor.city, 30));
    set("Land", { text: "DE" });
  }
  set("Kunden-/Lief.-Nr.", text(debtor.customerNumber, 15));
  return renderLine(fields);
}

/** The whole file as text: header, field names, records, each line ended by CR LF. */
export function datevFile(header: DatevHeader, lines: string[]): string {
  const names = header.category === BOOKING_CATEGORY ? BOOKING_FIELDS : DEBTOR_FIELDS;
  return [headerLine(header), names.join(";"), ...lines].map((line) => `${line}\r\n`).join("");
}

/** Unicode → Windows-1252 for the characters it has beyond Latin-1's. */
const CP1252_EXTRA: Record<string, number> = {
  "€": 0x80,
  "‚": 0x82,
  ƒ: 0x83,
  "„": 0x84,
  "…": 0x85,
  "†": 0x86,
  "‡": 0x87,
  ˆ: 0x88,
  "‰": 0x89,
  Š: 0x8a,
  "‹": 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  "‘": 0x91,
  "’": 0x92,
  "“": 0x93,
  "”": 0x94,
  "•": 0x95,
  "–": 0x96,
  "—": 0x97,
  "˜": 0x98,
  "™": 0x99,
  š: 0x9a,
  "›": 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/**
 * Encodes the file in Windows-1252. A character it lacks is written as its letter without the
 * accent where there is one (ł stays a problem: it becomes '?'), so a name never breaks the import.
 */
export function encodeWindows1252(value: string): Uint8Array {
  const bytes: number[] = [];
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) bytes.push(code);
    else if (CP1252_EXTRA[char] !== undefined) bytes.push(CP1252_EXTRA[char]);
    else {
      const base = char.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
      const baseCode = base.length === 1 ? base.codePointAt(0)! : 0x3f;
      bytes.push(baseCode < 0x100 ? baseCode : 0x3f);
    }
  }
  return new Uint8Array(bytes);
}
