/**
 * The reminder letter (Mahnwesen, issue 17) as a document: one letter per person and run, listing
 * every item reminded in that run. Rendered with the letter template of the highest level among
 * them (kind INVOICE, like the invoice template, through the same PDF machinery), and the values
 * of the level's mail. Pure: the model reads the records, the run renders, stores and sends.
 */
import { interestPeriodText, interestRateText, type InterestStretch } from "./default-interest";
import { asciiFileNamePart } from "./file-names";
import { formatDate, formatMoney } from "./format";
import { epcPayload, girocodeSvg } from "./girocode";
import {
  clubTemplateData,
  invoicePaymentReference,
  personTemplateData,
  salutationOf,
  type ClubInvoiceData,
  type InvoiceDocumentSource,
} from "./invoice-document";

/** An item of the letter: an invoice or a direct-billing fee, with its reminder's fee. */
export type ReminderLetterItem = {
  reminderId: number;
  targetType: "INVOICE" | "FEE";
  targetId: number;
  level: number;
  invoiceNumber: number | null;
  /** The fee's text (a fee); null for an invoice. */
  feeText: string | null;
  date: string;
  dueDate: string | null;
  /** What is open on the item now (cents); 0: paid meanwhile, not in the letter. */
  openAmount: number;
  newDueDate: string;
  /** The reminder fee of this item's reminder: its actual costs (cents, 0 without). */
  reminderFee: number;
  /** The default interest the reminder charges (part of its fee), null without (app/lib/default-interest.ts). */
  interest?: { amount: number; from: string; to: string; surcharge: number; stretches: Pick<InterestStretch, "rate">[] } | null;
  /** The Mollie payment link of a reminded fee for its open amount (the fee's link, made by the
   *  run while Mollie is on); null for an invoice (no links) or without Mollie. */
  paymentLink?: string | null;
};

export type ReminderLetterSource = {
  date: string;
  title: string;
  person: InvoiceDocumentSource["person"];
  club: ClubInvoiceData | null;
  items: ReminderLetterItem[];
};

/** 'Rechnung 2026001' or the fee's text. */
const reminderItemText = (item: Pick<ReminderLetterItem, "invoiceNumber" | "feeText">) =>
  item.invoiceNumber !== null ? `Rechnung ${item.invoiceNumber}` : (item.feeText ?? "");

/** The reference of a payment: 'ReNr {n}' for an invoice, 'Posten {id} {text}' for a fee (as the
 *  invoice's and the fee mail's GiroCode); several items joined. */
const reminderPaymentReference = (items: readonly ReminderLetterItem[]) =>
  items
    .map((item) => (item.invoiceNumber !== null ? invoicePaymentReference(item.invoiceNumber) : `Posten ${item.targetId} ${item.feeText ?? ""}`.trim()))
    .join(", ");

/** The new due date the letter names: the latest of its reminders' (one run: the highest level's). */
const newDueDateOf = (items: readonly ReminderLetterItem[]) =>
  items
    .map((item) => item.newDueDate)
    .sort()
    .at(-1) ?? "";

function reminderTotals(items: readonly ReminderLetterItem[]) {
  const openAmount = items.reduce((sum, item) => sum + item.openAmount, 0);
  const reminderFee = items.reduce((sum, item) => sum + item.reminderFee, 0);
  const interest = items.reduce((sum, item) => sum + (item.interest?.amount ?? 0), 0);
  return { openAmount, reminderFee, interest, total: openAmount + reminderFee + interest };
}

/** The letter's one payment link: the link when exactly one item has one (several: none here, each
 *  item carries its own as {{#items}}{{paymentLink}}{{/items}}). */
function letterPaymentLink(items: readonly ReminderLetterItem[]): string {
  const links = items.map((item) => item.paymentLink ?? "").filter((link) => link !== "");
  return links.length === 1 ? links[0] : "";
}

/** The values of a letter template: {{title}}, {{date}}, {{newDueDate}}, {{person.name}},
 *  {{#items}}{{text}} {{date}} {{dueDate}} {{openAmount}} {{paymentLink}}{{/items}}, {{reminderFee}},
 *  {{interest}} (the sum of default interest), {{#interests}}{{text}} {{period}} {{rate}} {{amount}}{{/interests}}
 *  (per item charging it), {{total}}, {{paymentReference}}, {{{girocode}}}, {{paymentLink}} and {{club.*}} as on the invoice. */
export function reminderLetterData(source: ReminderLetterSource) {
  const { club, items } = source;
  const totals = reminderTotals(items);
  const reference = reminderPaymentReference(items);
  const payload = club?.iban
    ? epcPayload({
        name: club.bankAccountHolder?.trim() || club.clubName?.trim() || "",
        iban: club.iban,
        bic: club.bic,
        amount: totals.total,
        remittance: reference,
      })
    : null;
  return {
    title: source.title,
    club: clubTemplateData(club),
    salutation: salutationOf(source.person),
    person: personTemplateData(source.person),
    date: formatDate(source.date),
    newDueDate: formatDate(newDueDateOf(items)),
    items: items.map((item) => ({
      text: reminderItemText(item),
      date: formatDate(item.date),
      dueDate: formatDate(item.dueDate),
      openAmount: formatMoney(item.openAmount),
      paymentLink: item.paymentLink ?? "",
    })),
    openAmount: formatMoney(totals.openAmount),
    /** Empty without a fee (the templates' {{#reminderFee}} section is left out). */
    reminderFee: totals.reminderFee > 0 ? formatMoney(totals.reminderFee) : "",
    /** Empty without interest (the templates' {{#interest}} section is left out). */
    interest: totals.interest > 0 ? formatMoney(totals.interest) : "",
    interests: items.flatMap((item) =>
      item.interest
        ? [
            {
              text: reminderItemText(item),
              period: interestPeriodText(item.interest.from, item.interest.to),
              rate: interestRateText(item.interest.surcharge, item.interest.stretches),
              amount: formatMoney(item.interest.amount),
            },
          ]
        : [],
    ),
    total: formatMoney(totals.total),
    paymentReference: reference,
    girocode: payload ? girocodeSvg(payload) : "",
    paymentLink: letterPaymentLink(items),
  };
}

/** The variables of the level's mail beyond the common ones ({{itemText}}, {{total}}, ..., and
 *  {{paymentLink}}, the letter's one payment link). */
export function reminderMailVariables(source: ReminderLetterSource): Record<string, string> {
  const data = reminderLetterData(source);
  return {
    itemText: source.items.map(reminderItemText).join(", "),
    openAmount: data.openAmount,
    reminderFee: data.reminderFee,
    interest: data.interest,
    total: data.total,
    newDueDate: data.newDueDate,
    paymentReference: data.paymentReference,
    levelTitle: source.title,
    paymentLink: data.paymentLink,
  };
}

/** The R2 key of a person's letter of a run (ASCII, stable: a retried message finds it). */
export const reminderLetterKey = (jobId: number, personId: number, lastName: string) => `Mahnung_${jobId}_${personId}_${asciiFileNamePart(lastName)}.pdf`;

/** The R2 key of a run's print PDF (every letter to be posted, one after the other). */
export const reminderPrintKey = (jobId: number) => `Mahnlauf_${jobId}_Druck.pdf`;

/**
 * Several letters (each a whole HTML document of a letter template) as one document for print:
 * their styles once each, their bodies one after the other, each starting on a new page.
 */
export function printDocument(letters: readonly string[], title = "Mahnungen zum Drucken"): string {
  const styles = new Set<string>();
  const bodies = letters.map((html) => {
    for (const style of html.match(/<style[^>]*>[\s\S]*?<\/style>/gi) ?? []) styles.add(style);
    return /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  });
  return `<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>${title}</title>
${[...styles].join("\n")}
<style>.wuff-letter { break-after: page; page-break-after: always; } .wuff-letter:last-child { break-after: auto; page-break-after: auto; }</style>
</head>
<body>
${bodies.map((body) => `<div class="wuff-letter">${body}</div>`).join("\n")}
</body>
</html>`;
}
