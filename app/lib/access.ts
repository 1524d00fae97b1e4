/**
 * Who may use what (spec 000 §6, 001 §2/§6): the one table the server guards read. Menus only
 * mirror it. Paths are the spec's route names.
 */
export const ROLES = ["ADMIN", "FINANCE", "GDPR"] as const;
export type Role = (typeof ROLES)[number];

export type User = { id: string; name: string; email: string | null; roles: Role[] };

/** ANY: every logged-in user, whatever their roles. */
export type Allowed = "ANY" | readonly Role[];

const ADMIN_FINANCE: Allowed = ["ADMIN", "FINANCE"];
const ADMIN_ONLY: Allowed = ["ADMIN"];
const LISTS: Allowed = ["FINANCE", "ADMIN", "GDPR"];
/** Datenschutz (GDPR Art. 15, 17): the Auskunft, the erasure and the retention overview. */
const PRIVACY: Allowed = ["ADMIN", "GDPR"];

/** Every screen behind the login, by its first path segment. */
export const AREA_ACCESS = {
  people: "ANY",
  peoplemobile: "ANY",
  dogs: "ANY",
  dogsmobile: "ANY",
  /** Nachweise prüfen: the papers members uploaded in Mein Wuff, confirmed or declined (issue 32). */
  dogPapers: "ANY",
  /** Mitgliedsanträge: applications from the public form, accepted (a member with fees and
   *  mandate) or declined; the board's and treasurer's decision, as the fees it makes. */
  applications: ADMIN_FINANCE,
  /** Karten & Abos (issue 34): the 10er-Karten and subscriptions sold, each with its fee. */
  cards: ADMIN_FINANCE,
  /** Karten- und Abo-Produkte: what the club sells (reached from Einstellungen). */
  cardProducts: ADMIN_ONLY,
  /** Widerrufe: withdrawals declared without signing in (§ 356a BGB), applied to the booking
   *  (which cancels its fee) or closed; the treasurer's, as the fees they cancel. */
  withdrawals: ADMIN_FINANCE,
  certifications: "ANY",
  courses: "ANY",
  coursesmobile: "ANY",
  courseSheet: "ANY",
  coursesheetmobile: "ANY",
  nextdatesmobile: "ANY",
  courseDates: "ANY",
  /** Kursteilnehmer: the participants of all courses (the participants grid on its own, in Listen). */
  coursememberships: "ANY",
  scheduler: "ANY",
  recyclebin: "ANY",
  quickAdd: "ANY",
  /** Test: the self-test of the installation (it writes to R2 and the queue and shows counts):
   *  ADMIN, as spec 001 §2 calls the server test "admin or developer only" (issue 29). */
  test: ADMIN_ONLY,
  fees: ADMIN_FINANCE,
  invoices: ADMIN_FINANCE,
  /** Zahlungen: the payment journal (issue 30), its counter-entries and refunds. */
  payments: ADMIN_FINANCE,
  /** Kasse: the Kassenbuch (issue 35 item 2), its entries without a person, cancellations, Tagesabschluss and print. */
  cashbook: ADMIN_FINANCE,
  /** Buchhaltung (issue 35): the chart of accounts and spheres (changed by ADMIN only, checked in
   *  the action) and the DATEV export for the tax adviser. */
  bookkeeping: ADMIN_FINANCE,
  /** Spenden (issue 35 item 5): donations with their donor, cancelled while unconfirmed, and the
   *  Zuwendungsbestätigungen issued for them (single and Sammelbestätigung, PDF). */
  donations: ADMIN_FINANCE,
  /** Mahnwesen: the reminder run (preview, confirmation, progress) and the reminders written. */
  reminders: ADMIN_FINANCE,
  /** Kontoauszug importieren: CAMT.053/MT940 upload, review and booking (reached from the Kontenblatt). */
  bankstatements: ADMIN_FINANCE,
  /** Lastschriftläufe: SEPA direct-debit runs, their pain.008 files, submit and cancel (reached from the Kontenblatt and Tasks). */
  directdebits: ADMIN_FINANCE,
  courseMasters: ADMIN_ONLY,
  /** Erfolgsarten: the kinds of certification (kept by ADMIN; reached from Einstellungen). */
  certificationMasters: ADMIN_ONLY,
  tasks: ADMIN_ONLY,
  configuration: ADMIN_ONLY,
  /** Kalender-Abos: the secret ICS feed addresses of courses and trainers (reached from Einstellungen). */
  calendarFeeds: ADMIN_ONLY,
  /** Texte: consent texts, privacy notice, imprint and statutes in versions (Mein Wuff; reached from Einstellungen). */
  legalTexts: ADMIN_ONLY,
  /** Vorlagen: the invoice PDF's and the mails' templates (reached from Einstellungen). */
  templates: ADMIN_ONLY,
  /** The mail log and single mails to people, invoices and fees (a staff action with personal data). */
  mailer: ADMIN_FINANCE,
  /** Mailshots: predefined mails to a group of recipients, sent from Tasks. */
  mailshots: ADMIN_ONLY,
  hsvrmlist: LISTS,
  birthdaylist: LISTS,
  /** Datenschutz: the retention overview (Aufbewahrung), a person's Auskunft (Art. 15, a zip
   *  download) and the erasure that keeps the books (Art. 17, the dialog 'erasure'). */
  gdpr: PRIVACY,
} as const satisfies Record<string, Allowed>;

export type Area = keyof typeof AREA_ACCESS;

export function isArea(segment: string): segment is Area {
  return Object.hasOwn(AREA_ACCESS, segment);
}

export function mayUse(user: Pick<User, "roles"> | null, area: Area): boolean {
  if (!user) return false;
  const allowed: Allowed = AREA_ACCESS[area];
  return allowed === "ANY" || allowed.some((role) => user.roles.includes(role));
}

/**
 * The panels of the home page (Startseite) and the screens each leads into: a panel is computed,
 * sent and shown only for a user who may use every one of them (its entries and its 'alle
 * anzeigen' link go there).
 */
const HOME_PANEL_AREAS = {
  /** Heute und morgen: the course dates, each opening its course; 'alle' the calendar. */
  courseDates: ["courses", "scheduler"],
  /** Kurse über der Teilnehmerzahl: each opening its course. */
  overCapacity: ["courses"],
  /** Tollwutimpfung läuft ab: dogs of participants of running courses, each opening its dog. */
  rabies: ["dogs"],
  /** Geburtstage diese Woche: the Geburtstags-Liste's birthdays, each opening its person. */
  birthdays: ["birthdaylist", "people"],
  /** Offene and fällige Posten: the Kontenblatt's sums. */
  fees: ["fees"],
  /** Letzter Lauf: the newest bulk run, on the Tasks screen. */
  lastJob: ["tasks"],
  /** Mahnungen, Versand fehlgeschlagen: each to be sent again or printed on the Mahnwesen screen. */
  failedReminders: ["reminders"],
  /** Änderungen aus dem Portal: what people changed in Mein Wuff, each opening its person; the
   *  papers waiting for staff lead to Nachweise prüfen. */
  portalChanges: ["people", "dogPapers"],
  /** Karten & Abos: attendance 'ohne Karte' to settle and cards running out, each opening the person's tab. */
  cards: ["cards", "people"],
} as const satisfies Record<string, readonly Area[]>;

export type HomePanel = keyof typeof HOME_PANEL_AREAS;

export const maySeeHomePanel = (user: Pick<User, "roles"> | null, panel: HomePanel): boolean => HOME_PANEL_AREAS[panel].every((area) => mayUse(user, area));

/**
 * What a role may do inside a screen, beyond opening it (spec 000 §6). Columns, tabs, dialog
 * fields and the server's queries ask here; nothing else decides.
 */
const PERMISSIONS = {
  /** Membership dates and GDPR consent of people: shown, sent and written only for these. */
  protectedPersonData: ["ADMIN", "GDPR"],
  /** Bank data of people (SEPA mandates: the full IBAN): shown, sent and written only for these;
   *  everyone else sees at most a masked IBAN ('DE89 **** **** **** **30 00'). */
  bankData: ["ADMIN", "FINANCE"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function may(user: Pick<User, "roles"> | null, permission: Permission): boolean {
  const allowed: readonly Role[] = PERMISSIONS[permission];
  return user !== null && allowed.some((role) => user.roles.includes(role));
}

/** The German text of the access-denied toast, naming who may use the screen. */
export function accessDeniedMessage(area: Area): string {
  const allowed: Allowed = AREA_ACCESS[area];
  const roles = allowed === "ANY" ? "" : ` Diese Ansicht ist nur für die Rolle${allowed.length > 1 ? "n" : ""} ${allowed.join(", ")} freigegeben.`;
  return `Zugriff verweigert.${roles}`;
}

/** Keeps only the roles Wuff knows from a provider's roles claim (array or comma-separated). */
export function rolesFromClaim(claim: unknown): Role[] {
  const values = Array.isArray(claim) ? claim : typeof claim === "string" ? claim.split(",") : [];
  return ROLES.filter((role) => values.some((value) => String(value).trim().toUpperCase() === role));
}
