import { mayUse, type Area, type User } from "~/lib/access";

/** The German title of every screen, by area. */
export const SCREEN_TITLES: Record<Area, string> = {
  people: "Personen",
  peoplemobile: "Personen",
  dogs: "Hunde",
  dogsmobile: "Hunde",
  dogPapers: "Nachweise prüfen",
  applications: "Mitgliedsanträge",
  withdrawals: "Widerrufe",
  cards: "Karten & Abos",
  cardProducts: "Karten- und Abo-Produkte",
  certifications: "Erfolge",
  courses: "Kurse",
  coursesmobile: "Laufende Kurse",
  courseSheet: "Kursblatt",
  coursesheetmobile: "Kursblatt",
  nextdatesmobile: "Nächste Kurstermine",
  courseDates: "Kursdaten",
  coursememberships: "Kursteilnehmer",
  scheduler: "Kalender",
  recyclebin: "Papierkorb",
  quickAdd: "Mensch/Hund Mini+",
  test: "Test",
  fees: "Kontenblatt",
  invoices: "Rechnungen",
  payments: "Zahlungen",
  cashbook: "Kasse",
  bookkeeping: "Buchhaltung",
  donations: "Spenden",
  reminders: "Mahnwesen",
  bankstatements: "Kontoauszug importieren",
  directdebits: "Lastschriftläufe",
  courseMasters: "Kurs-Typen",
  certificationMasters: "Erfolgsarten",
  tasks: "Tasks",
  configuration: "Einstellungen",
  calendarFeeds: "Kalender-Abos",
  templates: "Vorlagen",
  legalTexts: "Texte für Mein Wuff",
  mailer: "Mail-Protokoll",
  mailshots: "Mailshots",
  hsvrmlist: "HSVRM-Liste",
  birthdaylist: "Geburtstags-Liste",
  gdpr: "Datenschutz",
};

export type NavEntry = { area: Area; label: string; to: string; /** Opens a dialog over the current page. */ keepsPlace?: boolean };

const entry = (area: Area, label = SCREEN_TITLES[area]): NavEntry => ({ area, label, to: `/${area}` });

/** The sidebar in the spec's order (spec 000 §2 Layout); home comes first and is public. */
export const SIDEBAR: NavEntry[] = [
  entry("people"),
  entry("dogs"),
  entry("certifications"),
  entry("courses"),
  entry("courseSheet"),
  { ...entry("quickAdd"), keepsPlace: true },
  entry("scheduler"),
  entry("recyclebin"),
  entry("gdpr"),
  entry("fees"),
  entry("invoices"),
  entry("payments"),
  entry("cashbook"),
  entry("bookkeeping"),
  entry("donations"),
  entry("reminders"),
  entry("courseMasters"),
  entry("tasks"),
  entry("configuration"),
];

/** The collapsible group Listen at the end of the sidebar. */
export const LISTS_GROUP: NavEntry[] = [entry("hsvrmlist"), entry("birthdaylist"), entry("courseDates"), entry("coursememberships")];

/** The handset menu in the top bar. */
export const HANDSET_MENU: NavEntry[] = [
  entry("peoplemobile"),
  entry("dogsmobile"),
  entry("coursesmobile"),
  entry("coursesheetmobile"),
  entry("nextdatesmobile"),
];

/** The desktop screens that have a handset view: on a phone they point there. */
export const HANDSET_VIEW_OF: Partial<Record<Area, Area>> = {
  people: "peoplemobile",
  dogs: "dogsmobile",
  courses: "coursesmobile",
  courseSheet: "coursesheetmobile",
  courseDates: "nextdatesmobile",
};

/**
 * Below the handset menu's own entries, under a separator: the screens that already work in a
 * phone's browser, so they are reachable there before the handset views exist.
 */
export const HANDSET_MORE: NavEntry[] = [
  entry("people"),
  entry("dogs"),
  entry("certifications"),
  { ...entry("quickAdd"), keepsPlace: true },
  entry("scheduler"),
  entry("recyclebin"),
  entry("configuration"),
];

/** The entries this user may use: the menus mirror the server's route table. */
export const visibleEntries = (entries: NavEntry[], user: User | null) => entries.filter((item) => mayUse(user, item.area));
