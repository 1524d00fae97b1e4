/**
 * Änderungsverlauf: which tables keep a history, and the SQLite triggers that write it.
 *
 * Every insert, update, delete and restore of a business record writes one row into
 * change_history, by an AFTER trigger on the table: no write path can forget it, and the row is
 * written by the very statement (so inside the very batch) of the change; a batch that fails
 * leaves no history. Who wrote, how (the source) and whether an insert is a restore come from
 * the one-row table write_context, which the D1 wrapper (app/db/client.server.ts) sets as the
 * first statement of every write batch and clears as the last.
 *
 * The trigger SQL is generated from the drizzle schema: after a schema change run
 * `npm run db:history` (scripts/history-triggers.ts), which writes migrations/<n>_history_triggers
 * .sql anew; tests/integration/change-history.test.ts fails while a table's trigger and the schema
 * differ.
 */
import { DERIVED_COLUMNS, feeTotalsTriggers, reminderStandingTriggers } from "./derived";
import { cashBookTriggers } from "./cash-book";
import { donationTriggers } from "./donations";
import { frozenInvoiceTriggers, paymentJournalTriggers } from "./frozen";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { storedColumns } from "./columns";
import * as schema from "./schema";

/** The business records: every write to them is kept in the history. */
export const HISTORY_TABLES = [
  schema.memberTypes,
  schema.membershipStatuses,
  schema.people,
  schema.dogs,
  schema.locations,
  schema.courseMasters,
  schema.courses,
  schema.courseMemberships,
  schema.courseDates,
  schema.attendances,
  schema.certificationMasters,
  schema.certifications,
  schema.fees,
  schema.invoiceHeaders,
  schema.invoiceRows,
  schema.templates,
  schema.mailshots,
  schema.sepaMandates,
  schema.configuration,
  schema.reminderLevels,
  schema.reminders,
  schema.baseRates,
  schema.legalTexts,
  schema.consents,
  schema.dogPapers,
  schema.cardProducts,
  schema.cards,
  schema.ledgerAccounts,
  schema.cashBoxes,
] as const;

/** The tables without history, and why (technical logs, secrets, the history itself). */
export const NO_HISTORY: Record<string, string> = {
  deleted_records: "Papierkorb: selbst ein Protokoll der Löschungen",
  jobs: "Massenläufe: technisches Protokoll",
  job_slices: "Massenläufe: technisches Protokoll",
  job_failures: "Massenläufe: technisches Protokoll",
  sessions: "Anmeldungen: technisch",
  user_preferences: "Ansichtseinstellungen der Benutzer",
  calendar_feeds: "Kalender-Abos: geheime Zugangsschlüssel",
  mail_log: "selbst ein Protokoll der versandten Mails",
  payments: "Zahlungsjournal: unveränderlich, selbst das Protokoll (Korrektur nur durch Gegenbuchung)",
  cash_entries: "Kassenbuch: unveränderlich, selbst das Protokoll (Korrektur nur durch Gegenbuchung)",
  payment_allocations: "Zuordnungen des Zahlungsjournals: unveränderlich wie das Journal",
  mollie_payments: "Zahlungsprotokoll (die Änderung der Gebühr steht im Verlauf der Gebühr)",
  bank_statement_imports: "Kontoauszug-Import: Protokoll (die gebuchten Zahlungen stehen im Verlauf der Gebühren/Rechnungen)",
  bank_statement_entries: "Kontoauszug-Import: Protokoll (die gebuchten Zahlungen stehen im Verlauf der Gebühren/Rechnungen)",
  direct_debit_runs: "Lastschriftlauf: selbst ein Protokoll (erstellt, übergeben, storniert von/am); das Einziehen steht im Verlauf der Gebühren",
  direct_debit_items: "Lastschriftlauf: selbst ein Protokoll (erstellt, übergeben, storniert von/am); das Einziehen steht im Verlauf der Gebühren",
  direct_debit_notices: "Lastschriftlauf: selbst ein Protokoll der Vorabankündigungen (einmal je Lauf und Person, nie geändert)",
  change_history: "der Verlauf selbst",
  fee_totals: "Summen der Gebühren: von der Datenbank aus den Gebühren abgeleitet (deren Verlauf zählt)",
  erased_ibans: "DSGVO-Löschung: nur Hashes gelöschter IBANs, ohne Person",
  write_context: "wer gerade schreibt (technisch)",
  portal_sign_in_requests: "Anmeldelinks von Mein Wuff: technisch, nur Prüfsummen",
  portal_sessions: "Anmeldungen bei Mein Wuff: technisch",
  portal_email_changes: "Mein Wuff: neue E-Mail-Adressen bis zur Bestätigung, technisch (die Änderung selbst steht im Verlauf der Person)",
  portal_checkouts: "Mein Wuff: Online-Zahlungen, ein Protokoll (das Geld steht im Zahlungsjournal)",
  portal_checkout_items: "Mein Wuff: Online-Zahlungen, ein Protokoll (das Geld steht im Zahlungsjournal)",
  portal_mandate_requests: "Mein Wuff: Lastschriftmandate bis zur Bestätigung, technisch (das Mandat selbst hat seinen Verlauf)",
  portal_calendar_feeds: "Mein Wuff: Kalender-Abo der eigenen Kurse, geheimer Zugangsschlüssel",
  online_bookings: "Online-Buchungen: selbst ein Protokoll (wer wann was akzeptiert hat), nie geändert; die Teilnahme hat ihren Verlauf",
  waitlist_offers: "Angebote aus der Warteliste: ein Protokoll (angeboten, angenommen, verfallen); die Teilnahme hat ihren Verlauf",
  withdrawal_declarations: "Widerrufe ohne Anmeldung: selbst ein Protokoll (eingegangen, bestätigt, erledigt von/am); die Teilnahme hat ihren Verlauf",
  card_product_scopes: "Karten & Abos: wofür ein Produkt gilt (technisch; das Produkt hat seinen Verlauf)",
  card_fees: "Karten & Abos: welche Gebühr zu welcher Karte gehört, nie geändert (die Gebühr hat ihren Verlauf)",
  card_uses: "Karten & Abos: selbst ein Protokoll (genommen, zurückgegeben), nie geändert",
  card_refunds: "Karten & Abos: Erstattungen, nie geändert (die Gutschrift ist eine Rechnung mit Verlauf)",
  attendance_settlements: "Karten & Abos: wie eine Teilnahme ohne Karte erledigt wurde, nie geändert (die Gebühr hat ihren Verlauf)",
  card_purchases: "Karten & Abos: Online-Käufe, selbst ein Protokoll (wer wann was akzeptiert hat), nie geändert; die Karte hat ihren Verlauf",
  notice_declarations: "Kündigungen über „Verträge hier kündigen“: selbst ein Protokoll (eingegangen, bestätigt, erledigt von/am); das Abo hat seinen Verlauf",
  donations: "Spenden: nie geändert, nur bestätigt oder storniert (wer und wann steht in der Spende selbst)",
  donation_receipts: "Zuwendungsbestätigungen: das aufbewahrte Doppel, nie geändert (§ 50 Abs. 7 EStDV)",
  datev_exports: "DATEV-Export: selbst ein Protokoll der übergebenen Dateien, nie geändert",
  membership_applications: "Mitgliedsanträge: bis zur Entscheidung ein Antrag, danach ein Protokoll (Person, Hunde, Beiträge und Mandat haben ihren Verlauf)",
};

/** Columns an update does not count as a change: the audit fields, the row version and the figures
 *  the database derives itself (app/db/derived.ts; what they derive from has its own history). */
export const UNTRACKED_ON_UPDATE = new Set(["last_modified_by", "last_modified_on", "row_version", ...DERIVED_COLUMNS]);

/** The SQL names of a table's stored columns (generated/virtual columns are not kept). */
const columnNames = (table: SQLiteTable): string[] => storedColumns(table).map(([, column]) => column.name);

export const tableName = (table: SQLiteTable) => getTableConfig(table).name;

const quote = (name: string) => `'${name.replace(/'/g, "''")}'`;

/** Who wrote, when, and how: read from write_context; 'unbekannt' rather than a failed write. */
const ACTOR = "COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt')";
const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
const SOURCE = "(SELECT source FROM write_context WHERE id = 1)";
/** An erasure (GDPR Art. 17) writes no history: it would keep what it erases. */
// Every END of a CASE is followed by whitespace: wrangler's migration splitter (as D1 and the tests
// apply migrations) counts BEGIN/CASE … END blocks and recognises an END only before ';' or a space.

/** RESTORE when the batch puts records back from the Papierkorb (an insert, or an update back). */
const actionOr = (plain: string) => `CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE '${plain}' END `;
const NOT_ERASING = "(SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE'";

/** The three triggers of one table, as SQL statements (without the trailing ';'). */
export function historyTriggers(table: SQLiteTable): { name: string; sql: string }[] {
  const name = tableName(table);
  const columns = columnNames(table);
  // The record's key: `id`, or the table's own primary key (reminder_levels: `level`).
  const key = getTableConfig(table).columns.find((column) => column.primary)?.name ?? "id";
  const tracked = columns.filter((column) => !UNTRACKED_ON_UPDATE.has(column));
  const insert = ["INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)", "  VALUES"].join("\n");
  const pairs = (side: "NEW" | "OLD") =>
    columns.map((column) => `${quote(column)}, json_array(${side === "OLD" ? `OLD."${column}", NULL` : `NULL, NEW."${column}"`})`).join(", ");
  const changed = tracked.map((column) => `OLD."${column}" IS NOT NEW."${column}"`);
  const updates = tracked
    .map((column) => `${quote(column)}, CASE WHEN OLD."${column}" IS NOT NEW."${column}" THEN json_array(OLD."${column}", NEW."${column}") END `)
    .join(", ");
  return [
    {
      name: `history_${name}_insert`,
      sql: [
        `CREATE TRIGGER history_${name}_insert AFTER INSERT ON ${name} WHEN ${NOT_ERASING} BEGIN`,
        `${insert} (${quote(name)}, NEW."${key}", ${actionOr("INSERT")}, ${ACTOR}, ${NOW},`,
        `  json_object(${pairs("NEW")}), ${SOURCE});\nEND`,
      ].join("\n"),
    },
    {
      name: `history_${name}_update`,
      sql: [
        `CREATE TRIGGER history_${name}_update AFTER UPDATE ON ${name} WHEN ${NOT_ERASING} AND (${changed.join(" OR ")}) BEGIN`,
        // json_patch drops the members whose value is null: only the changed columns remain.
        `${insert} (${quote(name)}, NEW."${key}", ${actionOr("UPDATE")}, ${ACTOR}, ${NOW},`,
        `  json_patch('{}', json_object(${updates})), ${SOURCE});\nEND`,
      ].join("\n"),
    },
    {
      name: `history_${name}_delete`,
      sql: [
        `CREATE TRIGGER history_${name}_delete AFTER DELETE ON ${name} WHEN ${NOT_ERASING} BEGIN`,
        `${insert} (${quote(name)}, OLD."${key}", 'DELETE', ${ACTOR}, ${NOW},`,
        `  json_object(${pairs("OLD")}), ${SOURCE});\nEND`,
      ].join("\n"),
    },
  ];
}

/** The migration that (re)creates every history trigger, the triggers that keep issued invoices
 *  frozen and the journal (app/db/frozen.ts) and those of derived figures (app/db/derived.ts): a
 *  table rebuild drops them. */
export function historyTriggersMigration(): string {
  const statements = [
    ...HISTORY_TABLES.flatMap((table) => historyTriggers(table)),
    ...frozenInvoiceTriggers(),
    ...paymentJournalTriggers(),
    ...cashBookTriggers(),
    ...donationTriggers(),
    ...reminderStandingTriggers(),
    ...feeTotalsTriggers(),
  ].flatMap((trigger) => [`DROP TRIGGER IF EXISTS ${trigger.name};`, `${trigger.sql};`]);
  return `-- Generated by scripts/history-triggers.ts from app/db/schema.ts (app/db/history.ts): do not edit.\n${statements.join("\n--> statement-breakpoint\n")}\n`;
}
