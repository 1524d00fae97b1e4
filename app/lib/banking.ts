/**
 * Bank data: IBAN and BIC (checked by `ibantools`: ISO 13616 mod 97 and each country's length and
 * format), the SEPA creditor identifier (Gläubiger-ID, ISO 7064 mod 97-10 over the national part
 * and the country, skipping the business code), SEPA mandate references and the masked IBAN that
 * everyone but ADMIN and FINANCE sees. Pure: runs in the browser (the forms) and in workerd.
 */
import { addDaysToDate, addMonthsToDate } from "./format";
import { ValidationErrorsIBAN, electronicFormatIBAN, isSEPACountry, isValidBIC, validateIBAN } from "ibantools";

/** 'de89 3704 0044…' as typed -> 'DE89370400440532013000' (spaces and dashes gone, upper case). */
export const normalizeIban = (value: string) => electronicFormatIBAN(value.replace(/[\s-]+/g, "")) ?? value.replace(/[\s-]+/g, "").toUpperCase();

const IBAN_MESSAGES = {
  country: "Die IBAN ist ungültig (unbekanntes Länderkennzeichen)",
  length: "Die IBAN ist ungültig (falsche Länge)",
  format: "Die IBAN ist ungültig (falsches Format)",
  checksum: "Die IBAN ist ungültig (Prüfsumme falsch)",
  account: "Die IBAN ist ungültig (Prüfziffer der Kontonummer falsch)",
  notSepa: "Die IBAN gehört zu keinem Land des SEPA-Raums",
} as const;

/** Null when the (normalised) IBAN is valid and in the SEPA area, else the German reason. */
export function ibanError(iban: string): string | null {
  const country = iban.slice(0, 2);
  if (!/^[A-Z]{2}$/.test(country)) return IBAN_MESSAGES.country;
  const result = validateIBAN(iban);
  if (!result.valid) {
    const codes = result.errorCodes;
    if (codes.includes(ValidationErrorsIBAN.NoIBANCountry)) return IBAN_MESSAGES.country;
    if (codes.includes(ValidationErrorsIBAN.WrongBBANLength)) return IBAN_MESSAGES.length;
    if (codes.includes(ValidationErrorsIBAN.WrongBBANFormat) || codes.includes(ValidationErrorsIBAN.ChecksumNotNumber)) return IBAN_MESSAGES.format;
    if (codes.includes(ValidationErrorsIBAN.WrongIBANChecksum)) return IBAN_MESSAGES.checksum;
    if (codes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)) return IBAN_MESSAGES.account;
    return IBAN_MESSAGES.format;
  }
  return isSEPACountry(country) ? null : IBAN_MESSAGES.notSepa;
}

export const BIC_MESSAGES = {
  format: "Die BIC ist ungültig (8 oder 11 Zeichen, z. B. COBADEFFXXX)",
  required: "Für eine IBAN außerhalb Deutschlands ist die BIC erforderlich",
} as const;

export const normalizeBic = (value: string) => value.replace(/\s+/g, "").toUpperCase();

/** Null when the (normalised) BIC is valid. */
export const bicError = (bic: string): string | null => (isValidBIC(bic) ? null : BIC_MESSAGES.format);

/** A BIC is optional for German IBANs (the bank is found by the IBAN), needed for all others. */
export const bicRequiredFor = (iban: string | null) => iban !== null && !iban.startsWith("DE");

// ---------------------------------------------------------------------------------------------
// The SEPA creditor identifier (Gläubiger-Identifikationsnummer)

const CREDITOR_ID_MESSAGES = {
  format: "Die Gläubiger-ID ist ungültig (Format: Land, 2 Prüfziffern, 3 Zeichen Geschäftsbereich, nationale Kennung, z. B. DE98ZZZ09999999999)",
  length: "Die Gläubiger-ID ist ungültig (falsche Länge: eine deutsche hat 18 Zeichen)",
  checksum: "Die Gläubiger-ID ist ungültig (Prüfsumme falsch)",
} as const;

export const normalizeCreditorId = (value: string) => value.replace(/\s+/g, "").toUpperCase();

/** Letters as ISO 7064 wants them (A = 10 … Z = 35), then mod 97 of the digits, piece by piece. */
function mod97(text: string): number {
  const digits = [...text].map((char) => (/[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char)).join("");
  let rest = 0;
  for (let index = 0; index < digits.length; index += 7) rest = Number(`${rest}${digits.slice(index, index + 7)}`) % 97;
  return rest;
}

/** Null when the (normalised) creditor identifier is valid: CC + check digits + business code
 *  (not part of the checksum) + national identifier; a German one is 18 characters. */
export function creditorIdError(creditorId: string): string | null {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{3}[A-Z0-9]{1,28}$/.test(creditorId)) return CREDITOR_ID_MESSAGES.format;
  if (creditorId.startsWith("DE") && !/^DE\d{2}[A-Z0-9]{3}0\d{10}$/.test(creditorId)) return CREDITOR_ID_MESSAGES.length;
  const national = creditorId.slice(7);
  const check = 98 - mod97(`${national}${creditorId.slice(0, 2)}00`);
  return String(check).padStart(2, "0") === creditorId.slice(2, 4) ? null : CREDITOR_ID_MESSAGES.checksum;
}

/** The check digits an IBAN or a creditor id needs for the given body (demo data, tests). */
export function ibanWithCheckDigits(country: string, bban: string): string {
  const check = 98 - mod97(`${bban}${country}00`);
  return `${country}${String(check).padStart(2, "0")}${bban}`;
}

// ---------------------------------------------------------------------------------------------
// Showing an IBAN

/** 'DE89 3704 0044 0532 0130 00': in groups of four, as it is printed. */
export const groupIban = (iban: string | null | undefined) =>
  (iban ?? "")
    .replace(/\s+/g, "")
    .toUpperCase()
    .replace(/(.{4})(?=.)/g, "$1 ");

/** 'DE89 **** **** **** **30 00': country and check digits and the last four characters. */
export function maskIban(iban: string | null | undefined): string {
  const plain = (iban ?? "").replace(/\s+/g, "").toUpperCase();
  if (plain.length <= 8) return groupIban(plain.replace(/./g, "*"));
  return groupIban(`${plain.slice(0, 4)}${"*".repeat(plain.length - 8)}${plain.slice(-4)}`);
}

// ---------------------------------------------------------------------------------------------
// Mandates

export const MANDATE_REFERENCE_PREFIX = "WUFF";
/** Where a mandate was given: entered by staff from paper, or online in Mein Wuff. */
export const MANDATE_SOURCES = ["STAFF", "PORTAL"] as const;

/** 'WUFF-17-2': the person's second mandate. */
export const mandateReference = (personId: number, n: number) => `${MANDATE_REFERENCE_PREFIX}-${personId}-${n}`;

/** The sequence type of the next collection: FRST until the mandate's first collection, then RCUR. */
export type SequenceType = "FRST" | "RCUR";
export const sequenceTypeOf = (mandate: { firstCollectionOn: string | null }): SequenceType => (mandate.firstCollectionOn ? "RCUR" : "FRST");
export const SEQUENCE_LABELS: Record<SequenceType, string> = { FRST: "Erstlastschrift (FRST)", RCUR: "Folgelastschrift (RCUR)" };

/** SEPA Core rulebook: a mandate not used for 36 months expires; no collection under it after that. */
export const MANDATE_UNUSED_MONTHS = 36;
/** Staff are warned this many months before a mandate expires. */
export const MANDATE_EXPIRY_WARNING_MONTHS = 2;

/** The last day a mandate last used (or signed) on `lastUse` may be collected on. */
export const mandateValidUntil = (lastUse: string) => addMonthsToDate(lastUse, MANDATE_UNUSED_MONTHS);

/**
 * The earliest last use under which a mandate may still be collected on `day`: mandateValidUntil
 * never decreases with the last use, so it is `day` 36 months back, or the day after when that one's
 * 36 months end a day short (back from 29 February). A query then compares each use with one date.
 */
export function earliestLastUseValidOn(day: string): string {
  const back = addMonthsToDate(day, -MANDATE_UNUSED_MONTHS);
  return mandateValidUntil(back) >= day ? back : addDaysToDate(back, 1);
}

/** Whether a mandate's revocation, not the 36 months, ends it (it ends the day before the revocation). */
export const isEndedByRevocation = <Mandate extends { validUntil: string; revokedOn: string | null }>(
  mandate: Mandate,
): mandate is Mandate & { revokedOn: string } => mandate.revokedOn !== null && addDaysToDate(mandate.validUntil, 1) === mandate.revokedOn;
