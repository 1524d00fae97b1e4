/**
 * The pre-notification of a direct debit (Vorabankündigung, "Pre-Notification" of the SEPA Core
 * rulebook, chapter 4.5 PT-01.02/PT-03): the creditor tells the debtor amount and collection date
 * at least 14 calendar days before the collection, unless a shorter period was agreed with the
 * debtor (the club's setting, at least 1 day). A Lastschriftlauf sends its notices as its first
 * step, so the earliest collection date it may ask for is the notice period from today, and at
 * least the bank's lead time (the file handed in today, collected on the next TARGET2 business day
 * at the earliest, D-1). Banks take a requested collection date up to 12 months ahead at most.
 * Pure: the run, its dialog and the letter use it.
 */
import { addDaysToDate, addMonthsToDate, formatDate, formatMoney } from "./format";
import { clubTemplateData, personTemplateData, salutationOf, type ClubInvoiceData, type InvoiceDocumentSource } from "./invoice-document";
import { maskIban } from "./banking";
import { businessDayFrom, earliestCollectionDate } from "./pain008";

/** The rulebook's period when nothing else was agreed with the debtor. */
export const DEFAULT_NOTICE_DAYS = 14;
export const MIN_NOTICE_DAYS = 1;
/** A longer period helps nobody: the bank would not take the file that far ahead. */
export const MAX_NOTICE_DAYS = 60;
/** How far ahead a collection may be requested. */
const LATEST_COLLECTION_MONTHS = 12;

/** The earliest collection date of a run started `today` whose notices go out today. */
export function earliestNotifiedCollection(today: string, noticeDays: number): string {
  const notified = addDaysToDate(today, noticeDays);
  const leadTime = earliestCollectionDate(today);
  return businessDayFrom(notified > leadTime ? notified : leadTime);
}

/** The last collection date a run started `today` may ask for. */
export const latestCollection = (today: string) => addMonthsToDate(today, LATEST_COLLECTION_MONTHS);

/** Why a run may not collect from `requested` on (German, naming the allowed dates), or null. */
export function collectionDateRefusal(requested: string, today: string, noticeDays: number): string | null {
  const earliest = earliestNotifiedCollection(today, noticeDays);
  if (requested < earliest) {
    return `Der Einzug ist frühestens am ${formatDate(earliest)} möglich: Die Vorabankündigung geht heute hinaus und braucht ${noticeDays === 1 ? "einen Tag" : `${noticeDays} Tage`} Vorlauf, die Bank einen TARGET2-Geschäftstag.`;
  }
  const latest = latestCollection(today);
  if (requested > latest) return `Der Einzug kann höchstens zwölf Monate im Voraus liegen, also spätestens am ${formatDate(latest)}.`;
  return null;
}

/** One collection the notice announces: a transaction (a person's fees due the same day). */
export type NoticeCollection = { collectionDate: string; amount: number; text: string; sequenceType: "FRST" | "RCUR" };

export type DebitNoticeSource = {
  /** The day the notice is written (the run's day). */
  date: string;
  person: InvoiceDocumentSource["person"];
  club: ClubInvoiceData | null;
  creditorId: string;
  mandateReference: string;
  mandateDate: string;
  iban: string;
  collections: NoticeCollection[];
};

/**
 * The values of the notice's letter template and mail: {{title}}, {{date}}, {{salutation}},
 * {{person.*}}, {{club.*}}, {{creditorId}}, {{mandateReference}}, {{mandateDate}}, {{iban}} (masked),
 * {{#collections}}{{collectionDate}} {{amount}} {{text}}{{/collections}}, {{total}} and
 * {{firstCollectionDate}}: the letter and the mail get the same.
 */
export function debitNoticeData(source: DebitNoticeSource) {
  return {
    title: "Vorabankündigung Ihrer SEPA-Lastschrift",
    date: formatDate(source.date),
    salutation: salutationOf(source.person),
    person: personTemplateData(source.person),
    club: clubTemplateData(source.club),
    ...debitNoticeMailVariables(source),
  };
}

/** What only the notice says, for its mail beside the common mail variables ({{club}} there is the
 *  club's name, {{greeting}} the person's): the collections, their total, mandate, IBAN, creditor id. */
export function debitNoticeMailVariables(source: Omit<DebitNoticeSource, "club" | "date" | "person">) {
  const collections = [...source.collections]
    .sort((a, b) => a.collectionDate.localeCompare(b.collectionDate))
    .map((collection) => ({ collectionDate: formatDate(collection.collectionDate), amount: formatMoney(collection.amount), text: collection.text }));
  const total = source.collections.reduce((sum, collection) => sum + collection.amount, 0);
  return {
    creditorId: source.creditorId,
    mandateReference: source.mandateReference,
    mandateDate: formatDate(source.mandateDate),
    iban: maskIban(source.iban),
    collections,
    total: formatMoney(total),
    firstCollectionDate: collections[0]?.collectionDate ?? "",
  };
}

/** The R2 key of a run's letters to print (create-only, rendered on the first download). */
export const debitNoticePrintKey = (runId: number) => `Vorabankuendigungen_Lauf_${runId}.pdf`;
