/**
 * Reading bank statements: CAMT.053 (ISO 20022 camt.053.001.02 to .13, read with fast-xml-parser)
 * and MT940 (SWIFT, with the German banks' structured field 86: ?00 text, ?20-?29/?60-?63
 * remittance, ?32/?33 name, GVC codes). Amounts become integer cents from their text, never
 * through floating point. A file that is none of these is refused with a German message
 * (StatementError, with the HTTP status to answer).
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { toHex } from "./bytes";
import { normalizeIban } from "./banking";

export const MAX_STATEMENT_BYTES = 5 * 1024 * 1024;

type StatementFormat = "CAMT053" | "MT940";

export type StatementTransaction = {
  /** Position in the file (0-based), part of the key when the bank gives no reference. */
  position: number;
  direction: "CRDT" | "DBIT";
  /** Cents, always positive. */
  amount: number;
  bookingDate: string | null;
  valueDate: string | null;
  /** The bank's own reference of the booking (AcctSvcrRef, MT940 field 61 after //). */
  bankReference: string | null;
  endToEndId: string | null;
  mandateId: string | null;
  /** The batch a collective booking credits (CAMT Btch or Refs: PmtInfId, else MsgId; MT940 KREF+):
   *  for a Lastschriftlauf's credit its PmtInf block 'WUFF-LS-{run}-{RCUR|FRST}-{YYYYMMDD}'. */
  batchReference: string | null;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  remittance: string;
  /** A returned direct debit (R-transaction) and its ISO reason code (MD06, AC04, ...). */
  isReturn: boolean;
  returnReason: string | null;
};

export type ParsedStatement = {
  format: StatementFormat;
  accountIban: string | null;
  statementId: string | null;
  transactions: StatementTransaction[];
};

export class StatementError extends Error {
  constructor(
    readonly status: 400 | 413 | 415 | 422,
    message: string,
  ) {
    super(message);
  }
}

export const EMPTY_FILE = "Die Datei ist leer. Bitte einen Kontoauszug im Format CAMT.053 (XML) oder MT940 hochladen.";
export const TOO_LARGE = `Die Datei ist zu groß: Kontoauszüge bis ${MAX_STATEMENT_BYTES / 1024 / 1024} MB werden angenommen.`;
const UNKNOWN_FORMAT = "Die Datei ist weder ein Kontoauszug im Format CAMT.053 (XML) noch MT940. Bitte den Kontoauszug so aus dem Online-Banking exportieren.";
const NOT_XML = "Die Datei ist kein gültiges XML: Der Kontoauszug konnte nicht gelesen werden.";
const NO_ENTRIES = "Der Kontoauszug enthält keine Buchungen.";

/** '12.50' / '12,5' / '1200' as cents, or null (never through a float). */
export function centsOf(text: unknown): number | null {
  const match = typeof text === "string" ? /^\s*(\d{1,12})(?:[.,](\d{0,2}))?\s*$/.exec(text) : null;
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

const REASON = /\b(AC0[1-6]|AC13|AG0[12]|AM0[45]|BE05|CNOR|DNOR|FF0[15]|MD0[1267]|MS0[23]|RC01|RR0[1-4]|SL01|TM01)\b/;

/** Which of the two formats the text is, or a refusal. */
export function parseStatement(text: string): ParsedStatement {
  const body = text.replace(/^\uFEFF/, "").trim();
  if (body === "") throw new StatementError(400, EMPTY_FILE);
  if (body.startsWith("<")) return parseCamt053(body);
  if (/(^|\n|\{4:\s*\n?):20:/.test(body) && /:61:|:60[FM]:/.test(body)) return parseMt940(body);
  throw new StatementError(415, UNKNOWN_FORMAT);
}

// ---------------------------------------------------------------------------------------------
// CAMT.053

type Node = Record<string, unknown>;
const ARRAYS = new Set(["Stmt", "Ntry", "NtryDtls", "TxDtls", "Ustrd"]);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  // Every value stays text: amounts are read as cents from their digits.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
  isArray: (name) => ARRAYS.has(name),
});

const node = (value: unknown): Node | undefined => (value && typeof value === "object" && !Array.isArray(value) ? (value as Node) : undefined);
const list = (value: unknown): Node[] =>
  Array.isArray(value) ? value.map(node).filter((item): item is Node => item !== undefined) : node(value) ? [node(value)!] : [];
/** The text at a path of child names ('#text' of an element with attributes). */
function textAt(start: unknown, ...path: string[]): string | null {
  let current: unknown = start;
  for (const name of path) current = node(current)?.[name];
  if (typeof current === "string") return current.trim() || null;
  const inner = node(current)?.["#text"];
  return typeof inner === "string" ? inner.trim() || null : null;
}
const dateOf = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null);

function parseCamt053(text: string): ParsedStatement {
  if (/<!DOCTYPE/i.test(text)) throw new StatementError(415, `${NOT_XML} (Eine DOCTYPE-Angabe ist in Kontoauszügen nicht erlaubt.)`);
  if (XMLValidator.validate(text) !== true) throw new StatementError(415, NOT_XML);
  const root = node(parser.parse(text));
  const documentNode = node(root?.Document);
  // The parser drops namespace declarations: read the document element's own from the text.
  const namespace = /<(?:[\w.-]+:)?Document\b[^>]*?\bxmlns(?::[\w.-]+)?\s*=\s*["']([^"']+)["']/.exec(text)?.[1] ?? "";
  const kind = /urn:iso:std:iso:20022:tech:xsd:([a-z]+\.\d{3})\.\d{3}\.(\d{2})/.exec(namespace);
  if (!documentNode || !kind || kind[1] !== "camt.053" || !node(documentNode.BkToCstmrStmt)) {
    const named = kind ? ` (${kind[1]}.001.${kind[2]})` : "";
    throw new StatementError(
      422,
      `Die XML-Datei ist kein Kontoauszug im Format CAMT.053${named}. Bitte den Tagesauszug (camt.053) hochladen, keine Avis- (camt.054) oder Auftragsdatei (pain).`,
    );
  }
  const statements = list(node(documentNode.BkToCstmrStmt)!.Stmt);
  const transactions: StatementTransaction[] = [];
  let accountIban: string | null = null;
  let statementId: string | null = null;
  for (const statement of statements) {
    accountIban ??= textAt(statement, "Acct", "Id", "IBAN");
    statementId ??= textAt(statement, "Id");
    for (const entry of list(statement.Ntry)) {
      const status = textAt(entry, "Sts", "Cd") ?? textAt(entry, "Sts");
      if (status && status !== "BOOK") continue;
      const direction = textAt(entry, "CdtDbtInd") === "DBIT" ? "DBIT" : "CRDT";
      const entryAmount = centsOf(textAt(entry, "Amt"));
      if (entryAmount === null) throw new StatementError(422, `Der Kontoauszug enthält einen ungültigen Betrag: „${textAt(entry, "Amt") ?? ""}“.`);
      const bookingDate = dateOf(textAt(entry, "BookgDt", "Dt") ?? textAt(entry, "BookgDt", "DtTm"));
      const valueDate = dateOf(textAt(entry, "ValDt", "Dt") ?? textAt(entry, "ValDt", "DtTm"));
      const subFamily = textAt(entry, "BkTxCd", "Domn", "Fmly", "SubFmlyCd");
      const proprietary = textAt(entry, "BkTxCd", "Prtry", "Cd") ?? "";
      const entryReturn = subFamily === "UPDD" || /\+10[89]\b/.test(proprietary);
      const details = list(entry.NtryDtls).flatMap((detail) => list(detail.TxDtls));
      const batch = list(entry.NtryDtls)
        .map((detail) => node(detail.Btch))
        .find(Boolean);
      const entryBatch = textAt(batch, "PmtInfId") ?? textAt(batch, "MsgId");
      const parts = details.length > 0 ? details : [{} as Node];
      for (const [index, detail] of parts.entries()) {
        const amount = parts.length === 1 ? entryAmount : (centsOf(textAt(detail, "AmtDtls", "TxAmt", "Amt")) ?? centsOf(textAt(detail, "Amt")) ?? entryAmount);
        const ownDirection = textAt(detail, "CdtDbtInd");
        const txDirection = ownDirection === "DBIT" || ownDirection === "CRDT" ? ownDirection : direction;
        const parties = node(detail.RltdPties);
        const partyName = (role: "Dbtr" | "Cdtr") => textAt(parties, role, "Nm") ?? textAt(parties, role, "Pty", "Nm");
        const partyIban = (role: "DbtrAcct" | "CdtrAcct") => textAt(parties, role, "Id", "IBAN");
        const returnInfo = node(detail.RtrInf);
        const isReturn = txDirection === "DBIT" && (returnInfo !== undefined || entryReturn);
        // The other party: who paid us (a credit), or for a returned debit the member it was drawn from.
        const fromDebtor = txDirection === "CRDT" || isReturn;
        const ustrd = node(detail.RmtInf)?.Ustrd;
        const remittance = (Array.isArray(ustrd) ? ustrd : ustrd ? [ustrd] : [])
          .map((line) => (typeof line === "string" ? line : String(node(line)?.["#text"] ?? "")))
          .join(" ")
          .replace(/\s+/g, " ")
          .trim();
        const additional = textAt(entry, "AddtlNtryInf") ?? "";
        const reason =
          textAt(returnInfo, "Rsn", "Cd") ??
          textAt(returnInfo, "Rsn", "Prtry") ??
          (isReturn ? (REASON.exec(`${remittance} ${additional}`)?.[1] ?? null) : null);
        transactions.push({
          position: transactions.length,
          direction: txDirection,
          amount,
          bookingDate,
          valueDate,
          bankReference:
            textAt(detail, "Refs", "AcctSvcrRef") ??
            (index === 0 && parts.length === 1 ? textAt(entry, "AcctSvcrRef") : textAt(entry, "AcctSvcrRef") && `${textAt(entry, "AcctSvcrRef")}/${index + 1}`),
          endToEndId: nonRef(textAt(detail, "Refs", "EndToEndId")),
          mandateId: textAt(detail, "Refs", "MndtId"),
          batchReference: nonRef(textAt(detail, "Refs", "PmtInfId") ?? entryBatch ?? textAt(detail, "Refs", "MsgId")),
          counterpartyName: fromDebtor ? (partyName("Dbtr") ?? partyName("Cdtr")) : (partyName("Cdtr") ?? partyName("Dbtr")),
          counterpartyIban: fromDebtor ? (partyIban("DbtrAcct") ?? partyIban("CdtrAcct")) : (partyIban("CdtrAcct") ?? partyIban("DbtrAcct")),
          remittance: remittance || additional,
          isReturn,
          returnReason: reason,
        });
      }
    }
  }
  if (transactions.length === 0) throw new StatementError(422, NO_ENTRIES);
  return { format: "CAMT053", accountIban, statementId, transactions };
}

const nonRef = (value: string | null) => (value && value.toUpperCase() !== "NOTPROVIDED" && value.toUpperCase() !== "NONREF" ? value : null);

// ---------------------------------------------------------------------------------------------
// MT940

const SEPA_TAGS = /(EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA|ABWE|COAM|OAMT|IBAN|BIC)\+/g;

/** Field 86 of German banks: GVC, ?-subfields, SEPA tags inside the remittance. */
function parseField86(text: string) {
  const structured = /^(\d{3})\?/.exec(text);
  if (!structured) return { gvc: null, name: null, iban: null, remittance: text.trim(), tags: {} as Record<string, string>, extra: "" };
  const fields = new Map<string, string>();
  for (const match of text.slice(3).matchAll(/\?(\d{2})([^?]*)/g)) fields.set(match[1], (fields.get(match[1]) ?? "") + match[2]);
  const pick = (...keys: string[]) => keys.map((key) => fields.get(key) ?? "").join("");
  const purpose = pick("20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "60", "61", "62", "63");
  const tags: Record<string, string> = {};
  const pieces = purpose.split(SEPA_TAGS);
  let free = pieces[0];
  for (let index = 1; index < pieces.length; index += 2) tags[pieces[index]] = (pieces[index + 1] ?? "").trim();
  if (pieces.length > 1) free = [pieces[0], tags.SVWZ ?? ""].join(" ");
  return {
    gvc: structured[1],
    name: pick("32", "33").trim() || null,
    iban: (fields.get("31") ?? "").trim() || null,
    remittance: free.replace(/\s+/g, " ").trim(),
    tags,
    extra: `${pick("00")} ${pick("34")}`,
  };
}

function mtDate(yymmdd: string): string {
  const year = Number(yymmdd.slice(0, 2));
  return `${year < 80 ? 2000 + year : 1900 + year}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
}

function parseMt940(text: string): ParsedStatement {
  const lines = text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .filter((line) => !/^\s*(\{[1-3]:|-\}|\{4:\s*$|\{5:)/.test(line) && line.trim() !== "-");
  // Fields: a line starting with :TAG: opens one, the following lines continue it.
  const fields: { tag: string; value: string }[] = [];
  for (const raw of lines) {
    const line = raw.replace(/^\{4:/, "");
    const opened = /^:(\d{2}[A-Z]?):(.*)$/.exec(line);
    if (opened) fields.push({ tag: opened[1], value: opened[2] });
    else if (fields.length > 0) fields.at(-1)!.value += fields.at(-1)!.tag === "86" ? line : `\n${line}`;
  }
  let accountIban: string | null = null;
  let statementId: string | null = null;
  const transactions: StatementTransaction[] = [];
  for (const field of fields) {
    if (field.tag === "25" && accountIban === null) {
      const value = field.value.trim().replace(/\s/g, "");
      accountIban = /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(value) ? value : value || null;
    } else if (field.tag === "20" && statementId === null) statementId = field.value.trim() || null;
    else if (field.tag === "28C" && statementId !== null && !statementId.includes("/")) statementId = `${statementId}/${field.value.trim()}`;
    else if (field.tag === "61") {
      const [first] = field.value.split("\n");
      const match = /^(\d{6})(\d{4})?(R?[CD])([A-Z])?(\d{1,12},\d{0,2})([NFS][A-Z0-9]{3})([^/]*)(?:\/\/(.*))?$/.exec(first.trim());
      if (!match) throw new StatementError(422, `Der MT940-Kontoauszug enthält eine unlesbare Buchungszeile (:61:): „${first.slice(0, 40)}“.`);
      const [, value, entry, mark, , amountText, , customerReference, bankReference] = match;
      const valueDate = mtDate(value);
      let bookingDate = valueDate;
      if (entry) {
        let year = Number(valueDate.slice(0, 4));
        const month = Number(entry.slice(0, 2));
        const valueMonth = Number(valueDate.slice(5, 7));
        if (month - valueMonth > 6) year -= 1;
        if (valueMonth - month > 6) year += 1;
        bookingDate = `${year}-${entry.slice(0, 2)}-${entry.slice(2, 4)}`;
      }
      transactions.push({
        position: transactions.length,
        direction: mark === "C" || mark === "RD" ? "CRDT" : "DBIT",
        amount: centsOf(amountText)!,
        bookingDate,
        valueDate,
        bankReference: nonRef(bankReference?.trim() || null),
        endToEndId: nonRef(customerReference.trim() || null),
        mandateId: null,
        batchReference: null,
        counterpartyName: null,
        counterpartyIban: null,
        remittance: "",
        isReturn: false,
        returnReason: null,
      });
    } else if (field.tag === "86" && transactions.length > 0) {
      const transaction = transactions.at(-1)!;
      const details = parseField86(field.value);
      transaction.counterpartyName = details.name;
      transaction.counterpartyIban = details.iban;
      transaction.remittance = details.remittance;
      transaction.endToEndId = nonRef(details.tags.EREF ?? null) ?? transaction.endToEndId;
      transaction.mandateId = details.tags.MREF ?? null;
      transaction.batchReference = nonRef(details.tags.KREF ?? null);
      // GVC 108/109: Rücklastschrift (a direct debit returned by the member's bank).
      transaction.isReturn = transaction.direction === "DBIT" && (details.gvc === "108" || details.gvc === "109");
      transaction.returnReason = transaction.isReturn ? (REASON.exec(`${details.remittance} ${details.extra}`)?.[1] ?? null) : null;
    }
  }
  if (transactions.length === 0) throw new StatementError(422, NO_ENTRIES);
  return { format: "MT940", accountIban, statementId, transactions };
}

/**
 * How an erased person's IBAN is remembered (erased_ibans, GDPR erasure): a SHA-256 of the
 * normalised IBAN, so a later import recognises the payer without keeping the IBAN itself.
 */
export async function erasedIbanHash(iban: string): Promise<string> {
  const material = `wuff-erased-iban\u001f${normalizeIban(iban)}`;
  return toHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(material)));
}

// ---------------------------------------------------------------------------------------------
// The key that makes an import of the same statement recognise its bookings

/**
 * A booking's stable key: the bank's reference (AcctSvcrRef) with the account, else a SHA-256 of
 * account, booking date, direction, amount, references, counterparty and position in the file.
 */
export async function transactionKey(accountIban: string | null, transaction: StatementTransaction): Promise<string> {
  const account = accountIban ?? "-";
  if (transaction.bankReference) return `${account}|ref|${transaction.bankReference}`;
  const material = [
    account,
    transaction.bookingDate,
    transaction.direction,
    transaction.amount,
    transaction.endToEndId,
    transaction.remittance,
    transaction.counterpartyName,
    transaction.counterpartyIban,
    transaction.position,
  ].join("\u001f");
  return `${account}|sha|${toHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(material)))}`;
}
