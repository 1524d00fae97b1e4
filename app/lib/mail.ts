/**
 * Mail as the screens and the server share it: the spec's messages, the names of the default
 * templates (migration 0013 seeds them), the labels of the mail log and the variables a template
 * sees. Sending is app/services/mail.server.ts; the log's queries app/models/mails.server.ts.
 */
import type { MailKind, MailStatus } from "~/db/schema";
import { formatDate, formatMoney } from "./format";
import { INVOICE_KIND_LABELS, type InvoiceKindName } from "./invoice-state";

/** Spec 001 §8: shown when nothing can be sent outside production. */
export const NO_TEST_ACCOUNT = "Es ist kein SMTP Test Account konfiguriert. Mails können daher nicht getestet werden";
export const MAIL_SENT = "Mail erfolgreich versandt";
/** Spec 001 §8: the server's text follows. */
export const MAIL_FAILED = "Some error occurred:";
export const NOTHING_TO_MAIL = "Keine Mails zu versenden";
export const MAILSHOT_MISSING = "The requested mailshot does not exist";
/** The task 'Rechnungsmails versenden' is shown disabled (spec 001 §2 Tasks screen). */
export const INVOICE_MAILS_REFUSED = "not sending mails for security reasons";
export const NO_EMAIL = "keine E-Mail-Adresse";
/** Issue 29/16: an erased person's records stay (retention), but nothing is sent to them. */
export const PERSON_ERASED = "Die Person wurde gelöscht (Datenschutz): an sie wird keine Mail mehr gesendet.";
/** Why a mailshot or birthday mail leaves a person out: no GDPR consent (spec 000 §6, issue 16). */
export const NO_CONSENT = "keine Einwilligung";
export const NO_PDF = "Zu dieser Rechnung gibt es noch kein PDF. Bitte zuerst das PDF erzeugen.";

/** The default templates (kind MAIL) by what they are for. */
export const MAIL_TEMPLATES = {
  birthday: "Geburtstagsmail",
  invoice: "Rechnungsmail",
  /** A Stornorechnung's or Gutschrift's mail (issue 30): it asks for no payment. */
  correction: "Korrekturmail",
  fee: "Zahlungserinnerung",
  person: "Nachricht",
  /** A Lastschriftlauf's pre-notification (issue 31 item 1), and its letter (an INVOICE-kind template). */
  debitNotice: "Vorabankündigung Lastschrift",
  debitNoticeLetter: "Vorabankündigung Lastschrift (Brief)",
} as const;

export const MAIL_KIND_LABELS: Record<MailKind, string> = {
  SINGLE: "Einzelmail",
  MAILSHOT: "Mailshot",
  BIRTHDAY: "Geburtstag",
  REMINDER: "Mahnung",
  DEBIT_NOTICE: "Vorabankündigung",
};
export const MAIL_STATUS_LABELS: Record<MailStatus, string> = { CLAIMED: "nicht bestätigt", SENT: "versandt", FAILED: "fehlgeschlagen" };

/** The recipient queries of mailshots (they replace the spec's stored procedures; the SQL is in
 *  app/models/mailshots.server.ts): the key a mailshot stores, and the label shown. */
export const RECIPIENT_QUERY_LABELS = {
  members: "Alle aktuellen Mitglieder",
  runningCourses: "Teilnehmer laufender Kurse",
  openInvoices: "Personen mit offenen Rechnungen",
  everybody: "Alle Personen",
} as const;
export type RecipientQuery = keyof typeof RECIPIENT_QUERY_LABELS;
export const RECIPIENT_QUERY_KEYS = Object.keys(RECIPIENT_QUERY_LABELS) as [RecipientQuery, ...RecipientQuery[]];
export const isRecipientQuery = (value: string): value is RecipientQuery => Object.hasOwn(RECIPIENT_QUERY_LABELS, value);

/** What a single mail is about: a person, an invoice or a fee (the grids' 'Mail senden'). */
export const MAIL_SOURCES = ["person", "invoice", "fee"] as const;
export type MailSource = (typeof MAIL_SOURCES)[number];

/** The person a mail goes to, as the templates need them. */
export type MailPerson = {
  id: number;
  salutation: string | null;
  title: string | null;
  firstName: string;
  lastName: string;
  email: string | null;
  dateOfBirth?: string | null;
  /** Set when the person was erased (GDPR): no mail goes to them. */
  erasedOn?: string | null;
};

/** 'Liebe Erika', 'Lieber Max', 'Hallo Kim': the greeting by the person's salutation. */
function greetingOf(person: Pick<MailPerson, "salutation" | "firstName" | "lastName">): string {
  const name = person.firstName.trim() || person.lastName.trim();
  if (person.salutation === "Frau") return `Liebe ${name}`;
  if (person.salutation === "Herr") return `Lieber ${name}`;
  return `Hallo ${name}`;
}

/** The age someone turns on `today` ('YYYY-MM-DD'), or null without a plausible birth date. */
function ageOn(dateOfBirth: string | null | undefined, today: string): number | null {
  if (!dateOfBirth || !/^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth)) return null;
  const age = Number(today.slice(0, 4)) - Number(dateOfBirth.slice(0, 4)) - (today.slice(5) < dateOfBirth.slice(5) ? 1 : 0);
  return age > 0 && age < 130 ? age : null;
}

export type MailInvoice = {
  id: number;
  kind: InvoiceKindName;
  invoiceNumber: number;
  date: string;
  dueDate: string | null;
  amount: number;
  openAmount: number;
  pdfFilePath: string | null;
  /** The invoice a Stornorechnung or Gutschrift corrects: its number and date. */
  correctsNumber: number | null;
  correctsDate: string | null;
};
export type MailFee = { id: number; text: string; amount: number; openAmount: number; dueDate: string | null; date: string };

/**
 * Every variable a mail template may use ({{greeting}}, {{invoiceNumber}}, ...), formatted the
 * German way. `paymentLink` is an open fee's Mollie link: the templates show its paragraph only
 * when it is set.
 */
export function mailVariables(input: {
  club: string;
  person: MailPerson;
  today: string;
  invoice?: MailInvoice | null;
  fee?: MailFee | null;
  paymentLink?: string | null;
}): Record<string, string | number | null> {
  const { person, invoice, fee } = input;
  return {
    club: input.club,
    greeting: greetingOf(person),
    salutation: person.salutation ?? "",
    title: person.title ?? "",
    firstName: person.firstName,
    lastName: person.lastName,
    fullName: `${person.firstName} ${person.lastName}`.trim(),
    email: person.email ?? "",
    age: ageOn(person.dateOfBirth, input.today),
    today: formatDate(input.today),
    invoiceNumber: invoice ? String(invoice.invoiceNumber) : "",
    invoiceDate: invoice ? formatDate(invoice.date) : "",
    dueDate: invoice?.dueDate ? formatDate(invoice.dueDate) : "",
    invoiceAmount: invoice ? formatMoney(invoice.amount) : "",
    invoiceOpenAmount: invoice ? formatMoney(invoice.openAmount) : "",
    // A correction (issue 30): what it is, what it corrects, and (a Gutschrift) what it credits.
    documentTitle: invoice ? INVOICE_KIND_LABELS[invoice.kind] : "",
    correctsNumber: invoice?.correctsNumber ? String(invoice.correctsNumber) : "",
    correctsDate: invoice?.correctsDate ? formatDate(invoice.correctsDate) : "",
    storno: invoice?.kind === "STORNO" ? "ja" : "",
    creditNote: invoice?.kind === "CREDIT_NOTE" ? "ja" : "",
    creditAmount: invoice?.kind === "CREDIT_NOTE" ? formatMoney(-invoice.amount) : "",
    feeText: fee?.text ?? "",
    feeDate: fee ? formatDate(fee.date) : "",
    feeAmount: fee ? formatMoney(fee.amount) : "",
    feeOpenAmount: fee ? formatMoney(fee.openAmount) : "",
    feeDueDate: fee?.dueDate ? formatDate(fee.dueDate) : "",
    paymentLink: input.paymentLink ?? "",
  };
}

/** The club's name in mails: the configured Verein, else the sender's name. */
export const clubName = (configured: string | null | undefined, sender: string) => configured?.trim() || sender;
