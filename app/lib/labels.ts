/** German labels of coded values, shared by grids, forms and exports. */

/** Dog gender codes (spec: 1 männlich, 2 weiblich, 0 (unbekannt)). */
export const DOG_GENDER_LABELS: Record<number, string> = { 1: "männlich", 2: "weiblich", 0: "(unbekannt)" };
export const UNKNOWN_GENDER = "(unbekannt)";
export const dogGenderText = (gender: number | null | undefined) => DOG_GENDER_LABELS[gender ?? 0] ?? UNKNOWN_GENDER;

/** A person's salutation. */
export const SALUTATIONS = ["Herr", "Frau"] as const;

/** Herr/Frau select of the quick add (1 Herr, 2 Frau) and the person's salutation. */
export const SALUTATION_BY_CODE = { 1: "Herr", 2: "Frau" } as const;

/** German names of the tables, per record, as the bin's Tabelle column shows them. */
export const TABLE_LABELS: Record<string, string> = {
  people: "Person",
  dogs: "Hund",
  courses: "Kurs",
  course_masters: "Kurs-Typ",
  course_memberships: "Kursteilnahme",
  course_dates: "Kurstermin",
  attendances: "Anwesenheit",
  online_bookings: "Online-Buchung",
  waitlist_offers: "Angebot aus der Warteliste",
  withdrawal_declarations: "Widerruf ohne Anmeldung",
  card_products: "Karten- oder Abo-Produkt",
  cards: "Karte oder Abo",
  card_uses: "Nutzung einer Karte",
  card_refunds: "Erstattung einer Karte",
  attendance_settlements: "Erledigte Teilnahme ohne Karte",
  certifications: "Erfolg",
  certification_masters: "Erfolgsart",
  fees: "Offener Posten",
  invoice_headers: "Rechnung",
  invoice_rows: "Rechnungszeile",
  locations: "Ort",
  mailshots: "Mailing",
  templates: "Vorlage",
  sepa_mandates: "SEPA-Mandat",
  reminders: "Mahnung",
  dog_papers: "Nachweis eines Hundes",
  consents: "Einwilligung",
  legal_texts: "Text (Einwilligung, Datenschutz, Impressum, Satzung)",
};

/** The kinds of template (Vorlagen). */
export const TEMPLATE_KIND_LABELS = { INVOICE: "Rechnung (PDF)", MAIL: "Mail" } as const;

/** Course status codes (FINISHED is 'abgeschlossen': no new participants). */
export const COURSE_STATUS_LABELS = { PLANNED: "Geplant", RUNNING: "Läuft", FINISHED: "Abgeschlossen" } as const;
/** FIXED: a set number of sessions; ONGOING: an open-ended group. */
export const DURATION_MODEL_LABELS = { FIXED: "Feste Anzahl Termine", ONGOING: "Fortlaufend" } as const;
/** PER_COURSE: the price is for the whole course; PER_SESSION: per session. */
export const PRICING_MODEL_LABELS = { PER_COURSE: "Preis pro Kurs", PER_SESSION: "Preis pro Termin" } as const;

/** The codes of a label table, as a tuple for z.enum. */
export const codesOf = <Code extends string>(labels: Record<Code, string>) => Object.keys(labels) as [Code, ...Code[]];

/** The text of a participant's course fee on the Kontenblatt: the course and the dog (a fee text has at most 100 characters). */
export const courseFeeText = (courseName: string, dogName: string) => `Kursgebühr ${courseName} (${dogName})`.slice(0, 100);

const WEEKLY_ON = ["Sonntags", "Montags", "Dienstags", "Mittwochs", "Donnerstags", "Freitags", "Samstags"] as const;

/** A weekly course's time as its text says it: '2026-11-29', 17 -> 'Sonntags 17:00 Uhr'. */
export const courseTimeText = (isoDate: string, hour: number, minute = 0) =>
  `${WEEKLY_ON[new Date(`${isoDate}T00:00:00Z`).getUTCDay()]} ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")} Uhr`;

/** The states of a direct-debit run (Lastschriftlauf). */
/** The payment journal's methods and sources (issue 30), as the Zahlungen grid shows them. */
export const PAYMENT_METHOD_LABELS = { TRANSFER: "Überweisung", DIRECT_DEBIT: "Lastschrift", MOLLIE: "Mollie", CASH: "Bar", OFFSET: "Verrechnung" } as const;
export const PAYMENT_SOURCE_LABELS = {
  BANK_ENTRY: "Kontoauszug",
  DIRECT_DEBIT: "Lastschriftlauf",
  MOLLIE: "Mollie",
  CASH_RECEIPT: "Barzahlung",
  MANUAL: "von Hand",
  CORRECTION: "Storno/Gutschrift",
  REVERSAL: "Gegenbuchung",
  MIGRATION: "übernommen",
} as const;

export const DIRECT_DEBIT_STATUS_LABELS = { PREPARED: "vorbereitet", SUBMITTED: "an die Bank übergeben", CANCELLED: "storniert" } as const;

/** How a change was made, as the Änderungsverlauf names it ('über …'): the dialog that posted it. */
const DIALOG_SOURCE_LABELS: Record<string, string> = {
  person: "Personendialog",
  dog: "Hundedialog",
  course: "Kursdialog",
  courseMaster: "Kurs-Typ-Dialog",
  courseMembership: "Teilnehmerdialog",
  courseDate: "Termindialog",
  certification: "Erfolgsdialog",
  certificationMaster: "Erfolgsart-Dialog",
  fee: "Postendialog",
  invoice: "Rechnungsdialog",
  invoiceRow: "Rechnungszeilendialog",
  invoicePdf: "PDF-Dialog",
  mailshot: "Mailshotdialog",
  mailing: "Mailversand",
  mail: "Maildialog",
  mandate: "Mandatsdialog",
  paymentLink: "Zahlungslink",
  pdfRun: "PDF-Lauf",
  task: "Aufgaben",
  template: "Vorlagendialog",
  bin: "Papierkorb",
  directDebit: "Lastschriftlauf",
};

export const dialogSourceLabel = (entity: string) => DIALOG_SOURCE_LABELS[entity] ?? `Dialog ${entity}`;

/** How a change was made when no dialog posted it: by the screen (first path segment). */
const SCREEN_SOURCE_LABELS: Record<string, string> = {
  quickAdd: "Schnellerfassung",
  configuration: "Einstellungen",
  bankstatements: "Kontoauszüge",
  bankstatements_: "Kontoauszüge",
  coursesheetmobile: "Kursblatt (mobil)",
  courseSheet: "Kursblatt",
  dogsmobile: "Hunde (mobil)",
  peoplemobile: "Personen (mobil)",
  tasks: "Aufgaben",
  recyclebin: "Papierkorb",
  scheduler: "Planer",
  mailer: "Mailversand",
  api: "Schnittstelle",
};

export function screenSourceLabel(pathname: string): string {
  const segment = pathname.split("/")[1] ?? "";
  return SCREEN_SOURCE_LABELS[segment] ?? "Web";
}
