/**
 * SEPA direct debits (Lastschrift): the TARGET2 calendar that decides the earliest collection
 * date, and the pain.008.001.08 file (ISO 20022, the version of the DK's DFÜ-Abkommen Anlage 3
 * since November 2023, CORE scheme) that a direct-debit run hands to the bank. Pure: amounts come
 * in integer cents and are written as '12.50' without floating point; texts are reduced to the
 * SEPA character set (umlauts spelled out), so every bank takes them.
 */
import { XMLBuilder } from "fast-xml-parser";
import { extractIBAN } from "ibantools";
import { easterSunday } from "./easter";
import { addDaysToDate } from "./format";

const PAIN_008_NAMESPACE = "urn:iso:std:iso:20022:tech:xsd:pain.008.001.08";

// ---------------------------------------------------------------------------------------------
// TARGET2 business days

/** TARGET2 is closed on Saturdays, Sundays, 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December. */
export function isTargetBusinessDay(isoDate: string): boolean {
  const [year, month, day] = isoDate.split("-").map(Number);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const monthDay = isoDate.slice(5);
  if (["01-01", "05-01", "12-25", "12-26"].includes(monthDay)) return false;
  const easter = easterSunday(year);
  return isoDate !== addDaysToDate(easter, -2) && isoDate !== addDaysToDate(easter, 1);
}

/** The first TARGET2 business day after `today` (D-1: a file handed in today is collected then at the earliest). */
export function earliestCollectionDate(today: string): string {
  let date = addDaysToDate(today, 1);
  while (!isTargetBusinessDay(date)) date = addDaysToDate(date, 1);
  return date;
}

/** The next TARGET2 business day from `date` on (the date itself when it is one). */
export function businessDayFrom(date: string): string {
  let day = date;
  while (!isTargetBusinessDay(day)) day = addDaysToDate(day, 1);
  return day;
}

/** A fee's collection date: its due date (moved to the next business day when TARGET2 is closed
 *  then), but not before the earliest possible one. */
export const collectionDateFor = (dueDate: string, earliest: string) => (dueDate < earliest ? earliest : businessDayFrom(dueDate));

/**
 * The day a collection counts as paid when the club does not wait for its bank statement (issue 31
 * item 2): the second TARGET2 business day after the collection date D, on which the SEPA Core
 * scheme settles between the banks; by then the creditor's bank has credited it. Returns can still
 * come later (the debtor's bank up to D+5 TARGET2 days, a refund within 8 weeks, § 675x BGB): the
 * booked return undoes the payment by a counter-entry.
 */
export function settlementDayOf(collectionDate: string): string {
  let day = collectionDate;
  for (let businessDays = 0; businessDays < 2;) {
    day = addDaysToDate(day, 1);
    if (isTargetBusinessDay(day)) businessDays++;
  }
  return day;
}

/** The latest collection date whose settlement day (settlementDayOf) is `today` or earlier. */
export function latestSettledCollection(today: string): string {
  let day = today;
  while (settlementDayOf(day) > today) day = addDaysToDate(day, -1);
  return day;
}

/** How far ahead the run's SQL knows the TARGET2 calendar (due dates later than that are taken as they are). */
const CALENDAR_DAYS = 3 * 366;

/** Every day TARGET2 is closed from `from` on for `days` days, with the business day it moves to:
 *  the run's SQL looks a due date up here ({ '2026-11-28': '2026-11-30', ... }). */
export function closedDaysFrom(from: string, days = CALENDAR_DAYS): Record<string, string> {
  const moves: Record<string, string> = {};
  for (let offset = 0; offset < days; offset++) {
    const day = addDaysToDate(from, offset);
    if (!isTargetBusinessDay(day)) moves[day] = businessDayFrom(day);
  }
  return moves;
}

// ---------------------------------------------------------------------------------------------
// The file

/** 1250 -> '12.50' (integer arithmetic only). */
export function sepaAmount(cents: number): string {
  if (!Number.isInteger(cents) || cents < 0) throw new Error(`Betrag in Cent erwartet: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

const SPELLED: Record<string, string> = { ä: "ae", ö: "oe", ü: "ue", Ä: "Ae", Ö: "Oe", Ü: "Ue", ß: "ss", "&": "+" };

/** Text in the SEPA character set (a-z A-Z 0-9 / - ? : ( ) . , ' + space), at most `max` characters. */
function sepaText(value: string, max: number): string {
  const spelled = [...value].map((char) => SPELLED[char] ?? char).join("");
  const plain = spelled
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9/?:().,'+ -]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return plain.slice(0, max).trim();
}

export type SequenceType = "FRST" | "RCUR";

type DirectDebitCreditor = { name: string; iban: string; bic: string | null; creditorId: string };

export type DirectDebitTransaction = {
  endToEndId: string;
  amount: number;
  mandateReference: string;
  mandateDate: string;
  debtorName: string;
  iban: string;
  bic: string | null;
  /** The IBAN the bank last collected from under this mandate, when it changed since (an amendment). */
  originalIban: string | null;
  remittance: string;
  sequenceType: SequenceType;
  collectionDate: string;
};

export type DirectDebitFile = {
  messageId: string;
  /** ISO instant the file was created. */
  createdOn: string;
  creditor: DirectDebitCreditor;
  transactions: DirectDebitTransaction[];
};

/** One PmtInf block: the transactions of one sequence type and collection date. */
export type PaymentInstruction = {
  id: string;
  sequenceType: SequenceType;
  collectionDate: string;
  transactions: DirectDebitTransaction[];
  count: number;
  sum: number;
};

/** A run's message id: 'WUFF-LS-{run}'; its PmtInf blocks add '-{FRST|RCUR}-{YYYYMMDD}' (paymentInstructions). */
export const runMessageId = (runId: number) => `WUFF-LS-${runId}`;

/** What a bank credit names of a Lastschriftlauf: one transaction (its end-to-end id), or the run's
 *  batch (its message id), or one PmtInf block of it (sequence type and collection date). */
export type DebitCredit = { endToEndId: string } | { runId: number; sequenceType: SequenceType | null; collectionDate: string | null };

const RUN_BATCH = /\bWUFF-LS-(\d{1,9})(?:-(FRST|RCUR)-(\d{4})(\d{2})(\d{2}))?\b/;
/** A run's end-to-end id: 'WUFF-{run}-{person}-{YYYYMMDD}' (direct-debits.server.ts). */
const RUN_TRANSACTION = /^WUFF-\d{1,9}-\d{1,9}-\d{8}$/;

/**
 * The run's credit a statement booking names: banks book a batch (BtchBookg true) as one credit
 * naming the PmtInfId or MsgId (CAMT Btch, MT940 KREF+ or the customer reference), or each
 * transaction on its own with its EndToEndId; some only write it into the text.
 */
export function debitCreditOf(booking: { endToEndId: string | null; batchReference: string | null; remittance: string }): DebitCredit | null {
  if (booking.endToEndId && RUN_TRANSACTION.test(booking.endToEndId)) return { endToEndId: booking.endToEndId };
  for (const text of [booking.batchReference, booking.endToEndId, booking.remittance]) {
    const match = text ? RUN_BATCH.exec(text) : null;
    if (match) {
      return {
        runId: Number(match[1]),
        sequenceType: (match[2] as SequenceType | undefined) ?? null,
        collectionDate: match[3] ? `${match[3]}-${match[4]}-${match[5]}` : null,
      };
    }
  }
  return null;
}

/** The transactions in blocks per sequence type and collection date (FRST first, then by date). */
export function paymentInstructions(file: Pick<DirectDebitFile, "messageId" | "transactions">): PaymentInstruction[] {
  const blocks = new Map<string, PaymentInstruction>();
  const ordered = [...file.transactions].sort(
    (a, b) => a.sequenceType.localeCompare(b.sequenceType) || a.collectionDate.localeCompare(b.collectionDate) || a.endToEndId.localeCompare(b.endToEndId),
  );
  for (const transaction of ordered) {
    const key = `${transaction.sequenceType}-${transaction.collectionDate.replaceAll("-", "")}`;
    let block = blocks.get(key);
    if (!block) {
      block = {
        id: `${file.messageId}-${key}`,
        sequenceType: transaction.sequenceType,
        collectionDate: transaction.collectionDate,
        transactions: [],
        count: 0,
        sum: 0,
      };
      blocks.set(key, block);
    }
    block.transactions.push(transaction);
    block.count++;
    block.sum += transaction.amount;
  }
  return [...blocks.values()];
}

/** A financial institution by BIC, or 'NOTPROVIDED' (IBAN-only, allowed within SEPA). */
const agent = (bic: string | null) => ({ FinInstnId: bic ? { BICFI: bic } : { Othr: { Id: "NOTPROVIDED" } } });

/** Whether two IBANs are accounts at the same bank: same country and national bank code. */
export function isSameBank(iban: string, otherIban: string): boolean {
  const [one, other] = [extractIBAN(iban), extractIBAN(otherIban)];
  return one.countryCode === other.countryCode && Boolean(one.bankIdentifier) && one.bankIdentifier === other.bankIdentifier;
}

/**
 * A changed debtor account as a mandate amendment (SEPA Core rulebook PT-02.02: the creditor sends
 * an amended mandate's data with the next collection; DK Anlage 3, AmendmentInformationDetails):
 * within the same bank the original IBAN (OrgnlDbtrAcct); at another bank the code SMNDA ('same
 * mandate with a new debtor account' since the rulebook of November 2016) under OrgnlDbtrAgt. The sequence type stays what the mandate's
 * series has: since the rulebook of November 2016 an amended mandate's collection need not be FRST.
 * A new account holder name is no amendment attribute: the next collection just carries it.
 */
function amendment(transaction: DirectDebitTransaction) {
  const original = transaction.originalIban;
  if (!original || original === transaction.iban) return {};
  return {
    AmdmntInd: "true",
    AmdmntInfDtls: isSameBank(original, transaction.iban)
      ? { OrgnlDbtrAcct: { Id: { IBAN: original } } }
      : { OrgnlDbtrAgt: { FinInstnId: { Othr: { Id: "SMNDA" } } } },
  };
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", format: true, indentBy: "  ", suppressEmptyNode: true });

/** The pain.008.001.08 document of a run. */
export function buildPain008(file: DirectDebitFile): string {
  const blocks = paymentInstructions(file);
  const total = file.transactions.reduce((sum, transaction) => sum + transaction.amount, 0);
  const creditorName = sepaText(file.creditor.name, 70);
  const document = {
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    Document: {
      "@_xmlns": PAIN_008_NAMESPACE,
      CstmrDrctDbtInitn: {
        GrpHdr: {
          MsgId: file.messageId,
          CreDtTm: file.createdOn.slice(0, 19),
          NbOfTxs: file.transactions.length,
          CtrlSum: sepaAmount(total),
          InitgPty: { Nm: creditorName },
        },
        PmtInf: blocks.map((block) => ({
          PmtInfId: block.id,
          PmtMtd: "DD",
          BtchBookg: "true",
          NbOfTxs: block.count,
          CtrlSum: sepaAmount(block.sum),
          PmtTpInf: { SvcLvl: { Cd: "SEPA" }, LclInstrm: { Cd: "CORE" }, SeqTp: block.sequenceType },
          ReqdColltnDt: block.collectionDate,
          Cdtr: { Nm: creditorName },
          CdtrAcct: { Id: { IBAN: file.creditor.iban } },
          CdtrAgt: agent(file.creditor.bic),
          ChrgBr: "SLEV",
          CdtrSchmeId: { Id: { PrvtId: { Othr: { Id: file.creditor.creditorId, SchmeNm: { Prtry: "SEPA" } } } } },
          DrctDbtTxInf: block.transactions.map((transaction) => ({
            PmtId: { EndToEndId: transaction.endToEndId },
            InstdAmt: { "@_Ccy": "EUR", "#text": sepaAmount(transaction.amount) },
            DrctDbtTx: { MndtRltdInf: { MndtId: transaction.mandateReference, DtOfSgntr: transaction.mandateDate, ...amendment(transaction) } },
            DbtrAgt: agent(transaction.bic),
            Dbtr: { Nm: sepaText(transaction.debtorName, 70) },
            DbtrAcct: { Id: { IBAN: transaction.iban } },
            RmtInf: { Ustrd: sepaText(transaction.remittance, 140) || "Lastschrift" },
          })),
        })),
      },
    },
  };
  return builder.build(document) as string;
}
