/**
 * The DATEV-Format as DATEV publishes it for imports from other programmes (developer.datev.de,
 * "DATEV-Format", header version 700; Buchungsstapel category 21 format version 13, Debitoren/
 * Kreditoren category 16 format version 5), written down for the tests independently of Wuff's
 * writer: the header's 31 fields with their expressions ("Ausdruck"), the number of fields of a
 * record, the names at the positions Wuff fills, and the expressions of those fields.
 * A checker reads a whole file as DATEV's import would and returns what it finds wrong.
 */

/** Header fields 1 to 31: an expression per field ('' = must be empty). */
const HEADER: { name: string; pattern: RegExp }[] = [
  { name: "Kennzeichen", pattern: /^"(EXTF|DTVF)"$/ },
  { name: "Versionsnummer", pattern: /^700$/ },
  { name: "Formatkategorie", pattern: /^(16|20|21|46|48|65)$/ },
  {
    name: "Formatname",
    pattern: /^"(Buchungsstapel|Wiederkehrende Buchungen|Debitoren\/Kreditoren|Kontenbeschriftungen|Zahlungsbedingungen|Diverse Adressen)"$/,
  },
  { name: "Formatversion", pattern: /^\d{1,3}$/ },
  { name: "Erzeugt am", pattern: /^\d{17}$/ },
  { name: "Importiert", pattern: /^$/ },
  { name: "Herkunft", pattern: /^"\w{0,2}"$/ },
  { name: "Exportiert von", pattern: /^".{0,25}"$/ },
  { name: "Importiert von", pattern: /^".{0,25}"$/ },
  { name: "Beraternummer", pattern: /^\d{4,7}$/ },
  { name: "Mandantennummer", pattern: /^\d{1,5}$/ },
  { name: "WJ-Beginn", pattern: /^\d{8}$/ },
  { name: "Sachkontenlänge", pattern: /^[4-9]$/ },
  { name: "Datum vom", pattern: /^(\d{8})?$/ },
  { name: "Datum bis", pattern: /^(\d{8})?$/ },
  { name: "Bezeichnung", pattern: /^"[\w.\-/ ]{0,30}"$/ },
  { name: "Diktatkürzel", pattern: /^"([A-Z]{2})?"$/ },
  { name: "Buchungstyp", pattern: /^(1|2)?$/ },
  { name: "Rechnungslegungszweck", pattern: /^(0|30|40|50|64)?$/ },
  { name: "Festschreibung", pattern: /^(0|1)?$/ },
  { name: "WKZ", pattern: /^"[A-Z]{3}"$/ },
  { name: "reserviert", pattern: /^$/ },
  { name: "Derivatskennzeichen", pattern: /^"?"?$/ },
  { name: "reserviert", pattern: /^$/ },
  { name: "reserviert", pattern: /^$/ },
  { name: "Sachkontenrahmen", pattern: /^"\d{2}"$/ },
  { name: "Branchen-Lösungs-Id", pattern: /^\d{0,5}$/ },
  { name: "reserviert", pattern: /^$/ },
  { name: "reserviert", pattern: /^"?"?$/ },
  { name: "Anwendungsinformation", pattern: /^".{0,16}"$/ },
];

type FieldRule = { position: number; name: string; pattern: RegExp; required?: boolean };

/** Buchungsstapel: 125 fields; the ones Wuff fills, by their published position and expression. */
export const BOOKING_FORMAT = {
  category: "21",
  name: "Buchungsstapel",
  version: "13",
  fieldCount: 125,
  rules: [
    { position: 1, name: "Umsatz (ohne Soll/Haben-Kz)", pattern: /^\d{1,10},\d{2}$/, required: true },
    { position: 2, name: "Soll/Haben-Kennzeichen", pattern: /^"(S|H)"$/, required: true },
    { position: 3, name: "WKZ Umsatz", pattern: /^"[A-Z]{3}"$/ },
    { position: 7, name: "Konto", pattern: /^\d{1,9}$/, required: true },
    { position: 8, name: "Gegenkonto (ohne BU-Schlüssel)", pattern: /^\d{1,9}$/, required: true },
    { position: 9, name: "BU-Schlüssel", pattern: /^"\d{1,4}"$/ },
    { position: 10, name: "Belegdatum", pattern: /^\d{4}$/, required: true },
    { position: 11, name: "Belegfeld 1", pattern: /^"[\w$%\-/]{0,36}"$/ },
    { position: 12, name: "Belegfeld 2", pattern: /^"[\w$%\-/]{0,12}"$/ },
    { position: 14, name: "Buchungstext", pattern: /^".{0,60}"$/ },
    { position: 37, name: "KOST1 - Kostenstelle", pattern: /^"[\w ]{0,36}"$/ },
    { position: 38, name: "KOST2 - Kostenstelle", pattern: /^"[\w ]{0,36}"$/ },
    { position: 114, name: "Festschreibung", pattern: /^(0|1)$/ },
    { position: 115, name: "Leistungsdatum", pattern: /^\d{8}$/ },
    { position: 125, name: "Abw. Skontokonto", pattern: /^\d{1,9}$/ },
  ] satisfies FieldRule[],
};

/** Debitoren/Kreditoren: 254 fields; the ones Wuff fills. */
export const DEBTOR_FORMAT = {
  category: "16",
  name: "Debitoren/Kreditoren",
  version: "5",
  fieldCount: 254,
  rules: [
    { position: 1, name: "Konto", pattern: /^\d{1,9}$/, required: true },
    { position: 2, name: "Name (Adressatentyp Unternehmen)", pattern: /^".{0,50}"$/ },
    { position: 4, name: "Name (Adressatentyp natürl. Person)", pattern: /^".{0,30}"$/ },
    { position: 5, name: "Vorname (Adressatentyp natürl. Person)", pattern: /^".{0,30}"$/ },
    { position: 7, name: "Adressatentyp", pattern: /^"[012]"$/ },
    { position: 8, name: "Kurzbezeichnung", pattern: /^".{0,15}"$/ },
    { position: 11, name: "Anrede", pattern: /^".{0,30}"$/ },
    { position: 15, name: "Adressart", pattern: /^"(STR|PF|GK)"$/ },
    { position: 16, name: "Straße", pattern: /^".{0,36}"$/ },
    { position: 18, name: "Postleitzahl", pattern: /^".{0,10}"$/ },
    { position: 19, name: "Ort", pattern: /^".{0,30}"$/ },
    { position: 20, name: "Land", pattern: /^"[A-Z]{2}"$/ },
    { position: 99, name: "Kunden-/Lief.-Nr.", pattern: /^".{0,15}"$/ },
  ] satisfies FieldRule[],
};

/** Splits a line at the ';' outside quotes (a quote inside a text is doubled). */
export function splitFields(line: string): string[] {
  const fields: string[] = [];
  let current = "";
  let quoted = false;
  for (let index = 0; index < line.length; index++) {
    const char = line[index];
    if (char === '"') {
      if (quoted && line[index + 1] === '"') {
        current += '""';
        index++;
        continue;
      }
      quoted = !quoted;
      current += char;
    } else if (char === ";" && !quoted) {
      fields.push(current);
      current = "";
    } else current += char;
  }
  fields.push(current);
  return fields;
}

const realDayMonth = (ddmm: string, year: number) => {
  const day = Number(ddmm.slice(0, 2));
  const month = Number(ddmm.slice(2, 4));
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
};

/** Every finding of a file (empty: DATEV's description is kept). `text` is the file decoded from Windows-1252. */
export function checkDatevFile(text: string, format: typeof BOOKING_FORMAT | typeof DEBTOR_FORMAT): string[] {
  const findings: string[] = [];
  if (!text.endsWith("\r\n")) findings.push("Die Datei endet nicht mit CR LF.");
  const lines = text.split("\r\n").slice(0, -1);
  if (lines.some((line) => line.includes("\n") || line.includes("\r"))) findings.push("Zeilenumbruch innerhalb eines Satzes.");
  const header = splitFields(lines[0] ?? "");
  if (header.length !== HEADER.length) findings.push(`Kopfzeile: ${header.length} statt ${HEADER.length} Felder.`);
  HEADER.forEach((rule, index) => {
    if (!rule.pattern.test(header[index] ?? "")) findings.push(`Kopfzeile Feld ${index + 1} (${rule.name}): „${header[index]}“ passt nicht.`);
  });
  if (header[2] !== format.category) findings.push(`Formatkategorie ${header[2]} statt ${format.category}.`);
  if (header[3] !== `"${format.name}"`) findings.push(`Formatname ${header[3]}.`);
  if (header[4] !== format.version) findings.push(`Formatversion ${header[4]} statt ${format.version}.`);
  const advisor = Number(header[10]);
  if (!(advisor >= 1001 && advisor <= 9_999_999)) findings.push(`Beraternummer ${header[10]} außerhalb 1001–9999999.`);
  const client = Number(header[11]);
  if (!(client >= 1 && client <= 99_999)) findings.push(`Mandantennummer ${header[11]} außerhalb 1–99999.`);
  const accountLength = Number(header[13]);
  const names = splitFields(lines[1] ?? "");
  if (names.length !== format.fieldCount) findings.push(`Überschriften: ${names.length} statt ${format.fieldCount} Felder.`);
  for (const rule of format.rules) {
    if (names[rule.position - 1] !== rule.name) findings.push(`Überschrift ${rule.position}: „${names[rule.position - 1]}“ statt „${rule.name}“.`);
  }
  const isBookings = format === BOOKING_FORMAT;
  const from = header[14];
  const to = header[15];
  const year = Number(from.slice(0, 4));
  lines.slice(2).forEach((line, index) => {
    const at = `Satz ${index + 1}`;
    const fields = splitFields(line);
    if (fields.length !== format.fieldCount) findings.push(`${at}: ${fields.length} statt ${format.fieldCount} Felder.`);
    for (const rule of format.rules) {
      const value = fields[rule.position - 1] ?? "";
      if (value === "") {
        if (rule.required) findings.push(`${at} Feld ${rule.position} (${rule.name}) fehlt.`);
      } else if (!rule.pattern.test(value)) findings.push(`${at} Feld ${rule.position} (${rule.name}): „${value}“ passt nicht.`);
    }
    const filled = new Set(format.rules.map((rule) => rule.position - 1));
    fields.forEach((value, position) => {
      if (value !== "" && !filled.has(position)) findings.push(`${at} Feld ${position + 1} (${names[position]}) ist gefüllt: „${value}“.`);
      if (value.startsWith('"') && !/^"([^"]|"")*"$/.test(value)) findings.push(`${at} Feld ${position + 1}: Anführungszeichen nicht verdoppelt.`);
    });
    if (isBookings) {
      const account = fields[6];
      const contra = fields[7];
      for (const number of [account, contra]) {
        if (number && number.length > accountLength + 1) findings.push(`${at}: Konto ${number} länger als Sachkontenlänge + 1.`);
      }
      if (account === contra) findings.push(`${at}: Konto und Gegenkonto gleich.`);
      if (fields[0] === "0,00") findings.push(`${at}: Umsatz 0,00.`);
      const ddmm = fields[9];
      if (!realDayMonth(ddmm, year)) findings.push(`${at}: Belegdatum ${ddmm} gibt es nicht.`);
      const date = `${year}${ddmm.slice(2, 4)}${ddmm.slice(0, 2)}`;
      const dateNextYear = `${year + 1}${ddmm.slice(2, 4)}${ddmm.slice(0, 2)}`;
      if (!(date >= from && date <= to) && !(dateNextYear >= from && dateNextYear <= to)) findings.push(`${at}: Belegdatum ${ddmm} außerhalb ${from}–${to}.`);
      const service = fields[114];
      if (service && !realDayMonth(service.slice(0, 4), Number(service.slice(4)))) findings.push(`${at}: Leistungsdatum ${service} gibt es nicht.`);
    } else if (fields[0] && fields[0].length !== accountLength + 1) findings.push(`${at}: Personenkonto ${fields[0]} ist nicht Sachkontenlänge + 1 lang.`);
  });
  if (isBookings && lines.length - 2 > 99_999) findings.push("Mehr als 99.999 Buchungen.");
  return findings;
}

/** The file's bookings as cents per account: Soll positive, Haben negative (Konto Soll means Gegenkonto Haben). */
export function balancesOf(text: string): Map<string, number> {
  const balances = new Map<string, number>();
  const add = (account: string, cents: number) => balances.set(account, (balances.get(account) ?? 0) + cents);
  for (const line of text.split("\r\n").slice(2, -1)) {
    const fields = splitFields(line);
    const [euros, cents] = fields[0].split(",");
    const amount = (Number(euros) * 100 + Number(cents)) * (fields[1] === '"H"' ? -1 : 1);
    add(fields[6], amount);
    add(fields[7], -amount);
  }
  return balances;
}
