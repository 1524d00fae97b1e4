/**
 * Datenschutz (issue 16 items 1, 2, 5): what Wuff holds about a person (Auskunft, GDPR Art. 15),
 * the erasure that keeps the books (Art. 17 with §147 AO), the daily erasure of retained remains
 * whose period has ended, and the retention overview.
 *
 * Which records are the person's (SCOPES): every row with a foreign key to the person (dogs they
 * own, course participations, certifications, fees, invoices, mandates, courses they train), the
 * rows hanging off those that carry no person of their own (attendance of their participations,
 * rows of their invoices, certifications of their dogs without another person), and the ids
 * without a foreign key (mail_log.person_id, a trainer's calendar feed, Mollie payments and bank
 * statement entries of their fees and invoices, bank statement entries never booked that name
 * one of their IBANs, their records in the Papierkorb). A row that names another person (another
 * person's participation with their dog) is that person's.
 *
 * Retention (§ 147 AO, per kind: app/lib/retention.ts): the payment journal is a book (10 years),
 * invoices, fees, bank bookings, Lastschriften and Mollie payments are vouchers (8 years),
 * reminders are business letters (6 years), each from the end of its own calendar year (an
 * invoice of 2026: until 31.12.2034). Everything else is erased at once (a bank entry never
 * booked is anonymised), except a mandate with a pending debit (mandateKept) and a dog another
 * person's records still use. Erasure is one atomic batch; the person's change history
 * goes last, so the history the erasure itself writes goes too.
 */
import { sql } from "drizzle-orm";
import { inValues } from "~/db/columns";
import { erasedIbans } from "~/db/schema";
import { ABORT_UNLESS_CHANGED, runAtomically, writingAs, type Db, type Statement } from "~/db/client.server";
import { formatCount, formatDate, formatMoney } from "~/lib/format";
import { erasedIbanHash } from "~/lib/bank-statements.server";
import { JOB_TYPE_LABELS, jobTitle, type JobType } from "~/lib/jobs";
import { reminderPrintKey } from "~/lib/reminder-letter";
import { TABLE_LABELS } from "~/lib/labels";
import { RETENTION_KINDS, retentionEndSql, retentionReason, type RetentionKind } from "~/lib/retention";
import { isAbortedAsUnchanged } from "./constraints.server";
import type { Actor } from "./audit.server";
import { consentHistory, type ConsentEntry } from "./change-history.server";
import { CONSENT_LABELS, type ConsentKind } from "~/lib/consents";
import { DOG_PAPER_LABELS, type DogPaperKind } from "~/lib/dog-papers";
import { recordIdentifiers } from "./recycle-bin.server";

/** A person's records in one table: the SQL condition over the table (?1: the person's id). */
type Scope = { table: string; where: string; columns?: string };

const DOGS = "SELECT id FROM dogs WHERE owner_id = ?1";
const MEMBERSHIPS = "SELECT id FROM course_memberships WHERE person_id = ?1";
const INVOICES = "SELECT id FROM invoice_headers WHERE person_id = ?1";
const FEES = "SELECT id FROM fees WHERE person_id = ?1";
/** The IBANs the person pays or paid from: their mandates', those their direct debits collected
 *  from, and those an amendment named as the account before. */
const PERSON_IBANS =
  "SELECT upper(replace(iban, ' ', '')) FROM sepa_mandates WHERE person_id = ?1 UNION SELECT upper(replace(iban, ' ', '')) FROM direct_debit_items WHERE person_id = ?1 UNION SELECT original_iban FROM direct_debit_items WHERE person_id = ?1 AND original_iban IS NOT NULL";
/** A bank statement entry (alias) never booked whose counterparty IBAN is the person's: it names
 *  them (name, IBAN, remittance) without being a booking record; the erasure anonymises it. */
const UNBOOKED_NAMING_PERSON = (alias: string) => `(${alias}.status <> 'BOOKED' AND upper(replace(${alias}.counterparty_iban, ' ', '')) IN (${PERSON_IBANS}))`;

/** The runs whose items are people (all but PDFS, whose items are invoices): a failure of such a
 *  run names the person by its item id, and its message may hold their e-mail address (a mail
 *  server's refusal). */
const PERSON_ITEM_RUNS = "SELECT id FROM jobs WHERE type IN ('ANNUAL_FEES', 'INVOICES', 'MAILSHOT', 'DIRECT_DEBIT', 'REMINDERS')";

/** The withdrawals declared without signing in that are the person's: applied to their bookings,
 *  or given under their e-mail address (compared as Mein Wuff's sign-in does). */
const WITHDRAWALS_OF_PERSON = `course_membership_id IN (${MEMBERSHIPS}) OR email IN (SELECT lower(trim(email)) FROM people WHERE id = ?1)`;

/** The notices given with 'Verträge hier kündigen' that are the person's: applied to their Abos, or
 *  given under their e-mail address. */
const NOTICES_OF_PERSON = "card_id IN (SELECT id FROM cards WHERE person_id = ?1) OR email IN (SELECT lower(trim(email)) FROM people WHERE id = ?1)";

/** The text of a Kasse entry whose cash payment the erasure removed. */
const ERASED_CASH_TEXT = "Barzahlung (Angaben zur Person nach Ablauf der Aufbewahrungsfrist gelöscht)";

/** Every table that holds records of the person, and which of its rows (the Auskunft's order). */
export const SCOPES: readonly Scope[] = [
  { table: "people", where: "id = ?1" },
  { table: "dogs", where: "owner_id = ?1" },
  { table: "course_memberships", where: "person_id = ?1" },
  { table: "attendances", where: `course_membership_id IN (${MEMBERSHIPS})` },
  { table: "online_bookings", where: `course_membership_id IN (${MEMBERSHIPS})` },
  { table: "waitlist_offers", where: `course_membership_id IN (${MEMBERSHIPS})` },
  // Withdrawals declared without signing in: those applied to their bookings, and those given
  // under their e-mail address.
  { table: "withdrawal_declarations", where: WITHDRAWALS_OF_PERSON },
  // Karten & Abos (issue 34): what they bought, and what their attendance took from it.
  { table: "cards", where: "person_id = ?1" },
  { table: "card_fees", where: "card_id IN (SELECT id FROM cards WHERE person_id = ?1)" },
  { table: "card_uses", where: "card_id IN (SELECT id FROM cards WHERE person_id = ?1)" },
  { table: "card_refunds", where: "card_id IN (SELECT id FROM cards WHERE person_id = ?1)" },
  { table: "card_purchases", where: "card_id IN (SELECT id FROM cards WHERE person_id = ?1)" },
  { table: "notice_declarations", where: NOTICES_OF_PERSON },
  { table: "attendance_settlements", where: `attendance_id IN (SELECT id FROM attendances WHERE course_membership_id IN (${MEMBERSHIPS}))` },
  { table: "certifications", where: `person_id = ?1 OR (person_id IS NULL AND dog_id IN (${DOGS}))` },
  { table: "courses", where: "trainer_id = ?1 OR cotrainer_id = ?1" },
  // The feed's secret token is a credential of the club, not data about the person: left out.
  { table: "calendar_feeds", where: "kind = 'TRAINER' AND subject_id = ?1", columns: "id, kind, subject_id, created_by, created_on" },
  { table: "fees", where: "person_id = ?1" },
  { table: "invoice_headers", where: "person_id = ?1" },
  { table: "invoice_rows", where: `invoice_id IN (${INVOICES})` },
  { table: "mollie_payments", where: `fee_id IN (${FEES})` },
  // The payment journal (issue 30): their payments, and what paid their invoices and fees.
  { table: "payments", where: "person_id = ?1" },
  { table: "payment_allocations", where: `payment_id IN (SELECT id FROM payments WHERE person_id = ?1) OR invoice_id IN (${INVOICES}) OR fee_id IN (${FEES})` },
  // The Kassenbuch (issue 35 item 2): the entries of their cash payments.
  { table: "cash_entries", where: "payment_id IN (SELECT id FROM payments WHERE person_id = ?1)" },
  // Spenden (issue 35 item 5): their donations and the Zuwendungsbestätigungen issued to them.
  { table: "donations", where: "person_id = ?1" },
  { table: "donation_receipts", where: "person_id = ?1" },
  // Booked to their invoices and fees (bookkeeping), and those never booked that name their IBAN.
  {
    table: "bank_statement_entries",
    where: `(r.target_type = 'INVOICE' AND r.target_id IN (${INVOICES})) OR (r.target_type = 'FEE' AND r.target_id IN (${FEES})) OR ${UNBOOKED_NAMING_PERSON("r")}`,
  },
  { table: "sepa_mandates", where: "person_id = ?1" },
  // Mein Wuff (issue 32): consents with the version of their text, and the papers of their dogs.
  { table: "consents", where: "person_id = ?1" },
  { table: "dog_papers", where: `dog_id IN (${DOGS})` },
  // What a Lastschriftlauf collected from them (with the IBAN the file named, in full: it is theirs).
  { table: "direct_debit_items", where: "person_id = ?1" },
  // That (and how) a run announced its collections to them (the collections are the items).
  { table: "direct_debit_notices", where: "person_id = ?1" },
  { table: "reminders", where: "person_id = ?1" },
  { table: "mail_log", where: `person_id = ?1 OR invoice_header_id IN (${INVOICES}) OR fee_id IN (${FEES})` },
  { table: "deleted_records", where: binAboutPerson("r") },
  // Why a run failed for them (no id of its own: run and item are its key).
  { table: "job_failures", where: `item_id = ?1 AND job_id IN (${PERSON_ITEM_RUNS})`, columns: "job_id, item_id, message, attempts, last_attempt_on" },
];

/** Tables without an id column: not in the fingerprint, no change history. */
const WITHOUT_ID = new Set(["job_failures"]);

/** The condition of a table's scope (over the alias r). */
const scopeOf = (table: string) => SCOPES.find((scope) => scope.table === table)!.where;

/** Papierkorb rows (alias `r`) that are the person's records: the person, rows naming them, their
 *  dogs, the attendance of their participations, the rows of their invoices, a dog's
 *  certification without another person; each also when its parent is in the bin itself. */
function binAboutPerson(alias: string): string {
  const field = (name: string) => `json_extract(${alias}.json, '$[0].${name}')`;
  const binned = (table: string, condition: string) =>
    `SELECT json_extract(b.json, '$[0].id') FROM deleted_records b WHERE b.table_name = '${table}' AND ${condition}`;
  return `(${alias}.table_name = 'people' AND ${field("id")} = ?1)
    OR (${alias}.table_name <> 'courses' AND ${field("person_id")} = ?1)
    OR (${alias}.table_name = 'dogs' AND ${field("owner_id")} = ?1)
    OR (${alias}.table_name = 'attendances' AND (${field("course_membership_id")} IN (${MEMBERSHIPS}) OR ${field("course_membership_id")} IN (${binned("course_memberships", "json_extract(b.json, '$[0].person_id') = ?1")})))
    OR (${alias}.table_name = 'invoice_rows' AND (${field("invoice_id")} IN (${INVOICES}) OR ${field("invoice_id")} IN (${binned("invoice_headers", "json_extract(b.json, '$[0].person_id') = ?1")})))
    OR (${alias}.table_name = 'certifications' AND ${field("person_id")} IS NULL AND (${field("dog_id")} IN (${DOGS}) OR ${field("dog_id")} IN (${binned("dogs", "json_extract(b.json, '$[0].owner_id') = ?1")})))`;
}

/** The tables whose rows carry their own change history (all but the logs themselves). */
const HISTORY_TABLES = new Set(
  SCOPES.map((scope) => scope.table).filter((table) => table !== "deleted_records" && table !== "change_history" && !WITHOUT_ID.has(table)),
);

/** A pending debit of the person (`person`: SQL of their id): an open fee collected directly (not
 *  by invoice), or a fee in a Lastschriftlauf whose file has not gone to the bank yet (PREPARED: it
 *  may still be submitted or cancelled). `leaving`: SQL list of fee ids that go in the same step
 *  (the cron's expired fees), which keep nothing. */
const pendingDebit = (person: string, leaving?: string) => {
  const except = (column: string) => (leaving ? ` AND ${column} NOT IN (${leaving})` : "");
  return `(EXISTS (SELECT 1 FROM fees pf WHERE pf.person_id = ${person} AND pf.open_amount > 0 AND pf.send_invoice = 0${except("pf.id")})
  OR EXISTS (SELECT 1 FROM direct_debit_items di JOIN direct_debit_runs dr ON dr.id = di.run_id WHERE di.person_id = ${person} AND di.cancelled_on IS NULL AND dr.status = 'PREPARED'${except("di.fee_id")}))`;
};
const PENDING_DEBIT = pendingDebit("?1");

/** The one rule that keeps a mandate (alias `mandate`) of an erased person: it is active and a
 *  debit is pending. The erasure's plan and the daily cron both use it. */
const mandateKept = (mandate: string, leaving?: string) => `(${mandate}.is_active = 1 AND ${pendingDebit(`${mandate}.person_id`, leaving)})`;

const one = (db: Db, query: string, ...params: unknown[]) => db.$client.prepare(query).bind(...params);

type Row = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Auskunft (Art. 15)

export type PersonData = {
  person: Row;
  /** When the consent (has_gdpr) was given or withdrawn, by whom and how, newest first. */
  consents: ConsentEntry[];
  /** Every row of every table that holds records of the person, by SQL table name, as stored. */
  tables: Record<string, Row[]>;
  /** The change history of those records (who changed them when, from what to what). */
  changeHistory: Row[];
};

/** Everything Wuff holds about the person; undefined when there is no such person. */
export async function personData(db: Db, personId: number): Promise<PersonData | undefined> {
  const results = await db.$client.batch(
    SCOPES.map((scope) => one(db, `SELECT ${scope.columns ?? "*"} FROM ${scope.table} r WHERE ${scope.where} ORDER BY 1`, personId)),
  );
  const tables = Object.fromEntries(SCOPES.map((scope, index) => [scope.table, (results[index].results ?? []) as Row[]]));
  const [person] = tables.people;
  if (!person) return undefined;
  const keys = Object.entries(tables).flatMap(([table, rows]) => (HISTORY_TABLES.has(table) ? rows.map((row) => `${table}:${String(row.id)}`) : []));
  const history = await one(
    db,
    "SELECT * FROM change_history WHERE (table_name || ':' || record_id) IN (SELECT value FROM json_each(?1)) ORDER BY id",
    JSON.stringify(keys),
  ).all<Row>();
  return { person, tables, changeHistory: history.results ?? [], consents: await consentHistory(db, personId) };
}

// ---------------------------------------------------------------------------------------------
// Erasure (Art. 17)

/** The tables an erasure plan names (the preview has a German heading for each). */
export const PLAN_TABLES = [
  "dogs",
  "dog_papers",
  "consents",
  "course_memberships",
  "attendances",
  "certifications",
  "sepa_mandates",
  "mail_log",
  "calendar_feeds",
  "deleted_records",
  "courses",
  "invoice_headers",
  "fees",
  "reminders",
  "payments",
  "mollie_payments",
  "bank_statement_entries",
  "direct_debit_items",
  "job_failures",
] as const;
export type PlanTable = (typeof PLAN_TABLES)[number];

/** One record (or, with id 0, a counted group) the plan erases or keeps; `binned`: the record a
 *  Papierkorb entry holds (its change history goes with the entry). */
type PlanItem = { table: PlanTable; id: number; label: string; binned?: { table: string; id: number } };
type RetainedItem = PlanItem & { reason: string; until: string | null };

export type ErasurePlan = {
  person: { id: number; firstName: string; lastName: string; fullName: string; rowVersion: number; erasedOn: string | null; retainedUntil: string | null };
  /** What goes now, by table (labels in German). */
  erase: PlanItem[];
  /** What stays, why, and until when. */
  retain: RetainedItem[];
  /** Nothing is retained: the person row itself goes. */
  deletePerson: boolean;
  /** The last day a retained record is kept (null: only a mandate or a dog, no period). */
  retainedUntil: string | null;
  /** The state the plan was made from: an erasure refuses to run when it differs. */
  fingerprint: string;
  /** The files (R2 bucket PAPERS) of the dog papers and online mandates that go: removed once the erasure is done. */
  paperKeys: string[];
};

const ERASED_NAME = "Gelöschte Person";
export const ERASURE_CHANGED = "Die Person oder ihre Daten wurden seit der Vorschau geändert. Bitte die Vorschau erneut prüfen.";
export const RUN_UNDER_WAY = (title: string) => `Ein Massenlauf mit dieser Person läuft gerade (${title}). Bitte nach seinem Ende löschen.`;
/** A run under way (QUEUED, RUNNING) whose items (people) include ?1: its slices are cut from
 *  `items` by position, so the person's id cannot be taken out until it has finished. */
const ACTIVE_RUN_WITH_PERSON = `SELECT id, type FROM jobs WHERE status IN ('QUEUED', 'RUNNING') AND id IN (${PERSON_ITEM_RUNS})
  AND EXISTS (SELECT 1 FROM json_each(jobs.items) WHERE value = ?1)`;
export const ALREADY_ERASED = "Diese Person wurde bereits gelöscht (DSGVO); nur die aufzubewahrenden Buchungsbelege sind noch da.";

/** What an anonymised bank statement entry says instead of its payer. */
export const ANONYMISED_NOTE = "Zahler anonymisiert (DSGVO-Löschung)";

/** The state an erasure is planned from, as one SQL value: the person's version and every id the
 *  plan names (a change in between makes the erasure refuse). */
const FINGERPRINT_SQL = `json_array((SELECT row_version FROM people WHERE id = ?1 AND erased_on IS NULL),
  ${SCOPES.filter((scope) => scope.table !== "mollie_payments" && !WITHOUT_ID.has(scope.table))
    .map((scope) => `(SELECT group_concat(id) FROM (SELECT r.id FROM ${scope.table} r WHERE ${scope.where} ORDER BY r.id))`)
    .join(",\n  ")},
  ${PENDING_DEBIT})`;

/** What erasing the person would do; undefined when there is no such person. */
export async function erasurePlan(db: Db, personId: number): Promise<ErasurePlan | undefined> {
  const p = personId;
  const [
    people,
    dogs,
    memberships,
    attendances,
    certifications,
    courses,
    feeds,
    fees,
    invoices,
    mandates,
    mails,
    bin,
    payments,
    bankEntries,
    debits,
    reminderCount,
    journal,
    failures,
    consentRows,
    papers,
    fingerprint,
  ] = (
    await db.$client.batch([
      one(
        db,
        "SELECT id, first_name AS firstName, last_name AS lastName, full_name AS fullName, row_version AS rowVersion, erased_on AS erasedOn, retained_until AS retainedUntil FROM people WHERE id = ?1",
        p,
      ),
      one(
        db,
        `SELECT d.id, d.common_name AS name, (EXISTS (SELECT 1 FROM course_memberships m WHERE m.dog_id = d.id AND m.person_id <> ?1) OR EXISTS (SELECT 1 FROM certifications c WHERE c.dog_id = d.id AND c.person_id IS NOT NULL AND c.person_id <> ?1)) AS usedByOthers FROM dogs d WHERE d.owner_id = ?1 ORDER BY d.id`,
        p,
      ),
      one(
        db,
        "SELECT m.id, c.name AS course, d.common_name AS dog FROM course_memberships m JOIN courses c ON c.id = m.course_id JOIN dogs d ON d.id = m.dog_id WHERE m.person_id = ?1 ORDER BY m.id",
        p,
      ),
      one(db, `SELECT id FROM attendances WHERE course_membership_id IN (${MEMBERSHIPS}) ORDER BY id`, p),
      one(
        db,
        `SELECT c.id, m.name, c.date, c.dog_id AS dogId, c.person_id AS personId FROM certifications c JOIN certification_masters m ON m.id = c.certification_master_id WHERE c.person_id = ?1 OR (c.person_id IS NULL AND c.dog_id IN (${DOGS})) ORDER BY c.id`,
        p,
      ),
      one(db, "SELECT id, name FROM courses WHERE trainer_id = ?1 OR cotrainer_id = ?1 ORDER BY id", p),
      one(db, "SELECT id FROM calendar_feeds WHERE kind = 'TRAINER' AND subject_id = ?1", p),
      one(db, `SELECT id, date, text, amount, ${retentionEndSql("date", "vouchers")} AS until FROM fees WHERE person_id = ?1 ORDER BY date, id`, p),
      one(
        db,
        `SELECT id, invoice_number AS invoiceNumber, date, ${retentionEndSql("date", "vouchers")} AS until FROM invoice_headers WHERE person_id = ?1 ORDER BY date, id`,
        p,
      ),
      one(
        db,
        `SELECT s.id, s.reference, s.is_active AS isActive, s.document_key AS documentKey, ${mandateKept("s")} AS pending FROM sepa_mandates s WHERE s.person_id = ?1 ORDER BY s.id`,
        p,
      ),
      one(db, `SELECT id, subject, created_on AS createdOn FROM mail_log r WHERE ${scopeOf("mail_log")} ORDER BY id`, p),
      one(
        db,
        `SELECT r.id, r.table_name AS tableName, json_extract(r.json, '$[0].id') AS recordId, r.identifier1, r.identifier2, r.identifier3 FROM deleted_records r WHERE ${binAboutPerson("r")} ORDER BY r.id`,
        p,
      ),
      one(db, `SELECT count(*) AS n, max(${retentionEndSql("processed_on", "vouchers")}) AS until FROM mollie_payments WHERE fee_id IN (${FEES})`, p),
      one(
        db,
        `SELECT r.id, coalesce(r.booking_date, r.value_date) AS date, r.amount, ${UNBOOKED_NAMING_PERSON("r")} AS anonymise,
          ${retentionEndSql("coalesce(r.booking_date, r.value_date)", "vouchers")} AS until FROM bank_statement_entries r WHERE ${scopeOf("bank_statement_entries")} ORDER BY r.id`,
        p,
      ),
      one(db, `SELECT count(*) AS n, max(${retentionEndSql("collection_date", "vouchers")}) AS until FROM direct_debit_items WHERE person_id = ?1`, p),
      one(db, `SELECT count(*) AS n, max(${retentionEndSql("date", "letters")}) AS until FROM reminders WHERE person_id = ?1`, p),
      one(db, `SELECT count(*) AS n, max(${retentionEndSql("date", "books")}) AS until FROM payments WHERE person_id = ?1`, p),
      one(db, `SELECT r.job_id AS jobId, j.type FROM job_failures r JOIN jobs j ON j.id = r.job_id WHERE ${scopeOf("job_failures")} ORDER BY r.job_id`, p),
      one(db, "SELECT r.id, r.kind, r.given_on AS givenOn FROM consents r WHERE person_id = ?1 ORDER BY r.id", p),
      one(
        db,
        `SELECT r.id, r.kind, r.object_key AS objectKey, d.common_name AS dog FROM dog_papers r JOIN dogs d ON d.id = r.dog_id WHERE ${scopeOf("dog_papers")} ORDER BY r.id`,
        p,
      ),
      one(db, `SELECT ${FINGERPRINT_SQL} AS fingerprint`, p),
    ])
  ).map((result) => (result.results ?? []) as Row[]);
  const [person] = people as ErasurePlan["person"][];
  if (!person) return undefined;

  const erase: PlanItem[] = [];
  const retain: RetainedItem[] = [];
  const keptDogs = new Set<number>();
  for (const dog of dogs) {
    if (dog.usedByOthers) {
      keptDogs.add(Number(dog.id));
      retain.push({
        table: "dogs",
        id: Number(dog.id),
        label: `Hund ${String(dog.name)}`,
        reason: "gehört zu Kursteilnahmen oder Erfolgen anderer Personen",
        until: null,
      });
    }
  }
  for (const row of memberships)
    erase.push({ table: "course_memberships", id: Number(row.id), label: `Kursteilnahme ${String(row.course)} mit ${String(row.dog)}` });
  for (const row of attendances) erase.push({ table: "attendances", id: Number(row.id), label: "Anwesenheit an einem Kurstermin" });
  for (const row of certifications) {
    if (row.personId === null && keptDogs.has(Number(row.dogId)))
      retain.push({ table: "certifications", id: Number(row.id), label: `Erfolg ${String(row.name)}`, reason: "Erfolg eines Hundes, der bleibt", until: null });
    else erase.push({ table: "certifications", id: Number(row.id), label: `Erfolg ${String(row.name)}${row.date ? ` vom ${String(row.date)}` : ""}` });
  }
  for (const dog of dogs) if (!keptDogs.has(Number(dog.id))) erase.push({ table: "dogs", id: Number(dog.id), label: `Hund ${String(dog.name)}` });
  for (const row of mandates) {
    if (row.pending)
      retain.push({
        table: "sepa_mandates",
        id: Number(row.id),
        label: `SEPA-Mandat ${String(row.reference)}`,
        reason:
          "eine Lastschrift steht noch aus (offener Posten ohne Rechnung oder ein noch nicht übergebener Lastschriftlauf); es wird gelöscht, sobald nichts mehr aussteht",
        until: null,
      });
    else erase.push({ table: "sepa_mandates", id: Number(row.id), label: `SEPA-Mandat ${String(row.reference)}` });
  }
  for (const row of mails) erase.push({ table: "mail_log", id: Number(row.id), label: `Mail „${String(row.subject)}“` });
  for (const row of feeds) erase.push({ table: "calendar_feeds", id: Number(row.id), label: "Kalender-Abo als Trainer" });
  for (const row of consentRows)
    erase.push({
      table: "consents",
      id: Number(row.id),
      label: `Einwilligung ${CONSENT_LABELS[row.kind as ConsentKind] ?? String(row.kind)} vom ${formatDate(String(row.givenOn).slice(0, 10))}`,
    });
  // A dog's papers go even when the dog stays for others: they are the owner's (their insurance).
  for (const row of papers)
    erase.push({
      table: "dog_papers",
      id: Number(row.id),
      label: `${DOG_PAPER_LABELS[row.kind as DogPaperKind] ?? "Nachweis"} für ${String(row.dog)} (Datei)`,
    });
  for (const row of failures) {
    erase.push({
      table: "job_failures",
      id: Number(row.jobId),
      label: `Fehlermeldung im Lauf ${String(row.jobId)} (${JOB_TYPE_LABELS[row.type as JobType] ?? String(row.type)}), der Name auch in der Meldung des Laufs`,
    });
  }
  for (const row of bin) {
    const identifiers = recordIdentifiers({
      identifier1: row.identifier1 as string | null,
      identifier2: row.identifier2 as string | null,
      identifier3: row.identifier3 as string | null,
    });
    const what = `${TABLE_LABELS[String(row.tableName)] ?? "Datensatz"} ${identifiers ? `„${identifiers}“` : `Nr. ${String(row.recordId)}`}`;
    erase.push({
      table: "deleted_records",
      id: Number(row.id),
      label: `Papierkorb: ${what}`,
      binned: { table: String(row.tableName), id: Number(row.recordId) },
    });
  }
  // Bookings never booked that name the person (their IBAN): not bookkeeping; the payer's name,
  // IBAN and remittance go, the amount and date stay (a re-import still finds the booking).
  for (const row of bankEntries.filter((entry) => entry.anonymise)) {
    erase.push({
      table: "bank_statement_entries",
      id: Number(row.id),
      label: `Kontoauszug-Buchung${row.date ? ` vom ${formatDate(String(row.date))}` : ""} über ${formatMoney(Number(row.amount))} (nicht gebucht): Name, IBAN und Verwendungszweck`,
    });
  }
  for (const row of courses)
    retain.push({
      table: "courses",
      id: Number(row.id),
      label: `Kurs ${String(row.name)}`,
      reason: "der Kurs bleibt, nur die Person wird als Trainer ausgetragen",
      until: null,
    });
  for (const row of invoices)
    retain.push({
      table: "invoice_headers",
      id: Number(row.id),
      label: `Rechnung ${String(row.invoiceNumber)} vom ${formatDate(String(row.date))} (mit Positionen und PDF, Name und Anschrift wie ausgestellt)`,
      reason: retentionReason("vouchers"),
      until: String(row.until),
    });
  for (const row of fees)
    retain.push({
      table: "fees",
      id: Number(row.id),
      label: `Posten „${String(row.text)}“ vom ${formatDate(String(row.date))}`,
      reason: retentionReason("vouchers"),
      until: String(row.until),
    });
  // What belongs to those invoices and fees, counted, each kind kept until the last of its own
  // period (a record a kept record still names stays with it: eraseExpiredRemains).
  const booked = bankEntries.filter((entry) => !entry.anonymise);
  const latest = (values: unknown[]) =>
    values.filter((value): value is string => typeof value === "string").reduce<string | null>((a, b) => (a && a > b ? a : b), null);
  const counted: [PlanTable, Row | undefined, RetentionKind, string, string][] = [
    ["reminders", reminderCount[0], "letters", "Mahnung (mit Mahnschreiben)", "Mahnungen (mit Mahnschreiben)"],
    ["payments", journal[0], "books", "Buchung im Zahlungsjournal", "Buchungen im Zahlungsjournal"],
    ["mollie_payments", payments[0], "vouchers", "Online-Zahlung (Mollie)", "Online-Zahlungen (Mollie)"],
    [
      "bank_statement_entries",
      { n: booked.length, until: latest(booked.map((entry) => entry.until)) },
      "vouchers",
      "Zahlungseingang aus dem Kontoauszug (Name und IBAN des Zahlers)",
      "Zahlungseingänge aus dem Kontoauszug (Name und IBAN des Zahlers)",
    ],
    ["direct_debit_items", debits[0], "vouchers", "Lastschrift (mit Kontoinhaber und IBAN)", "Lastschriften (mit Kontoinhaber und IBAN)"],
  ];
  for (const [table, row, kind, singular, plural] of counted) {
    const n = Number(row?.n ?? 0);
    if (n > 0)
      retain.push({
        table,
        id: 0,
        label: `${formatCount(n, singular, plural)} zu diesen Posten und Rechnungen`,
        reason: retentionReason(kind),
        until: latest([row?.until]),
      });
  }

  const untils = retain.map((item) => item.until).filter((until): until is string => until !== null);
  const retainedUntil = untils.length > 0 ? untils.reduce((a, b) => (a > b ? a : b)) : null;
  const deletePerson =
    fees.length === 0 &&
    invoices.length === 0 &&
    keptDogs.size === 0 &&
    !mandates.some((row) => row.pending) &&
    counted.every(([table, row]) => table === "bank_statement_entries" || Number(row?.n ?? 0) === 0);
  return {
    person: { ...person, rowVersion: Number(person.rowVersion) },
    erase,
    retain,
    deletePerson,
    retainedUntil,
    fingerprint: String(fingerprint[0]?.fingerprint ?? ""),
    paperKeys: [
      ...papers.map((row) => String(row.objectKey)),
      ...mandates.filter((row) => !row.pending && row.documentKey).map((row) => String(row.documentKey)),
    ],
  };
}

/** The stored PDFs of these mandates (given online). */
async function mandateDocumentKeys(db: Db, mandateIds: readonly number[]): Promise<string[]> {
  if (mandateIds.length === 0) return [];
  const { results } = await db.$client
    .prepare("SELECT document_key AS documentKey FROM sepa_mandates WHERE document_key IS NOT NULL AND id IN (SELECT value FROM json_each(?1))")
    .bind(JSON.stringify(mandateIds))
    .all<{ documentKey: string }>();
  return results.map((row) => row.documentKey);
}

/**
 * Which of these IBANs (as a statement names them) belong to erased people: a booking imported
 * from one is stored without the payer's name, IBAN and remittance and linked to no one.
 */
export async function erasedIbansAmong(db: Db, ibans: readonly (string | null)[]): Promise<Set<string>> {
  const distinct = [...new Set(ibans.filter((iban): iban is string => !!iban?.trim()))];
  if (distinct.length === 0) return new Set();
  const hashes = await Promise.all(distinct.map(async (iban) => [iban, await erasedIbanHash(iban)] as const));
  const found = await db
    .select({ hash: erasedIbans.ibanHash })
    .from(erasedIbans)
    .where(
      inValues(
        erasedIbans.ibanHash,
        hashes.map(([, hash]) => hash),
      ),
    );
  const erased = new Set(found.map((row) => row.hash));
  return new Set(hashes.filter(([, hash]) => erased.has(hash)).map(([iban]) => iban));
}

/** The name the user must type to confirm: the person's full name, compared without case and
 *  surrounding or doubled spaces. */
export const confirmationMatches = (plan: ErasurePlan, typed: string) =>
  typed.trim().replace(/\s+/g, " ").toLowerCase() === plan.person.fullName.trim().replace(/\s+/g, " ").toLowerCase();

export type ErasureOutcome =
  { status: "erased"; deleted: boolean; erased: number; retained: number } | { status: "refused"; message: string } | { status: "missing" };

const ids = (plan: ErasurePlan, table: string) => JSON.stringify(plan.erase.filter((item) => item.table === table).map((item) => item.id));
const IN_IDS = "id IN (SELECT value FROM json_each(?2))";

/**
 * Erases the person as planned, in one atomic batch: first a check that nothing changed since the
 * plan (`fingerprint`, which the preview showed), then the invoices get the name and address they
 * were issued to, then the records go (Papierkorb entries too), the person is pseudonymised or
 * deleted, and last the change history of every erased or changed record of the person.
 */
export async function erasePerson(db: Db, plan: ErasurePlan, fingerprint: string, actor: Actor, now = new Date()): Promise<ErasureOutcome> {
  if (plan.person.erasedOn) return { status: "refused", message: ALREADY_ERASED };
  if (plan.fingerprint !== fingerprint) return { status: "refused", message: ERASURE_CHANGED };
  const p = plan.person.id;
  const running = await one(db, ACTIVE_RUN_WITH_PERSON, p).first<{ id: number; type: string }>();
  if (running) return { status: "refused", message: RUN_UNDER_WAY(jobTitle({ type: running.type, year: null })) };
  // Their IBANs, only as hashes: a statement imported later does not bring the payer back (docs/gdpr.md).
  const ibans = (await one(db, PERSON_IBANS, p).raw<[string | null]>()).flatMap(([iban]) => (iban ? [iban] : []));
  const ibanHashes = JSON.stringify(await Promise.all(ibans.map(erasedIbanHash)));
  const at = now.toISOString();
  const today = at.slice(0, 10);
  const statement = (query: string, ...params: unknown[]): Statement => ({ sql: query, params: [p, ...params] });
  const erase = (table: string) => statement(`DELETE FROM ${table} WHERE ${IN_IDS}`, ids(plan, table));
  const changed = (table: string) =>
    statement(`DELETE FROM change_history WHERE table_name = '${table}' AND record_id IN (SELECT value FROM json_each(?2))`, ids(plan, table));
  const statements: Statement[] = [
    // Nothing changed since the plan (the same query the plan read): else the batch stops here.
    statement(`UPDATE people SET row_version = row_version WHERE id = ?1 AND ${FINGERPRINT_SQL} IS ?2 AND NOT EXISTS (${ACTIVE_RUN_WITH_PERSON})`, fingerprint),
    ABORT_UNLESS_CHANGED,
    statement(`UPDATE invoice_headers SET (issued_salutation, issued_title, issued_first_name, issued_last_name, issued_street_number, issued_zip, issued_city) =
      (SELECT salutation, title, first_name, last_name, street_number, zip, city FROM people WHERE id = ?1)
      WHERE person_id = ?1 AND issued_last_name IS NULL`),
    erase("deleted_records"),
    // Their card uses go before the attendance they name; the cards and their links to fees
    // after (the fees themselves are bookkeeping and stay).
    statement(
      "DELETE FROM card_uses WHERE card_id IN (SELECT id FROM cards WHERE person_id = ?1) OR attendance_id IN (SELECT value FROM json_each(?2))",
      ids(plan, "attendances"),
    ),
    erase("attendance_settlements"),
    erase("attendances"),
    statement("DELETE FROM card_refunds WHERE card_id IN (SELECT id FROM cards WHERE person_id = ?1)"),
    // The evidence of their online purchases and their notices (with the address sent from) go with them.
    statement("DELETE FROM card_purchases WHERE card_id IN (SELECT id FROM cards WHERE person_id = ?1)"),
    statement(`DELETE FROM notice_declarations WHERE ${NOTICES_OF_PERSON}`),
    statement("DELETE FROM card_fees WHERE card_id IN (SELECT id FROM cards WHERE person_id = ?1)"),
    statement("DELETE FROM cards WHERE person_id = ?1"),
    statement(`UPDATE fees SET course_membership_id = NULL WHERE course_membership_id IN (SELECT value FROM json_each(?2))`, ids(plan, "course_memberships")),
    // The evidence of their online bookings (with the address they booked from) goes with them.
    statement("DELETE FROM online_bookings WHERE course_membership_id IN (SELECT value FROM json_each(?2))", ids(plan, "course_memberships")),
    statement("DELETE FROM waitlist_offers WHERE course_membership_id IN (SELECT value FROM json_each(?2))", ids(plan, "course_memberships")),
    // Withdrawals declared without signing in, applied to their bookings or under their address.
    statement(`DELETE FROM withdrawal_declarations WHERE ${WITHDRAWALS_OF_PERSON}`),
    erase("course_memberships"),
    erase("certifications"),
    erase("dog_papers"),
    erase("consents"),
    erase("dogs"),
    // Mandates given online: the requests nobody confirmed, and those of the mandates that go.
    statement(
      "DELETE FROM portal_mandate_requests WHERE person_id = ?1 AND (mandate_id IS NULL OR mandate_id IN (SELECT value FROM json_each(?2)))",
      ids(plan, "sepa_mandates"),
    ),
    erase("sepa_mandates"),
    erase("mail_log"),
    // How their pre-notifications went out: what they announced stays in the items (retained).
    statement("DELETE FROM direct_debit_notices WHERE person_id = ?1"),
    erase("calendar_feeds"),
    // Mein Wuff: sessions and unused sign-in links of the address (a family's too: they sign in again).
    statement("DELETE FROM portal_sessions WHERE person_id = ?1 OR email = (SELECT lower(trim(email)) FROM people WHERE id = ?1)"),
    statement("DELETE FROM portal_calendar_feeds WHERE person_id = ?1"),
    // The application that made them a member (and any other of their address still waiting).
    statement("DELETE FROM membership_applications WHERE person_id = ?1 OR email = (SELECT lower(trim(email)) FROM people WHERE id = ?1)"),
    statement(
      "UPDATE portal_sign_in_requests SET email = NULL, token_hash = NULL, browser_hash = NULL WHERE email = (SELECT lower(trim(email)) FROM people WHERE id = ?1)",
    ),
    // A failed run names the person in its message ('Erika Muster (keine E-Mail-Adresse)'): the
    // name goes there too, then the failures themselves.
    statement(
      `UPDATE jobs SET message = replace(message, (SELECT full_name FROM people WHERE id = ?1), ?2)
        WHERE id IN (SELECT job_id FROM job_failures WHERE ${scopeOf("job_failures")}) AND (SELECT full_name FROM people WHERE id = ?1) <> ''`,
      ERASED_NAME,
    ),
    statement(`DELETE FROM job_failures WHERE ${scopeOf("job_failures")}`),
    // The items of finished runs over people: the person's id goes (the counts stay).
    statement(
      `UPDATE jobs SET items = (SELECT json_group_array(value) FROM (SELECT value FROM json_each(jobs.items) WHERE value <> ?1 ORDER BY key))
        WHERE id IN (${PERSON_ITEM_RUNS}) AND status NOT IN ('QUEUED', 'RUNNING') AND EXISTS (SELECT 1 FROM json_each(jobs.items) WHERE value = ?1)`,
    ),
    statement(`INSERT INTO erased_ibans (iban_hash, erased_on) SELECT value, ?3 FROM json_each(?2) WHERE true ON CONFLICT DO NOTHING`, ibanHashes, today),
    statement(
      `UPDATE bank_statement_entries SET counterparty_name = NULL, counterparty_iban = NULL, remittance = '', note = ?3 WHERE ${IN_IDS} AND status <> 'BOOKED'`,
      ids(plan, "bank_statement_entries"),
      ANONYMISED_NOTE,
    ),
    statement(
      `UPDATE courses SET trainer_id = CASE WHEN trainer_id = ?1 THEN NULL ELSE trainer_id END, cotrainer_id = CASE WHEN cotrainer_id = ?1 THEN NULL ELSE cotrainer_id END,
      last_modified_by = ?2, last_modified_on = ?3, row_version = row_version + 1 WHERE trainer_id = ?1 OR cotrainer_id = ?1`,
      actor.name,
      at,
    ),
    plan.deletePerson
      ? statement("DELETE FROM people WHERE id = ?1")
      : statement(
          `UPDATE people SET salutation = NULL, title = NULL, first_name = '', last_name = ?2, street_number = NULL, zip = NULL, city = NULL, email = NULL,
            home_phone = NULL, mobile_phone = NULL, date_of_birth = NULL, is_member = 0, member_since = NULL, member_until = NULL, membership_status_id = NULL,
            hsvrm_nr = NULL, is_vorstand = 0, is_trainer = 0, has_gdpr = 0, has_insurance = 0, comments = NULL, erased_on = ?3, retained_until = ?4,
            last_modified_by = ?5, last_modified_on = ?6, row_version = row_version + 1 WHERE id = ?1`,
          ERASED_NAME,
          today,
          plan.retainedUntil ?? today,
          actor.name,
          at,
        ),
    // Last: the history of every erased or pseudonymised record, including what this batch wrote.
    statement("DELETE FROM change_history WHERE table_name = 'people' AND record_id = ?1"),
    ...[
      "attendances",
      "course_memberships",
      "certifications",
      "dog_papers",
      "consents",
      "dogs",
      "sepa_mandates",
      "mail_log",
      "calendar_feeds",
      "deleted_records",
    ].map(changed),
    ...binnedHistory(plan),
  ];
  try {
    // ERASE: the history triggers write nothing (their rows would keep what is erased).
    await writingAs(db, "ERASE", () => runAtomically(db, statements));
  } catch (error) {
    if (isAbortedAsUnchanged(error)) return { status: "refused", message: ERASURE_CHANGED };
    throw error;
  }
  return { status: "erased", deleted: plan.deletePerson, erased: plan.erase.length, retained: plan.retain.length };
}

/** The history of records that were in the Papierkorb (erased with their bin entries). */
function binnedHistory(plan: ErasurePlan): Statement[] {
  const byTable = new Map<string, number[]>();
  for (const item of plan.erase) {
    if (item.binned) byTable.set(item.binned.table, [...(byTable.get(item.binned.table) ?? []), item.binned.id]);
  }
  return [...byTable].map(([table, recordIds]) => ({
    sql: "DELETE FROM change_history WHERE table_name = ?1 AND record_id IN (SELECT value FROM json_each(?2))",
    params: [table, JSON.stringify(recordIds)],
  }));
}

// ---------------------------------------------------------------------------------------------
// The daily cron: retained remains whose period has ended

export type ExpiredRemains = {
  /** Journal entries (books, 10 years) with their allocations. */
  paymentIds: number[];
  /** Reminders (business letters, 6 years). */
  reminderIds: number[];
  /** The letters (R2) of those reminders that no remaining reminder shares, and the print PDFs of their runs. */
  reminderPdfKeys: string[];
  /** Invoices (vouchers, 8 years) that go whole, with their rows. */
  invoiceIds: number[];
  /** Invoices past their period that a kept record still names (a journal allocation, a correction,
   *  a reminder): their rows, PDF and recipient go, the bare header (number, date, amount) stays. */
  strippedInvoiceIds: number[];
  invoiceRowIds: number[];
  /** The PDFs in R2 of the invoices that went or were stripped. */
  pdfPaths: string[];
  /** Bank statement entries booked to (or matched with) their invoices and fees: payer's name and IBAN. */
  bankEntryIds: number[];
  debitItemIds: number[];
  molliePaymentIds: string[];
  feeIds: number[];
  /** Zuwendungsbestätigungen past their ten years (§ 50 Abs. 7 EStDV) that no kept donation names, and their PDFs (R2). */
  receiptIds: number[];
  receiptPdfKeys: string[];
  mandateIds: number[];
  personIds: number[];
};

/**
 * What of erased people's retained records has expired by `today` (and can go), each kind by its
 * own period (app/lib/retention.ts) from its own date, and nothing that a record still kept names:
 * a counter-entry keeps the entry it undoes, an entry that paid someone else's invoice or fee (a
 * parent for a child) stays with that record's books, a kept allocation, correction or reminder keeps its
 * invoice (as a bare header) and fee, a kept Lastschrift, Mollie payment or invoice row keeps its
 * fee. Read step by step (D1 limits the depth of one expression): the journal, reminders,
 * invoices, the vouchers of payments, fees, mandates, people.
 */
async function expiredRemains(db: Db, today: string): Promise<ExpiredRemains> {
  const ERASED = "SELECT id FROM people WHERE erased_on IS NOT NULL";
  const rows = async (query: string, ...params: unknown[]) => (await one(db, query, ...params).all<Row>()).results ?? [];
  const ids = (list: Row[]) => list.map((row) => Number(row.id));
  const gone = (n: number) => `SELECT value FROM json_each(?${n})`;
  const payments = ids(
    await rows(
      `SELECT p.id FROM payments p WHERE p.person_id IN (${ERASED}) AND ${retentionEndSql("p.date", "books")} < ?1
        AND NOT EXISTS (SELECT 1 FROM payments r WHERE r.reverses_payment_id = p.id AND ${retentionEndSql("r.date", "books")} >= ?1)
        AND NOT EXISTS (SELECT 1 FROM payment_allocations a LEFT JOIN invoice_headers i ON i.id = a.invoice_id LEFT JOIN fees f ON f.id = a.fee_id
          WHERE a.payment_id = p.id AND coalesce(i.person_id, f.person_id) NOT IN (${ERASED})) ORDER BY p.id`,
      today,
    ),
  );
  const reminders = ids(
    await rows(`SELECT id FROM reminders WHERE person_id IN (${ERASED}) AND ${retentionEndSql("date", "letters")} < ?1 ORDER BY id`, today),
  );
  const paymentList = JSON.stringify(payments);
  const reminderList = JSON.stringify(reminders);
  // An allocation, correction or reminder that stays names the invoice: it stays as a bare header.
  const invoices = await rows(
    `SELECT i.id, i.pdf_file_path AS path,
        EXISTS (SELECT 1 FROM payment_allocations a WHERE a.invoice_id = i.id AND a.payment_id NOT IN (${gone(2)}))
        OR EXISTS (SELECT 1 FROM invoice_headers c WHERE c.corrects_invoice_id = i.id AND (${retentionEndSql("c.date", "vouchers")} >= ?1
          OR EXISTS (SELECT 1 FROM payment_allocations a WHERE a.invoice_id = c.id AND a.payment_id NOT IN (${gone(2)}))))
        OR EXISTS (SELECT 1 FROM reminders r WHERE r.target_type = 'INVOICE' AND r.target_id = i.id AND r.id NOT IN (${gone(3)})) AS held,
        (EXISTS (SELECT 1 FROM invoice_rows WHERE invoice_id = i.id) OR i.pdf_file_path IS NOT NULL OR i.issued_last_name IS NOT ?4) AS whole
      FROM invoice_headers i WHERE i.person_id IN (${ERASED}) AND ${retentionEndSql("i.date", "vouchers")} < ?1 ORDER BY i.id`,
    today,
    paymentList,
    reminderList,
    ERASED_NAME,
  );
  const deleted = invoices.filter((row) => !row.held);
  const stripped = invoices.filter((row) => row.held && row.whole);
  const touched = JSON.stringify(ids([...deleted, ...stripped]));
  const invoiceRows = ids(await rows(`SELECT id FROM invoice_rows WHERE invoice_id IN (${gone(1)}) ORDER BY id`, touched));
  // A reminder letter names every item of its person in that run: it goes with the last of its reminders.
  const letters = await rows(
    `SELECT DISTINCT pdf_key AS key FROM reminders WHERE id IN (${gone(1)}) AND pdf_key IS NOT NULL
      AND pdf_key NOT IN (SELECT pdf_key FROM reminders WHERE pdf_key IS NOT NULL AND id NOT IN (${gone(1)})) ORDER BY 1`,
    reminderList,
  );
  // A run's print PDF holds every posted letter of the run: it goes too, and the next download
  // renders it anew from the letters still kept.
  const printRuns = await rows(
    `SELECT DISTINCT job_id AS jobId FROM reminders WHERE id IN (${gone(1)}) AND channel = 'PRINT' AND job_id IS NOT NULL ORDER BY 1`,
    reminderList,
  );
  // The vouchers of payments, each from its own date: what the bank booked to their invoices and
  // fees, the Lastschriften and the Mollie payments of their fees.
  const bankEntries = ids(
    await rows(
      `SELECT id FROM bank_statement_entries WHERE ${retentionEndSql("coalesce(booking_date, value_date)", "vouchers")} < ?1
        AND ((target_type = 'INVOICE' AND target_id IN (SELECT id FROM invoice_headers WHERE person_id IN (${ERASED})))
          OR (target_type = 'FEE' AND target_id IN (SELECT id FROM fees WHERE person_id IN (${ERASED})))) ORDER BY id`,
      today,
    ),
  );
  const debitItems = ids(
    await rows(
      `SELECT di.id FROM direct_debit_items di JOIN direct_debit_runs dr ON dr.id = di.run_id
        WHERE di.person_id IN (${ERASED}) AND dr.status <> 'PREPARED' AND ${retentionEndSql("di.collection_date", "vouchers")} < ?1 ORDER BY di.id`,
      today,
    ),
  );
  const molliePayments = (
    await rows(
      `SELECT payment_id AS id FROM mollie_payments WHERE fee_id IN (SELECT id FROM fees WHERE person_id IN (${ERASED}))
        AND ${retentionEndSql("processed_on", "vouchers")} < ?1 ORDER BY payment_id`,
      today,
    )
  ).map((row) => String(row.id));
  const fees = ids(
    await rows(
      `SELECT f.id FROM fees f WHERE f.person_id IN (${ERASED}) AND ${retentionEndSql("f.date", "vouchers")} < ?1
        AND NOT EXISTS (SELECT 1 FROM payment_allocations a WHERE a.fee_id = f.id AND a.payment_id NOT IN (${gone(2)}))
        AND NOT EXISTS (SELECT 1 FROM invoice_rows r WHERE r.fee_id = f.id AND r.invoice_id NOT IN (${gone(4)}))
        AND NOT EXISTS (SELECT 1 FROM reminders r WHERE (r.fee_id = f.id OR (r.target_type = 'FEE' AND r.target_id = f.id)) AND r.id NOT IN (${gone(3)}))
        AND NOT EXISTS (SELECT 1 FROM direct_debit_items di WHERE di.fee_id = f.id AND di.id NOT IN (${gone(5)}))
        AND NOT EXISTS (SELECT 1 FROM mollie_payments m WHERE m.fee_id = f.id AND m.payment_id NOT IN (${gone(6)}))
        AND NOT EXISTS (SELECT 1 FROM course_memberships m WHERE m.fee_id = f.id) ORDER BY f.id`,
      today,
      paymentList,
      reminderList,
      touched,
      JSON.stringify(debitItems),
      JSON.stringify(molliePayments),
    ),
  );
  const feeList = JSON.stringify(fees);
  // A donation goes with its fee; its receipt (the Doppel, kept as the books are) when its time is
  // up and no kept donation names it.
  const receipts = await rows(
    `SELECT r.id, r.pdf_key AS key FROM donation_receipts r WHERE r.person_id IN (${ERASED}) AND ${retentionEndSql("r.issued_on", "books")} < ?1
      AND NOT EXISTS (SELECT 1 FROM donations d WHERE d.receipt_id = r.id AND d.fee_id NOT IN (${gone(2)})) ORDER BY r.id`,
    today,
    feeList,
  );
  const receiptList = JSON.stringify(ids(receipts));
  const mandates = ids(
    await rows(`SELECT s.id FROM sepa_mandates s WHERE s.person_id IN (${ERASED}) AND NOT ${mandateKept("s", gone(1))} ORDER BY s.id`, feeList),
  );
  const people = ids(
    await rows(
      `SELECT p.id FROM people p WHERE p.erased_on IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM invoice_headers i WHERE i.person_id = p.id AND i.id NOT IN (${gone(1)}))
        AND NOT EXISTS (SELECT 1 FROM fees f WHERE f.person_id = p.id AND f.id NOT IN (${gone(2)}))
        AND NOT EXISTS (SELECT 1 FROM sepa_mandates s WHERE s.person_id = p.id AND s.id NOT IN (${gone(3)}))
        AND NOT EXISTS (SELECT 1 FROM payments x WHERE x.person_id = p.id AND x.id NOT IN (${gone(4)}))
        AND NOT EXISTS (SELECT 1 FROM reminders r WHERE r.person_id = p.id AND r.id NOT IN (${gone(5)}))
        AND NOT EXISTS (SELECT 1 FROM direct_debit_items di WHERE di.person_id = p.id AND di.id NOT IN (${gone(6)}))
        AND NOT EXISTS (SELECT 1 FROM donation_receipts z WHERE z.person_id = p.id AND z.id NOT IN (${gone(7)}))
        AND NOT EXISTS (SELECT 1 FROM dogs d WHERE d.owner_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM course_memberships m WHERE m.person_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM certifications c WHERE c.person_id = p.id) ORDER BY p.id`,
      JSON.stringify(ids(deleted)),
      feeList,
      JSON.stringify(mandates),
      paymentList,
      reminderList,
      JSON.stringify(debitItems),
      receiptList,
    ),
  );
  return {
    paymentIds: payments,
    reminderIds: reminders,
    reminderPdfKeys: [...letters.map((row) => String(row.key)), ...printRuns.map((row) => reminderPrintKey(Number(row.jobId)))],
    invoiceIds: ids(deleted),
    strippedInvoiceIds: ids(stripped),
    invoiceRowIds: invoiceRows,
    pdfPaths: [...deleted, ...stripped].map((row) => row.path).filter((path): path is string => typeof path === "string"),
    bankEntryIds: bankEntries,
    debitItemIds: debitItems,
    molliePaymentIds: molliePayments,
    feeIds: fees,
    receiptIds: ids(receipts),
    receiptPdfKeys: receipts.map((row) => row.key).filter((key): key is string => typeof key === "string"),
    mandateIds: mandates,
    personIds: people,
  };
}

/** The last day any retained record of the erased person `person` (SQL) is kept. */
const RETAINED_UNTIL_SQL = (person: string) => `(SELECT max(until) FROM (
    SELECT ${retentionEndSql("date", "vouchers")} AS until FROM invoice_headers WHERE person_id = ${person}
    UNION ALL SELECT ${retentionEndSql("date", "vouchers")} FROM fees WHERE person_id = ${person}
    UNION ALL SELECT ${retentionEndSql("collection_date", "vouchers")} FROM direct_debit_items WHERE person_id = ${person}
    UNION ALL SELECT ${retentionEndSql("day", "books")} FROM (SELECT date AS day FROM payments WHERE person_id = ${person}
      UNION ALL SELECT issued_on FROM donation_receipts WHERE person_id = ${person})
    UNION ALL SELECT ${retentionEndSql("date", "letters")} FROM reminders WHERE person_id = ${person}))`;

/**
 * Erases what has expired (one batch): reminders, journal entries with their allocations, invoice
 * rows and whole invoices (a stripped one keeps its bare header), bank statement entries,
 * Lastschriften and Mollie payments, fees, mandates without a pending debit, people with nothing
 * left, and their history; the invoice PDFs and reminder letters are removed from R2 first (a
 * repeated run finds nothing left to do). The remaining erased people's retainedUntil is brought
 * up to date.
 */
export async function eraseExpiredRemains(env: Pick<Env, "INVOICES" | "PAPERS">, db: Db, now = new Date()): Promise<ExpiredRemains> {
  const today = now.toISOString().slice(0, 10);
  const remains = await expiredRemains(db, today);
  const objects = [...remains.pdfPaths, ...remains.reminderPdfKeys, ...remains.receiptPdfKeys];
  if (objects.length > 0) await env.INVOICES.delete(objects);
  const mandateDocuments = await mandateDocumentKeys(db, remains.mandateIds);
  if (mandateDocuments.length > 0) await env.PAPERS.delete(mandateDocuments);
  const list = (values: readonly (number | string)[]) => JSON.stringify(values);
  const invoices = list(remains.invoiceIds);
  const stripped = list(remains.strippedInvoiceIds);
  const fees = list(remains.feeIds);
  const inIds = (column: string, n = 1) => `${column} IN (SELECT value FROM json_each(?${n}))`;
  const history = (table: string, ids: readonly (number | string)[]): Statement => ({
    sql: `DELETE FROM change_history WHERE table_name = '${table}' AND ${inIds("record_id")}`,
    params: [list(ids)],
  });
  const statements: Statement[] = [
    { sql: `DELETE FROM reminders WHERE ${inIds("id")}`, params: [list(remains.reminderIds)] },
    { sql: `DELETE FROM payment_allocations WHERE ${inIds("payment_id")}`, params: [list(remains.paymentIds)] },
    // The Kassenbuch keeps its entries (the book stays complete: number, date, amount, balance);
    // what named the person goes: the link to the payment and its text.
    { sql: `UPDATE cash_entries SET payment_id = NULL, text = ?2 WHERE ${inIds("payment_id")}`, params: [list(remains.paymentIds), ERASED_CASH_TEXT] },
    { sql: `DELETE FROM payments WHERE ${inIds("id")}`, params: [list(remains.paymentIds)] },
    { sql: `DELETE FROM invoice_rows WHERE ${inIds("invoice_id")} OR ${inIds("invoice_id", 2)}`, params: [invoices, stripped] },
    {
      sql: `DELETE FROM mail_log WHERE ${inIds("invoice_header_id")} OR ${inIds("invoice_header_id", 2)} OR ${inIds("fee_id", 3)}`,
      params: [invoices, stripped, fees],
    },
    { sql: `DELETE FROM bank_statement_entries WHERE ${inIds("id")}`, params: [list(remains.bankEntryIds)] },
    // The bare header of an invoice a kept record names: its number, date and amounts stay for the
    // journal; the recipient goes with the voucher.
    {
      sql: `UPDATE invoice_headers SET issued_salutation = NULL, issued_title = NULL, issued_first_name = '', issued_last_name = ?2, issued_street_number = NULL,
        issued_zip = NULL, issued_city = NULL, pdf_file_path = NULL, pdf_sha256 = NULL, comments = NULL, payment_comments = NULL WHERE ${inIds("id")}`,
      params: [stripped, ERASED_NAME],
    },
    { sql: `DELETE FROM invoice_headers WHERE ${inIds("id")}`, params: [invoices] },
    { sql: `DELETE FROM mollie_payments WHERE ${inIds("payment_id")}`, params: [list(remains.molliePaymentIds)] },
    { sql: `DELETE FROM direct_debit_items WHERE ${inIds("id")}`, params: [list(remains.debitItemIds)] },
    { sql: `DELETE FROM donations WHERE ${inIds("fee_id")}`, params: [fees] },
    { sql: `DELETE FROM donation_receipts WHERE ${inIds("id")}`, params: [list(remains.receiptIds)] },
    { sql: `DELETE FROM fees WHERE ${inIds("id")}`, params: [fees] },
    { sql: `DELETE FROM portal_mandate_requests WHERE ${inIds("mandate_id")}`, params: [list(remains.mandateIds)] },
    { sql: `DELETE FROM sepa_mandates WHERE ${inIds("id")}`, params: [list(remains.mandateIds)] },
    { sql: `DELETE FROM people WHERE ${inIds("id")}`, params: [list(remains.personIds)] },
    { sql: `UPDATE people SET retained_until = coalesce(${RETAINED_UNTIL_SQL("people.id")}, retained_until) WHERE erased_on IS NOT NULL`, params: [] },
    // Last: the history of what went (also what this batch wrote).
    history("invoice_rows", remains.invoiceRowIds),
    history("invoice_headers", [...remains.invoiceIds, ...remains.strippedInvoiceIds]),
    history("fees", remains.feeIds),
    history("reminders", remains.reminderIds),
    history("payments", remains.paymentIds),
    history("direct_debit_items", remains.debitItemIds),
    history("sepa_mandates", remains.mandateIds),
    history("people", remains.personIds),
  ];
  await writingAs(db, "ERASE", () => runAtomically(db, statements));
  return remains;
}

// ---------------------------------------------------------------------------------------------
// Retention overview

/** The day `years` years before today (SQLite's date arithmetic, as the lists use it). */
export async function retentionCutoff(db: Db, years: number, today: string): Promise<string> {
  const row = await one(db, "SELECT date(?1, '-' || ?2 || ' years') AS cutoff", today, years).first<{ cutoff: string }>();
  return row!.cutoff;
}

/** The years of Einstellungen (3 without settings) in SQL. */
const YEARS_SQL = "coalesce((SELECT retention_years FROM configuration WHERE id = 1), 3)";

/** The retention years of Einstellungen and their cutoff for today (?1), in one query. */
export async function retentionSettings(db: Db, today: string): Promise<{ years: number; cutoff: string }> {
  const row = await one(db, `SELECT ${YEARS_SQL} AS years, date(?1, '-' || ${YEARS_SQL} || ' years') AS cutoff`, today).first<{
    years: number;
    cutoff: string;
  }>();
  return row!;
}

/** `lastActivity`: the newest activity up to today; `nextPlanned`: the next one after today (a
 *  course or course date to come), shown apart (issue 29/16: a coming date is no past activity). */
export type RetentionCandidate = { id: number; fullName: string; memberUntil: string | null; lastActivity: string | null; nextPlanned: string | null };

/** `value` when its day is up to today (?2), else NULL: a date after today is planned, not done. */
const past = (value: string) => `CASE WHEN substr(${value}, 1, 10) <= ?2 THEN ${value} END`;

/** The newest of each kind of activity of p up to today ('' when none; scalar max, as D1 limits compound selects). */
const LAST_ACTIVITY = `nullif(max(
      coalesce((SELECT max(max(coalesce(${past("coalesce(c.start_date_time, c.start_year || '-01-01')")}, ''), coalesce(${past("m.created_on")}, ''))) FROM course_memberships m JOIN courses c ON c.id = m.course_id WHERE m.person_id = p.id), ''),
      coalesce((SELECT max(${past("date")}) FROM fees WHERE person_id = p.id), ''),
      coalesce((SELECT max(${past("date")}) FROM invoice_headers WHERE person_id = p.id), ''),
      coalesce((SELECT max(${past("cd.start_date_time")}) FROM attendances a JOIN course_dates cd ON cd.id = a.course_date_id JOIN course_memberships m ON m.id = a.course_membership_id WHERE m.person_id = p.id), ''),
      coalesce((SELECT max(${past("date")}) FROM certifications WHERE person_id = p.id), ''),
      coalesce((SELECT max(${past("coalesce(start_date_time, start_year || '-01-01')")}) FROM courses WHERE trainer_id = p.id OR cotrainer_id = p.id), '')), '')`;

/** The next course start or course date of p after today (?2), as participant or trainer. */
const NEXT_PLANNED = `(SELECT min(d) FROM (
      SELECT c.start_date_time AS d FROM course_memberships m JOIN courses c ON c.id = m.course_id WHERE m.person_id = p.id
      UNION ALL SELECT cd.start_date_time FROM course_memberships m JOIN course_dates cd ON cd.course_id = m.course_id WHERE m.person_id = p.id
      UNION ALL SELECT start_date_time FROM courses WHERE trainer_id = p.id OR cotrainer_id = p.id
      UNION ALL SELECT cd.start_date_time FROM courses c JOIN course_dates cd ON cd.course_id = c.id WHERE c.trainer_id = p.id OR c.cotrainer_id = p.id
    ) WHERE substr(d, 1, 10) > ?2)`;

/**
 * One list of the retention overview for `cutoff` (retentionCutoff) as of `today`. Each starts
 * from its partial index (people_left_idx, people_not_member_created_idx), so it reads the
 * candidates only, not every person: `created_on < cutoff` is the same as comparing its day, as
 * the ISO timestamp starts with the day and is longer than it. Who may be due for erasure:
 * - `left`: members whose memberUntil lies more than `years` years back;
 * - `inactive`: everyone else not erased and not a member now (no memberUntil in the future or
 *   membership flag without end) whose record is older than `years` years and who since then
 *   has no course participation (by the course's start or the participation's creation), fee,
 *   invoice, attendance ticked, certification, or course as trainer, and none planned.
 * Each is shown with its last activity up to today and its next planned date after today.
 * `window` (the grid's page): `left` reads only that page's people along people_left_idx (by
 * leaving date and name key, so neither is computed nor sorted for all) and works out activity for
 * them only; `inactive` is chosen by its activity, so it works it out for every candidate.
 */
export async function retentionList(
  db: Db,
  kind: "left" | "inactive",
  cutoff: string | null,
  today: string,
  window: { offset: number; limit: number } = { offset: 0, limit: -1 },
): Promise<{ rows: RetentionCandidate[]; total: number }> {
  // Without a cutoff, the one of Einstellungen: worked out in the list's own query, so a grid
  // needs no reads of the settings before it (one round trip, not three).
  const cut = `(SELECT coalesce(?1, date(?2, '-' || ${YEARS_SQL} || ' years')))`;
  if (kind === "left") {
    const left = `erased_on IS NULL AND member_until IS NOT NULL AND member_until < ${cut}`;
    // Both statements go to D1 in one round trip (client.server.ts batches what starts together).
    const [{ results }, counted] = await Promise.all([
      one(
        db,
        `SELECT p.id, p.full_name AS fullName, p.member_until AS memberUntil, ${LAST_ACTIVITY} AS lastActivity, ${NEXT_PLANNED} AS nextPlanned
        FROM (SELECT id, member_until, last_name_key AS k FROM people WHERE ${left} ORDER BY member_until, last_name_key, id LIMIT ?3 OFFSET ?4) page
        JOIN people p ON p.id = page.id ORDER BY page.member_until, page.k, page.id`,
        cutoff,
        today,
        window.limit,
        window.offset,
      ).all<RetentionCandidate>(),
      one(db, `SELECT count(*) AS total FROM people WHERE ${left}`, cutoff, today).first<{ total: number }>(),
    ]);
    return { rows: results, total: counted?.total ?? 0 };
  }
  const { results } = await one(
    db,
    `SELECT * FROM (SELECT p.id, p.full_name AS fullName, p.member_until AS memberUntil, ${LAST_ACTIVITY} AS lastActivity, ${NEXT_PLANNED} AS nextPlanned, p.last_name_key AS k FROM people p
      WHERE p.erased_on IS NULL AND p.is_member = 0 AND p.created_on < ${cut} AND (p.member_until IS NULL OR p.member_until >= ${cut}))
      WHERE (lastActivity IS NULL OR substr(lastActivity, 1, 10) < ${cut}) AND nextPlanned IS NULL ORDER BY k, id`,
    cutoff,
    today,
  ).all<RetentionCandidate & { k: string }>();
  const rows = results.map(({ id, fullName, memberUntil, lastActivity, nextPlanned }) => ({ id, fullName, memberUntil, lastActivity, nextPlanned }));
  return { rows: window.limit < 0 ? rows.slice(window.offset) : rows.slice(window.offset, window.offset + window.limit), total: rows.length };
}

export async function setRetentionYears(db: Db, years: number, actor: Actor, now = new Date()): Promise<void> {
  await db.run(
    sql`UPDATE configuration SET retention_years = ${years}, last_modified_by = ${actor.name}, last_modified_on = ${now.toISOString()}, row_version = row_version + 1 WHERE id = 1`,
  );
}

/** One date of the retention schedule: what of erased people may go the day after `until`, per kind. */
export type RetentionDue = { until: string; kind: RetentionKind; records: string };

/** The records of erased people kept for their period, by kind (app/lib/retention.ts): SQL over
 *  the rows (its date column) and the German words for one and many. A bare invoice header (its
 *  voucher gone, kept for the journal) counts with the journal, not again as an invoice. */
const SCHEDULE: { kind: RetentionKind; from: string; date: string; one: string; many: string }[] = [
  {
    kind: "books",
    from: "payments WHERE person_id IN (SELECT id FROM people WHERE erased_on IS NOT NULL)",
    date: "date",
    one: "Buchung im Zahlungsjournal",
    many: "Buchungen im Zahlungsjournal",
  },
  {
    kind: "vouchers",
    from: `invoice_headers WHERE person_id IN (SELECT id FROM people WHERE erased_on IS NOT NULL) AND (pdf_file_path IS NOT NULL OR EXISTS (SELECT 1 FROM invoice_rows r WHERE r.invoice_id = invoice_headers.id))`,
    date: "date",
    one: "Rechnung",
    many: "Rechnungen",
  },
  { kind: "vouchers", from: "fees WHERE person_id IN (SELECT id FROM people WHERE erased_on IS NOT NULL)", date: "date", one: "Posten", many: "Posten" },
  {
    kind: "vouchers",
    from: "direct_debit_items WHERE person_id IN (SELECT id FROM people WHERE erased_on IS NOT NULL)",
    date: "collection_date",
    one: "Lastschrift",
    many: "Lastschriften",
  },
  {
    kind: "letters",
    from: "reminders WHERE person_id IN (SELECT id FROM people WHERE erased_on IS NOT NULL)",
    date: "date",
    one: "Mahnung",
    many: "Mahnungen",
  },
];

/**
 * The retention screen's schedule (issue 30 item 5): what of erased people's retained records
 * becomes deletable when, per kind and end of period from `today` on, in one round trip. The daily
 * cron erases it the day after. A record past its own period that a kept record still names (a
 * fee a journal entry paid) waits for that one (eraseExpiredRemains) and is left out here: the
 * later date is the kept record's.
 */
export async function retentionSchedule(db: Db, today: string): Promise<RetentionDue[]> {
  const results = await db.$client.batch(
    SCHEDULE.map((part) =>
      one(
        db,
        `SELECT * FROM (SELECT ${retentionEndSql(part.date, part.kind)} AS until, count(*) AS n FROM ${part.from} GROUP BY 1) WHERE until >= ?1 ORDER BY 1`,
        today,
      ),
    ),
  );
  const due = new Map<string, RetentionDue>();
  SCHEDULE.forEach((part, index) => {
    for (const row of (results[index].results ?? []) as { until: string; n: number }[]) {
      const key = `${row.until} ${part.kind}`;
      const words = formatCount(row.n, part.one, part.many);
      const entry = due.get(key);
      if (entry) entry.records = `${entry.records}, ${words}`;
      else due.set(key, { until: row.until, kind: part.kind, records: words });
    }
  });
  return [...due.values()].sort((a, b) => a.until.localeCompare(b.until) || RETENTION_KINDS.indexOf(a.kind) - RETENTION_KINDS.indexOf(b.kind));
}
