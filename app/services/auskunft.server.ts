/**
 * Die Auskunft (GDPR Art. 15) as one zip: `auskunft.json` (every record Wuff holds about the
 * person, table by table, as stored, plus the change history of those records), `auskunft.pdf`
 * (the same, readable, in German: rendered by the invoices' Browser Rendering, pdf.server.ts)
 * and the stored PDFs of their invoices and reminder letters from R2 under `Rechnungen/` and
 * `Mahnungen/`. The PDF names no SQL table: sections, history and Papierkorb entries are German.
 */
import { strToU8, zipSync, type Zippable } from "fflate";
import type { Db } from "~/db/client.server";
import { asciiFileNamePart } from "~/lib/file-names";
import { formatDateTime, todayInBerlin } from "~/lib/format";
import { TABLE_LABELS } from "~/lib/labels";
import { changeLine, describeChanges, HISTORY_ACTION_LABELS } from "~/models/change-history.server";
import { personData, type PersonData } from "~/models/gdpr.server";
import { withPdfRenderer } from "./pdf.server";

/** German titles of the sections, in the Auskunft's order. */
const SECTION_TITLES: Record<string, string> = {
  people: "Stammdaten",
  dogs: "Hunde",
  course_memberships: "Kursteilnahmen",
  attendances: "Anwesenheit",
  certifications: "Erfolge",
  courses: "Kurse als Trainer/in",
  calendar_feeds: "Kalender-Abos",
  fees: "Posten (Kontenblatt)",
  invoice_headers: "Rechnungen",
  invoice_rows: "Rechnungspositionen",
  mollie_payments: "Zahlungen (Mollie)",
  payments: "Zahlungsjournal",
  payment_allocations: "Zuordnungen von Zahlungen",
  cash_entries: "Kassenbuch",
  donations: "Spenden",
  donation_receipts: "Zuwendungsbestätigungen",
  bank_statement_entries: "Zahlungen (Kontoauszug)",
  sepa_mandates: "SEPA-Lastschriftmandate",
  consents: "Einwilligungen",
  dog_papers: "Nachweise der Hunde (Mein Wuff)",
  direct_debit_items: "Lastschriften (Lastschriftläufe)",
  reminders: "Zahlungserinnerungen und Mahnungen",
  mail_log: "Gesendete Mails",
  deleted_records: "Im Papierkorb",
  job_failures: "Fehlermeldungen von Massenläufen (Mailshot, Mahnlauf, …)",
};

/** German names of the columns a reader meets most; the others keep their SQL name (as in the JSON). */
const COLUMN_LABELS: Record<string, string> = {
  id: "Nr.",
  salutation: "Anrede",
  title: "Titel",
  first_name: "Vorname",
  last_name: "Nachname",
  full_name: "Name",
  street_number: "Straße und Hausnummer",
  zip: "PLZ",
  city: "Ort",
  email: "E-Mail",
  home_phone: "Telefon",
  mobile_phone: "Mobiltelefon",
  date_of_birth: "Geburtsdatum",
  is_member: "Mitglied",
  member_since: "Mitglied seit",
  member_until: "Mitglied bis",
  hsvrm_nr: "HSVRM-Nr.",
  has_gdpr: "DSGVO-Einwilligung",
  has_insurance: "Versichert",
  comments: "Anmerkungen",
  common_name: "Rufname",
  breed: "Rasse",
  chip_nr: "Chip-Nr.",
  rabies_valid_until: "Tollwutimpfung gültig bis",
  name: "Name",
  date: "Datum",
  due_date: "Fällig am",
  text: "Text",
  amount: "Betrag (Cent)",
  open_amount: "Offen (Cent)",
  invoice_number: "Rechnungsnummer",
  sent_date: "Versandt am",
  payment_comments: "Zahlungsvermerk",
  account_holder: "Kontoinhaber",
  iban: "IBAN",
  bic: "BIC",
  reference: "Mandatsreferenz",
  mandate_date: "Mandatsdatum",
  is_active: "Aktiv",
  subject: "Betreff",
  recipient: "Empfänger",
  intended_recipient: "Gedachter Empfänger",
  sent_on: "Gesendet am",
  present: "Anwesend",
  counterparty_name: "Name (Zahler)",
  counterparty_iban: "IBAN (Zahler)",
  remittance: "Verwendungszweck",
  booking_date: "Buchungstag",
  value_date: "Wertstellung",
  direction: "Richtung",
  bank_reference: "Bankreferenz",
  end_to_end_id: "Ende-zu-Ende-Referenz",
  mandate_id: "Mandatsreferenz (Bank)",
  proposal: "Zuordnungsvorschlag",
  status: "Status",
  note: "Vermerk",
  applied: "Verbucht (Cent)",
  booked_by: "Gebucht von",
  booked_on: "Gebucht am",
  target_type: "Bezug",
  target_id: "Bezug Nr.",
  person_id: "Person Nr.",
  owner_id: "Halter Nr.",
  dog_id: "Hund Nr.",
  course_id: "Kurs Nr.",
  fee_id: "Posten Nr.",
  invoice_id: "Rechnung Nr.",
  invoice_header_id: "Rechnung Nr.",
  mandate_reference: "Mandatsreferenz",
  sequence_type: "Lastschriftart",
  collection_date: "Einzug am",
  run_id: "Lastschriftlauf Nr.",
  level: "Mahnstufe",
  new_due_date: "Neues Fälligkeitsdatum",
  channel: "Versandweg",
  sent_by: "Gesendet von",
  cancelled_on: "Storniert am",
  cancelled_by: "Storniert von",
  pdf_key: "Mahnschreiben (PDF)",
  pdf_file_path: "Rechnungs-PDF",
  deleted_on: "Gelöscht am",
  deleted_by: "Gelöscht von",
  table_name: "Art",
  transaction_id: "Vorgang Nr.",
  identifier1: "Bezeichnung",
  identifier2: "Bezeichnung 2",
  identifier3: "Bezeichnung 3",
  created_by: "Angelegt von",
  created_on: "Angelegt am",
  last_modified_by: "Geändert von",
  last_modified_on: "Geändert am",
};

const escape = (value: unknown) =>
  String(value ?? "").replace(/[&<>"']/g, (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character]!);

/** What a record of a table is called in German ('Hund'), for the history and the Papierkorb. */
const recordLabel = (table: unknown) => TABLE_LABELS[String(table)] ?? SECTION_TITLES[String(table)] ?? "Datensatz";

const label = (column: string) => COLUMN_LABELS[column] ?? column;

/** The Papierkorb entry's record (the first element of its JSON) with German field names. */
function binnedFields(json: unknown): [string, unknown][] {
  try {
    const parsed: unknown = JSON.parse(String(json));
    const record: unknown = Array.isArray(parsed) ? parsed[0] : undefined;
    return record && typeof record === "object"
      ? Object.entries(record).map(([key, value]) => [`${label(key)} (gelöscht)`, typeof value === "object" && value !== null ? JSON.stringify(value) : value])
      : [];
  } catch {
    return [];
  }
}

/** The readable summary (HTML for the PDF renderer): one section per table, each record as its
 *  filled fields; the consents and the change history last. Tables, actions and changes are named
 *  in German (the JSON keeps the stored values). */
function auskunftHtml(data: PersonData, clubName: string | null, now: Date): string {
  const person = data.person;
  const fieldsOf = (table: string, row: Record<string, unknown>): [string, unknown][] =>
    table === "deleted_records"
      ? Object.entries(row).flatMap(([key, value]): [string, unknown][] =>
          key === "json" ? binnedFields(value) : [[label(key), key === "table_name" ? recordLabel(value) : value]],
        )
      : Object.entries(row).map(([key, value]) => [label(key), value]);
  const record = (table: string, row: Record<string, unknown>) =>
    `<table class="record">${fieldsOf(table, row)
      .filter(([, value]) => value !== null && value !== undefined && value !== "")
      .map(([key, value]) => `<tr><th>${escape(key)}</th><td>${escape(value)}</td></tr>`)
      .join("")}</table>`;
  const sections = Object.entries(data.tables)
    .map(
      ([table, rows]) =>
        `<h2>${escape(SECTION_TITLES[table] ?? "Weitere Daten")} (${rows.length})</h2>${rows.length === 0 ? "<p>Keine Einträge.</p>" : rows.map((row) => record(table, row)).join("")}`,
    )
    .join("");
  const consentNow = person.has_gdpr ? "erteilt" : "nicht erteilt";
  const consents = `<p>Einwilligung in die Verarbeitung der Daten (DSGVO) derzeit: <strong>${consentNow}</strong>.</p>${
    data.consents.length === 0
      ? "<p>Keine Änderungen der Einwilligung verzeichnet.</p>"
      : `<table class="list"><tr><th>Wann</th><th>Was</th><th>Wer</th><th>Wie</th></tr>${data.consents
          .map(
            (entry) =>
              `<tr><td>${escape(entry.when)}</td><td>${entry.given ? "Einwilligung erteilt" : "Einwilligung widerrufen"}</td><td>${escape(entry.who)}</td><td>${escape(entry.source ?? "–")}</td></tr>`,
          )
          .join("")}</table>`
  }`;
  const history =
    data.changeHistory.length === 0
      ? "<p>Keine Einträge.</p>"
      : `<table class="list"><tr><th>Wann</th><th>Wer</th><th>Was</th><th>Datensatz</th><th>Änderungen</th></tr>${data.changeHistory
          .map((row) => {
            const action = String(row.action) as keyof typeof HISTORY_ACTION_LABELS;
            const lines = describeChanges(String(row.table_name), action, typeof row.changes === "string" ? row.changes : null, {
              label: (column) => label(column),
            }).map(changeLine);
            const how = row.source ? `<br>über ${escape(row.source)}` : "";
            return `<tr><td>${escape(formatDateTime(String(row.changed_on)))}</td><td>${escape(row.changed_by)}${how}</td><td>${escape(HISTORY_ACTION_LABELS[action] ?? "Geändert")}</td><td>${escape(recordLabel(row.table_name))} Nr. ${escape(row.record_id)}</td><td>${lines.map(escape).join("<br>")}</td></tr>`;
          })
          .join("")}</table>`;
  return `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Auskunft</title><style>
    body { font-family: sans-serif; font-size: 9pt; color: #0f172a; }
    h1 { font-size: 16pt; } h2 { font-size: 12pt; margin-top: 16pt; border-bottom: 1px solid #cbd5e1; }
    table { border-collapse: collapse; width: 100%; margin: 4pt 0 8pt; page-break-inside: avoid; }
    th, td { text-align: left; vertical-align: top; padding: 1pt 4pt; border-bottom: 1px solid #e2e8f0; word-break: break-word; }
    .record th { width: 30%; font-weight: normal; color: #475569; }
  </style></head><body>
  <h1>Auskunft nach Art. 15 DSGVO</h1>
  <p>über <strong>${escape(`${String(person.first_name ?? "")} ${String(person.last_name ?? "")}`.trim())}</strong>${clubName ? `, erteilt von ${escape(clubName)}` : ""}, Stand ${escape(formatDateTime(now))}.</p>
  <p>Diese Auskunft enthält alle Daten, die in Wuff zu dieser Person gespeichert sind: Stammdaten, Hunde, Kursteilnahmen und Anwesenheit, Erfolge, Posten, Rechnungen (die PDFs liegen bei), Zahlungen und Kontoauszug-Buchungen mit ihrer IBAN, SEPA-Mandate und Lastschriften (mit vollständiger IBAN), Mahnungen (die Schreiben liegen bei), gesendete Mails, Einträge im Papierkorb, die Einwilligungen und wer die Datensätze wann geändert hat. Dieselben Daten maschinenlesbar: auskunft.json.</p>
  ${sections}
  <h2>Einwilligungen (${data.consents.length})</h2>${consents}
  <h2>Änderungsverlauf (${data.changeHistory.length})</h2>${history}
  </body></html>`;
}

export type Auskunft = { fileName: string; zip: Uint8Array };

/** The zip of the person's Auskunft; undefined when there is no such person. */
export async function buildAuskunft(
  env: Pick<Env, "BROWSER" | "INVOICES" | "PAPERS">,
  db: Db,
  personId: number,
  clubName: string | null,
  now = new Date(),
): Promise<Auskunft | undefined> {
  const data = await personData(db, personId);
  if (!data) return undefined;
  const files: Zippable = {
    "auskunft.json": strToU8(JSON.stringify({ erstelltAm: now.toISOString(), personId, tables: data.tables, changeHistory: data.changeHistory }, null, 2)),
  };
  files["auskunft.pdf"] = await withPdfRenderer(env, (renderer) => renderer.render(auskunftHtml(data, clubName, now)));
  for (const invoice of data.tables.invoice_headers ?? []) {
    const path = invoice.pdf_file_path;
    if (typeof path !== "string") continue;
    const object = await env.INVOICES.get(path);
    if (object) files[`Rechnungen/${path}`] = new Uint8Array(await object.arrayBuffer());
  }
  for (const key of new Set((data.tables.reminders ?? []).map((reminder) => reminder.pdf_key))) {
    if (typeof key !== "string") continue;
    const object = await env.INVOICES.get(key);
    if (object) files[`Mahnungen/${key}`] = new Uint8Array(await object.arrayBuffer());
  }
  // The papers they uploaded in Mein Wuff, as they uploaded them (Art. 15 Abs. 3: a copy).
  for (const paper of data.tables.dog_papers ?? []) {
    const object = await env.PAPERS.get(String(paper.object_key));
    if (object) files[`Nachweise/${String(paper.id)}-${String(paper.file_name)}`] = new Uint8Array(await object.arrayBuffer());
  }
  const name = (value: unknown) => asciiFileNamePart(String(value ?? ""));
  return {
    fileName: `Auskunft-${name(data.person.last_name)}-${name(data.person.first_name)}-${todayInBerlin(now)}.zip`,
    zip: zipSync(files, { level: 6 }),
  };
}
