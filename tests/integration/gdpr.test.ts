/**
 * Datenschutz (issue 16 items 1, 2, 5): the Auskunft (Art. 15) holds every record that references
 * a demo person, checked table by table against the database (the referencing tables discovered
 * from the schema's foreign keys, so a new table cannot be forgotten silently); erasure (Art. 17)
 * leaves no personal data outside the retained bookkeeping and every invoice intact, removes the
 * person's change history last; the retention cron erases what has expired and nothing else.
 */
import { env } from "cloudflare:test";
import { strFromU8, unzipSync } from "fflate";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { presentErasure, PLAN_GROUP_LABELS } from "~/dialogs/erasure/dialog.server";
import {
  ANONYMISED_NOTE,
  ERASURE_CHANGED,
  erasePerson,
  erasurePlan,
  eraseExpiredRemains,
  personData,
  PLAN_TABLES,
  retentionCutoff,
  retentionList,
  retentionSchedule,
  RUN_UNDER_WAY,
  SCOPES,
} from "~/models/gdpr.server";
import { importStatement } from "~/models/bank-statements.server";
import { erasedIbanHash } from "~/lib/bank-statements.server";
import { getInvoiceDocument } from "~/models/invoice-pdfs.server";
import { fetchApp, postForm, toastOf } from "../support/app";
import { retentionLists } from "../support/retention";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";
import { issueTestInvoice } from "../support/invoices";

const db = createDb(env.DB);
const actor = { name: "Dana Datenschutz" };

type Row = Record<string, unknown>;
const all = async (query: string, ...params: unknown[]) =>
  ((
    await env.DB.prepare(query)
      .bind(...params)
      .all()
  ).results ?? []) as Row[];
const first = async (query: string, ...params: unknown[]) => (await all(query, ...params))[0];
const run = (query: string, ...params: unknown[]) =>
  env.DB.prepare(query)
    .bind(...params)
    .run();

let demoPersonId = 0;

beforeAll(async () => {
  await loadDemoData();
  // The demo person with the most records (fees, invoices, participations).
  const row =
    await first(`SELECT p.id FROM people p ORDER BY (SELECT count(*) FROM fees WHERE person_id = p.id) + (SELECT count(*) FROM invoice_headers WHERE person_id = p.id)
    + (SELECT count(*) FROM course_memberships WHERE person_id = p.id) + (SELECT count(*) FROM dogs WHERE owner_id = p.id) DESC, p.id LIMIT 1`);
  demoPersonId = Number(row!.id);
});

/** A person with a record in every table that can hold one, with unmistakable personal data. */
async function makePerson(tag: string, { invoiceDate = "2026-03-01", withBooks = true, pendingDebit = false } = {}) {
  const lastName = `Zwetschge${tag}`;
  const email = `${tag.toLowerCase()}@erasure.example`;
  const phone = `0171 55${tag.length}${tag.charCodeAt(0)}`;
  const iban = `DE${String([...tag].reduce((sum, letter) => sum * 31 + letter.charCodeAt(0), 7) % 1e15).padStart(20, "0")}`;
  const person = await first(
    `INSERT INTO people (first_name, last_name, email, mobile_phone, street_number, zip, city, date_of_birth, comments, member_type_id, is_member, member_since)
     VALUES ('Erna', ?1, ?2, ?3, ?4, '35037', 'Marburg', '1961-04-05', ?5, 1, 1, '2010-01-01') RETURNING id`,
    lastName,
    email,
    phone,
    `${tag}weg 7`,
    `mag ${tag}pflaumen`,
  );
  const p = Number(person!.id);
  const dog = Number(
    (await first("INSERT INTO dogs (owner_id, common_name, chip_nr) VALUES (?1, ?2, '276000000000001') RETURNING id", p, `Pflaumi${tag}`))!.id,
  );
  const course = Number((await first("SELECT id FROM courses ORDER BY id LIMIT 1"))!.id);
  const status = Number((await first("SELECT id FROM membership_statuses WHERE code = 'CONFIRMED'"))!.id);
  const membership = Number(
    (await first(
      "INSERT INTO course_memberships (course_id, person_id, dog_id, status_id, comments) VALUES (?1, ?2, ?3, ?4, 'Teilnehmer Zwetschge') RETURNING id",
      course,
      p,
      dog,
      status,
    ))!.id,
  );
  const courseDate = Number((await first("SELECT id FROM course_dates WHERE course_id = ?1 ORDER BY id LIMIT 1", course))?.id ?? 0);
  if (courseDate) await run("INSERT INTO attendances (course_date_id, course_membership_id, present) VALUES (?1, ?2, 1)", courseDate, membership);
  const master = Number((await first("SELECT id FROM certification_masters ORDER BY id LIMIT 1"))!.id);
  await run("INSERT INTO certifications (person_id, dog_id, certification_master_id, date) VALUES (?1, ?2, ?3, '2024-05-05')", p, dog, master);
  const mandate = Number(
    (await first(
      "INSERT INTO sepa_mandates (person_id, account_holder, iban, reference, mandate_date) VALUES (?1, ?2, ?3, ?4, '2025-01-01') RETURNING id",
      p,
      `Erna ${lastName}`,
      iban,
      `WUFF-${p}-1`,
    ))!.id,
  );
  let invoice = 0;
  let fee = 0;
  if (withBooks) {
    fee = Number(
      (await first(
        "INSERT INTO fees (person_id, date, text, amount, open_amount, send_invoice) VALUES (?1, ?2, 'Kursgebühr', 9900, 0, 1) RETURNING id",
        p,
        invoiceDate,
      ))!.id,
    );
    const number = Number((await first("SELECT coalesce(max(invoice_number), 0) + 1 AS n FROM invoice_headers"))!.n);
    invoice = Number(
      (await first(
        "INSERT INTO invoice_headers (person_id, date, amount, open_amount, pdf_file_path) VALUES (?1, ?2, 9900, 0, ?3) RETURNING id",
        p,
        invoiceDate,
        `Rechnung_${number}_${lastName}.pdf`,
      ))!.id,
    );
    await run("INSERT INTO invoice_rows (invoice_id, fee_id, text, amount) VALUES (?1, ?2, 'Kursgebühr', 9900)", invoice, fee);
    // Paid in full on the day (a journal entry of that date).
    await issueTestInvoice(invoice, number, 0, `${invoiceDate}T09:00:00.000Z`);
    await env.INVOICES.put(`Rechnung_${number}_${lastName}.pdf`, new TextEncoder().encode("%PDF-1.4 test"));
    await run("INSERT INTO mollie_payments (payment_id, fee_id, amount, applied, processed_on) VALUES (?1, ?2, 9900, 9900, ?3)", `tr_${tag}`, fee, invoiceDate);
    await run(
      "INSERT INTO mail_log (kind, status, recipient, intended_recipient, subject, sent_by, person_id, invoice_header_id, created_on) VALUES ('SINGLE', 'SENT', ?1, ?1, 'Ihre Rechnung', 'Anna', ?2, ?3, '2026-03-02')",
      email,
      p,
      invoice,
    );
  }
  // The club's bank statement: a booking never matched that names the person (their IBAN), and
  // one from someone else.
  const statement = Number(
    (await first(
      "INSERT INTO bank_statement_imports (file_name, format, imported_by, imported_on) VALUES (?1, 'CAMT053', 'Anna', '2026-03-06T10:00:00Z') RETURNING id",
      `auszug-${tag}.xml`,
    ))!.id,
  );
  const entry = (
    key: string,
    values: { name: string; iban: string; remittance: string; proposal: string; status?: string; target?: [string, number]; amount?: number; date?: string },
  ) =>
    first(
      `INSERT INTO bank_statement_entries (import_id, entry_key, position, direction, amount, booking_date, counterparty_name, counterparty_iban, remittance, proposal, target_type, target_id, status, applied)
       VALUES (?1, ?2, (SELECT count(*) + 1 FROM bank_statement_entries WHERE import_id = ?1), 'CRDT', ?3, ?12, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) RETURNING id`,
      statement,
      `${tag}-${key}`,
      values.amount ?? 1500,
      values.name,
      values.iban,
      values.remittance,
      values.proposal,
      values.target?.[0] ?? null,
      values.target?.[1] ?? null,
      values.status ?? "OPEN",
      values.status === "BOOKED" ? (values.amount ?? 1500) : null,
      values.date ?? "2026-03-06",
    ).then((row) => Number(row!.id));
  const unmatchedEntry = await entry("unmatched", { name: `Erna ${lastName}`, iban, remittance: `Spende ${lastName}`, proposal: "UNMATCHED" });
  const strangerEntry = await entry("stranger", { name: "Fritz Fremd", iban: "DE02120300000000202051", remittance: "Spende", proposal: "UNMATCHED" });
  let bookedEntry = 0;
  let reminder = 0;
  let letter = "";
  let debitItem = 0;
  if (withBooks) {
    // Booked to the invoice (bookkeeping), a Lastschrift of the fee, and a reminder of the invoice with its letter.
    bookedEntry = await entry("booked", {
      name: `Erna ${lastName}`,
      iban,
      remittance: `Rechnung ${lastName}`,
      proposal: "MATCHED",
      status: "BOOKED",
      target: ["INVOICE", invoice],
      amount: 9900,
      date: invoiceDate,
    });
    const debitRun = await makeDebitRun("SUBMITTED");
    debitItem = Number(
      (await first(
        `INSERT INTO direct_debit_items (run_id, fee_id, person_id, mandate_id, mandate_reference, mandate_date, account_holder, iban, end_to_end_id, sequence_type, due_date, collection_date, amount)
         VALUES (?1, ?2, ?3, ?4, ?5, '2025-01-01', ?6, ?7, ?8, 'FRST', ?9, ?9, 9900) RETURNING id`,
        debitRun,
        fee,
        p,
        mandate,
        `WUFF-${p}-1`,
        `Erna ${lastName}`,
        iban,
        `E2E-${tag}`,
        invoiceDate,
      ))!.id,
    );
    letter = `Mahnung_1_${p}_${lastName}.pdf`;
    await env.INVOICES.put(letter, new TextEncoder().encode("%PDF-1.4 Mahnung"));
    reminder = Number(
      (await first(
        "INSERT INTO reminders (target_type, target_id, person_id, level, date, new_due_date, status, pdf_key) VALUES ('INVOICE', ?1, ?2, 1, ?3, ?3, 'SENT', ?4) RETURNING id",
        invoice,
        p,
        invoiceDate.replace(/-\d\d$/, "-28"),
        letter,
      ))!.id,
    );
  }
  if (pendingDebit)
    await run(
      "INSERT INTO fees (person_id, date, text, amount, open_amount, send_invoice) VALUES (?1, '2026-10-01', 'Beitrag per Lastschrift', 3000, 3000, 0)",
      p,
    );
  // A mailshot that failed for them: the mail server's refusal names their address, the run's message their name.
  const mailshotRun = Number(
    (await first(
      "INSERT INTO jobs (type, status, message) VALUES ('MAILSHOT', 'DONE', ?1) RETURNING id",
      `Fertig! Es wurden 3 Mails versandt. 1 fehlgeschlagen: Erna ${lastName} (Mailserver abgelehnt)`,
    ))!.id,
  );
  await run(
    "INSERT INTO job_failures (job_id, item_id, message, last_attempt_on) VALUES (?1, ?2, ?3, '2026-03-07T10:00:00Z')",
    mailshotRun,
    p,
    `Mailserver: 550 <${email}> unbekannt`,
  );
  await run(
    "INSERT INTO mail_log (kind, status, recipient, intended_recipient, subject, sent_by, person_id, birthday_year, created_on) VALUES ('BIRTHDAY', 'SENT', ?1, ?1, 'Alles Gute', 'Cron', ?2, 2025, '2025-04-05')",
    email,
    p,
  );
  // A second dog, deleted into the Papierkorb (its JSON names the person's data).
  const binned = Number((await first("INSERT INTO dogs (owner_id, common_name, comments) VALUES (?1, 'Zwetschgenhund', ?2) RETURNING id", p, lastName))!.id);
  await run(
    `INSERT INTO deleted_records (transaction_id, deleted_on, deleted_by, table_name, identifier1, json)
     SELECT (SELECT coalesce(max(transaction_id), 0) + 1 FROM deleted_records), '2026-01-01', 'Anna', 'dogs', common_name, json_array(json_object('id', id, 'owner_id', owner_id, 'common_name', common_name, 'comments', comments)) FROM dogs WHERE id = ?1`,
    binned,
  );
  await run("DELETE FROM dogs WHERE id = ?1", binned);
  // Change history as the history helper's triggers write it (not on this branch).
  for (const [table, id] of [
    ["people", p],
    ["dogs", dog],
    ["course_memberships", membership],
    ["sepa_mandates", mandate],
    ["dogs", binned],
  ] as const) {
    await run(
      "INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes) VALUES (?1, ?2, 'INSERT', 'Anna', '2026-01-01', ?3)",
      table,
      id,
      JSON.stringify({ last_name: [null, lastName], email: [null, email] }),
    );
  }
  return {
    id: p,
    lastName,
    fullName: `Erna ${lastName}`,
    email,
    phone,
    iban,
    dog,
    mandate,
    membership,
    invoice,
    fee,
    unmatchedEntry,
    strangerEntry,
    bookedEntry,
    reminder,
    letter,
    debitItem,
    mailshotRun,
  };
}

/** A Lastschriftlauf (its job and run) in the given state. */
async function makeDebitRun(status: "PREPARED" | "SUBMITTED") {
  const job = Number((await first("INSERT INTO jobs (type, status) VALUES ('DIRECT_DEBIT', 'DONE') RETURNING id"))!.id);
  await run(
    "INSERT INTO direct_debit_runs (id, status, message_id, created_by, created_on) VALUES (?1, ?2, ?3, 'Anna', '2026-03-01T10:00:00Z')",
    job,
    status,
    `WUFF-${job}`,
  );
  return job;
}

/** Tables (and columns) with a foreign key to people, from the schema itself. */
async function referencingColumns(): Promise<{ table: string; column: string }[]> {
  const tables = await all(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
  );
  const found: { table: string; column: string }[] = [];
  for (const { name } of tables) {
    for (const key of await all(`SELECT * FROM pragma_foreign_key_list('${String(name)}')`))
      if (key.table === "people") found.push({ table: String(name), column: String(key.from) });
  }
  return found;
}

describe("Auskunft (Art. 15)", () => {
  it("holds every record that references the demo person, table by table", async () => {
    const data = (await personData(db, demoPersonId))!;
    expect(data.person.id).toBe(demoPersonId);
    const columns = await referencingColumns();
    expect(columns.map((c) => c.table)).toEqual(
      expect.arrayContaining(["dogs", "course_memberships", "fees", "invoice_headers", "sepa_mandates", "certifications", "courses"]),
    );
    // Every such table is covered, whether or not this person has rows in it (a new table with a
    // person must be added to SCOPES, to the Auskunft and to the erasure).
    const covered = SCOPES.map((scope) => scope.table);
    for (const { table } of columns) expect(covered, table).toContain(table);
    // Plus the known person ids without a foreign key.
    columns.push({ table: "mail_log", column: "person_id" });
    let checked = 0;
    for (const { table, column } of columns) {
      const ids = (await all(`SELECT id FROM ${table} WHERE ${column} = ?1`, demoPersonId)).map((row) => row.id);
      const exported = (data.tables[table] ?? []).map((row) => row.id);
      expect(exported, `${table}.${column}`).toEqual(expect.arrayContaining(ids));
      checked += ids.length;
    }
    expect(checked).toBeGreaterThan(3);
    // One level further: rows hanging off the person's records without a person of their own.
    for (const { table, column, parent } of [
      { table: "attendances", column: "course_membership_id", parent: "course_memberships" },
      { table: "invoice_rows", column: "invoice_id", parent: "invoice_headers" },
    ]) {
      const parents = JSON.stringify((data.tables[parent] ?? []).map((row) => row.id));
      const ids = (await all(`SELECT id FROM ${table} WHERE ${column} IN (SELECT value FROM json_each(?1))`, parents)).map((row) => row.id);
      expect((data.tables[table] ?? []).map((row) => row.id)).toEqual(expect.arrayContaining(ids));
    }
    // Every table the Auskunft covers is a real table.
    for (const scope of SCOPES) expect(await first("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?1", scope.table)).toBeTruthy();
  });

  it("includes mandates with the full IBAN, mails, the Papierkorb and the change history of the person's records", async () => {
    const person = await makePerson("Auskunft");
    const data = (await personData(db, person.id))!;
    expect(data.tables.sepa_mandates[0].iban).toBe(person.iban);
    expect(data.tables.mail_log.map((row) => row.subject)).toEqual(expect.arrayContaining(["Ihre Rechnung", "Alles Gute"]));
    expect(data.tables.deleted_records).toHaveLength(1);
    expect(data.tables.invoice_rows).toHaveLength(1);
    expect(data.tables.mollie_payments).toHaveLength(1);
    expect(data.tables.direct_debit_items.map((row) => row.iban)).toEqual([person.iban]);
    expect(data.tables.reminders.map((row) => row.id)).toEqual([person.reminder]);
    expect(data.tables.job_failures).toEqual([
      expect.objectContaining({ job_id: person.mailshotRun, item_id: person.id, message: `Mailserver: 550 <${person.email}> unbekannt` }),
    ]);
    // Bank statement entries: booked to their invoice, and the one never booked that names their
    // IBAN; not someone else's.
    expect(data.tables.bank_statement_entries.map((row) => row.id).sort((a, b) => Number(a) - Number(b))).toEqual([person.unmatchedEntry, person.bookedEntry]);
    expect(data.changeHistory.map((row) => `${String(row.table_name)}:${String(row.record_id)}`)).toEqual(
      expect.arrayContaining([`people:${person.id}`, `dogs:${person.dog}`, `course_memberships:${person.membership}`]),
    );
  });

  it("downloads as one zip with auskunft.json, auskunft.pdf and the invoice PDFs (GDPR), and refuses STAFF and FINANCE", async () => {
    const person = await makePerson("Zip");
    // The consent given in the person dialog, as the history triggers write it.
    await run(
      "INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source) VALUES ('people', ?1, 'UPDATE', 'Anna', '2026-02-01T09:00:00Z', ?2, 'Personendialog')",
      person.id,
      JSON.stringify({ has_gdpr: [0, 1] }),
    );
    const response = await fetchApp(`/gdpr/auskunft/${person.id}`, { cookie: await loginCookie("gdpr") });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/zip");
    expect(response.headers.get("Content-Disposition")).toContain(`Auskunft-${person.lastName}-Erna-`);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(expect.arrayContaining(["auskunft.json", "auskunft.pdf"]));
    const json = JSON.parse(strFromU8(files["auskunft.json"]));
    expect(json.tables.people[0].email).toBe(person.email);
    expect(strFromU8(files["auskunft.pdf"].slice(0, 5))).toBe("%PDF-");
    // The PDF is the readable German summary of the same data.
    const { text } = await extractText(await getDocumentProxy(files["auskunft.pdf"]), { mergePages: true });
    for (const expected of [
      "Auskunft nach Art. 15 DSGVO",
      `Erna ${person.lastName}`,
      "Stammdaten",
      "Hunde (1)",
      "SEPA-Lastschriftmandate (1)",
      person.iban,
      "Gesendete Mails (2)",
      "Lastschriften (Lastschriftläufe) (1)",
      "Zahlungserinnerungen und Mahnungen (1)",
      "Zahlungen (Kontoauszug) (2)",
      "Im Papierkorb (1)",
      "Einwilligungen (1)",
      "Einwilligung erteilt",
      "Personendialog",
      "Änderungsverlauf",
      "Angelegt",
      `Nachname: ${person.lastName}`,
    ])
      expect(text).toContain(expected);
    // German throughout: no SQL table names, history actions or raw change JSON.
    for (const raw of [...SCOPES.map((scope) => scope.table), "change_history", "INSERT", "UPDATE"]) expect(text, raw).not.toMatch(new RegExp(`\\b${raw}\\b`));
    expect(text).not.toContain('{"');
    // The JSON keeps the stored values.
    expect(json.changeHistory.find((row: Row) => row.source === "Personendialog")).toMatchObject({
      action: "UPDATE",
      changes: JSON.stringify({ has_gdpr: [0, 1] }),
    });
    expect(Object.keys(files).filter((name) => name.startsWith("Rechnungen/"))).toHaveLength(1);
    expect(Object.keys(files).filter((name) => name.startsWith("Mahnungen/"))).toEqual([`Mahnungen/${person.letter}`]);
    for (const role of ["staff", "finance"] as const) {
      // Refused on the server as every guarded page: back to the start page with the German reason.
      const refused = await fetchApp(`/gdpr/auskunft/${person.id}`, { cookie: await loginCookie(role) });
      expect(refused.status).toBe(302);
      expect(refused.headers.get("Location")).toBe("/");
      expect(toastOf(refused)?.message).toContain("Zugriff verweigert");
    }
  });
});

/** Every text value of every table, except the retained bookkeeping records of the person: their
 *  invoices and fees with what belongs to them (reminders with their letter's name, Lastschriften
 *  with the account holder and IBAN, booked bank statement entries with the payer's name and IBAN). */
async function personalTraces(needles: string[], retained: { invoices: number[]; fees: number[] }) {
  const isRetainedTarget = (type: unknown, id: unknown) =>
    (type === "INVOICE" && retained.invoices.includes(Number(id))) || (type === "FEE" && retained.fees.includes(Number(id)));
  const reminders = (await all("SELECT id, target_type, target_id FROM reminders"))
    .filter((row) => isRetainedTarget(row.target_type, row.target_id))
    .map((row) => Number(row.id));
  // Retained records keep their change history.
  const keptHistory = (row: Row) =>
    (row.table_name === "invoice_headers" && retained.invoices.includes(Number(row.record_id))) ||
    (row.table_name === "fees" && retained.fees.includes(Number(row.record_id))) ||
    (row.table_name === "reminders" && reminders.includes(Number(row.record_id)));
  const tables = await all(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
  );
  const hits: string[] = [];
  for (const { name } of tables) {
    const table = String(name);
    for (const row of await all(`SELECT * FROM "${table}"`)) {
      const kept =
        (table === "invoice_headers" && retained.invoices.includes(Number(row.id))) ||
        (table === "reminders" && isRetainedTarget(row.target_type, row.target_id)) ||
        (table === "direct_debit_items" && retained.fees.includes(Number(row.fee_id))) ||
        (table === "bank_statement_entries" && row.status === "BOOKED" && isRetainedTarget(row.target_type, row.target_id)) ||
        (table === "change_history" && keptHistory(row));
      if (kept) continue;
      const text = JSON.stringify(row).toLowerCase();
      for (const needle of needles) if (text.includes(needle.toLowerCase())) hits.push(`${table} ${String(row.id ?? "")}: ${needle}`);
    }
  }
  return hits;
}

describe("Löschen mit Aufbewahrung (Art. 17)", () => {
  it("previews what goes and what stays and why", async () => {
    const person = await makePerson("Preview", { pendingDebit: true });
    const plan = (await erasurePlan(db, person.id))!;
    const erasedTables = new Set(plan.erase.map((item) => item.table));
    for (const table of ["dogs", "course_memberships", "certifications", "mail_log", "deleted_records"]) expect(erasedTables).toContain(table);
    // Vouchers 8 years, reminders (business letters) 6 years, each from the end of its year.
    expect(plan.retain.find((item) => item.table === "invoice_headers")).toMatchObject({ until: "2034-12-31" });
    expect(plan.retain.find((item) => item.table === "reminders")).toMatchObject({ until: "2032-12-31" });
    expect(plan.retain.find((item) => item.table === "sepa_mandates")?.reason).toContain("Lastschrift");
    expect(plan.deletePerson).toBe(false);
    // The journal entry that paid it (2026) is kept longest: books, 10 years.
    expect(plan.retainedUntil).toBe("2036-12-31");
    // The booking never booked that names the person is anonymised, the booked one stays.
    expect(plan.erase.filter((item) => item.table === "bank_statement_entries").map((item) => item.id)).toEqual([person.unmatchedEntry]);
    expect(plan.retain.map((item) => item.table)).toEqual(
      expect.arrayContaining(["reminders", "mollie_payments", "bank_statement_entries", "direct_debit_items"]),
    );
  });

  it("lists the person's entries of the payment journal among the kept booking records", async () => {
    const person = await makePerson("Journal");
    await run(
      "INSERT INTO payments (entry_key, person_id, date, amount, method, source, text, created_by, created_on) VALUES (?1, ?2, '2026-03-05', 9900, 'TRANSFER', 'MANUAL', 'Test', 'Test', '2026-03-05T10:00:00Z')",
      `test:journal-${person.id}`,
      person.id,
    );
    const entries = (await first("SELECT count(*) AS n FROM payments WHERE person_id = ?1", person.id))!.n;
    expect(entries).toBeGreaterThanOrEqual(1);
    const preview = presentErasure((await erasurePlan(db, person.id))!);
    expect(preview.retain.find((group) => group.label === "Zahlungsjournal")?.items).toEqual([
      `${entries} ${entries === 1 ? "Buchung" : "Buchungen"} im Zahlungsjournal zu diesen Posten und Rechnungen (bis 31.12.2036)`,
    ]);
  });

  it("names every table of the plan in German: no SQL table names in the preview", async () => {
    for (const table of PLAN_TABLES) expect(PLAN_GROUP_LABELS[table], table).toMatch(/^[A-ZÄÖÜ][\p{L} -]+$/u);
    const person = await makePerson("Deutsch", { pendingDebit: true });
    await run("INSERT INTO courses (name, start_year, trainer_id) VALUES ('Zwetschgenkurs', 2026, ?1)", person.id);
    const plan = (await erasurePlan(db, person.id))!;
    const named = new Set([...plan.erase, ...plan.retain].map((item) => item.table));
    for (const table of [
      "attendances",
      "deleted_records",
      "reminders",
      "bank_statement_entries",
      "direct_debit_items",
      "mollie_payments",
      "courses",
      "sepa_mandates",
      "job_failures",
    ])
      expect(named, table).toContain(table);
    const preview = presentErasure(plan);
    const text = JSON.stringify({ erase: preview.erase, retain: preview.retain, summary: preview.summary });
    const tableNames = [...new Set([...PLAN_TABLES, ...SCOPES.map((scope) => scope.table), "change_history", "payments"])];
    for (const table of tableNames) expect(text, table).not.toMatch(new RegExp(`\\b${table}\\b`));
    expect(text).not.toMatch(/\|/);
    // A Papierkorb entry is named by what it is, in German.
    expect(preview.erase.find((group) => group.label === "Papierkorb")?.items).toEqual(["Papierkorb: Hund „Zwetschgenhund“"]);
    expect(preview.retain.find((group) => group.label === "Mahnungen")?.items).toEqual([
      "1 Mahnung (mit Mahnschreiben) zu diesen Posten und Rechnungen (bis 31.12.2032)",
    ]);
  });

  it("leaves no personal data outside the retained bookkeeping, keeps every invoice intact, and erases the history last", async () => {
    const person = await makePerson("Erase");
    const invoiceBefore = await first("SELECT id, invoice_number, date, amount, open_amount, pdf_file_path FROM invoice_headers WHERE id = ?1", person.invoice);
    const rowsBefore = await all("SELECT * FROM invoice_rows WHERE invoice_id = ?1", person.invoice);
    const feeBefore = await first("SELECT id, date, text, amount, open_amount FROM fees WHERE id = ?1", person.fee);
    // Triggers like the history helper's: every change of these tables writes its before/after
    // values into change_history inside the erasure's own batch; the erasure must remove them too.
    const triggers = [
      ["people", "UPDATE", "NEW.id", "json_object('last_name', json_array(OLD.last_name, NEW.last_name), 'email', json_array(OLD.email, NEW.email))"],
      ["dogs", "DELETE", "OLD.id", "json_object('common_name', json_array(OLD.common_name, NULL))"],
      ["course_memberships", "DELETE", "OLD.id", "json_object('comments', json_array(OLD.comments, NULL))"],
      ["sepa_mandates", "DELETE", "OLD.id", "json_object('iban', json_array(OLD.iban, NULL))"],
    ] as const;
    for (const [table, action, id, changes] of triggers) {
      await run(`CREATE TRIGGER test_history_${table} AFTER ${action} ON ${table} BEGIN
        INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes) VALUES ('${table}', ${id}, '${action}', 'Trigger', '2026-11-25', ${changes}); END`);
    }
    const plan = (await erasurePlan(db, person.id))!;
    const outcome = await erasePerson(db, plan, plan.fingerprint, actor).finally(async () => {
      for (const [table] of triggers) await run(`DROP TRIGGER test_history_${table}`);
    });
    expect(outcome).toMatchObject({ status: "erased", deleted: false });

    const hits = await personalTraces([person.lastName, person.email, person.phone, person.iban, "Eraseweg", "PflaumiErase", "mag Erasepflaumen"], {
      invoices: [person.invoice],
      fees: [person.fee],
    });
    expect(hits).toEqual([]);
    // The failed mailshot still says that one mail failed, for whom no longer.
    expect(await first("SELECT message FROM jobs WHERE id = ?1", person.mailshotRun)).toEqual({
      message: "Fertig! Es wurden 3 Mails versandt. 1 fehlgeschlagen: Gelöschte Person (Mailserver abgelehnt)",
    });
    // The person row is only a pseudonymised holder of the books.
    expect(
      await first(
        "SELECT first_name, last_name, email, date_of_birth, comments, erased_on IS NOT NULL AS erased, retained_until FROM people WHERE id = ?1",
        person.id,
      ),
    ).toEqual({
      first_name: "",
      last_name: "Gelöschte Person",
      email: null,
      date_of_birth: null,
      comments: null,
      erased: 1,
      retained_until: "2036-12-31",
    });
    // Every invoice intact, with the name and address it was issued to; its PDF stays in R2.
    expect(await first("SELECT id, invoice_number, date, amount, open_amount, pdf_file_path FROM invoice_headers WHERE id = ?1", person.invoice)).toEqual(
      invoiceBefore,
    );
    expect(
      await first("SELECT issued_first_name, issued_last_name, issued_street_number, issued_city FROM invoice_headers WHERE id = ?1", person.invoice),
    ).toEqual({
      issued_first_name: "Erna",
      issued_last_name: person.lastName,
      issued_street_number: "Eraseweg 7",
      issued_city: "Marburg",
    });
    // A PDF made again later still shows the recipient as issued, not 'Gelöschte Person'.
    expect((await getInvoiceDocument(db, person.invoice))!.person).toMatchObject({
      firstName: "Erna",
      lastName: person.lastName,
      streetNumber: "Eraseweg 7",
      city: "Marburg",
    });
    expect(await all("SELECT * FROM invoice_rows WHERE invoice_id = ?1", person.invoice)).toEqual(rowsBefore);
    expect(await first("SELECT id, date, text, amount, open_amount FROM fees WHERE id = ?1", person.fee)).toEqual(feeBefore);
    expect(await env.INVOICES.head(String(invoiceBefore!.pdf_file_path))).not.toBeNull();
    expect(await first("SELECT count(*) AS n FROM mollie_payments WHERE fee_id = ?1", person.fee)).toEqual({ n: 1 });
    // Bookkeeping stays: the booked bank entry, the Lastschrift, the reminder and its letter.
    expect(await first("SELECT counterparty_iban FROM bank_statement_entries WHERE id = ?1", person.bookedEntry)).toEqual({ counterparty_iban: person.iban });
    expect(await first("SELECT iban FROM direct_debit_items WHERE id = ?1", person.debitItem)).toEqual({ iban: person.iban });
    expect(await first("SELECT pdf_key FROM reminders WHERE id = ?1", person.reminder)).toEqual({ pdf_key: person.letter });
    expect(await env.INVOICES.head(person.letter)).not.toBeNull();
    // The booking that was never booked keeps its amount and date but no longer names the payer;
    // someone else's booking is untouched.
    expect(
      await first(
        "SELECT amount, booking_date, counterparty_name, counterparty_iban, remittance, note FROM bank_statement_entries WHERE id = ?1",
        person.unmatchedEntry,
      ),
    ).toEqual({
      amount: 1500,
      booking_date: "2026-03-06",
      counterparty_name: null,
      counterparty_iban: null,
      remittance: "",
      note: ANONYMISED_NOTE,
    });
    expect(await first("SELECT counterparty_name FROM bank_statement_entries WHERE id = ?1", person.strangerEntry)).toEqual({
      counterparty_name: "Fritz Fremd",
    });
    // No history of the erased records is left (the triggers' rows of the erasure would be gone too).
    expect(
      await all(
        "SELECT * FROM change_history WHERE (table_name = 'people' AND record_id = ?1) OR (table_name = 'dogs' AND record_id = ?2)",
        person.id,
        person.dog,
      ),
    ).toEqual([]);
    // A second erasure is refused in German.
    const again = (await erasurePlan(db, person.id))!;
    expect(await erasePerson(db, again, again.fingerprint, actor)).toEqual({ status: "refused", message: expect.stringContaining("bereits gelöscht") });
  });

  it("reaches what comes later and what runs kept: a statement imported after the erasure, and the items of past runs", async () => {
    const person = await makePerson("Spaet");
    const other = demoPersonId;
    const [finished, underWay] = await Promise.all(
      ["DONE", "RUNNING"].map(async (status, index) =>
        Number(
          (await first(
            "INSERT INTO jobs (type, status, total, done, items, created_by, created_on) VALUES (?1, ?2, 3, ?3, ?4, 'Anna', '2026-03-01') RETURNING id",
            index === 0 ? "INVOICES" : "REMINDERS",
            status,
            index === 0 ? 3 : 0,
            JSON.stringify([other, person.id, other + 1]),
          ))!.id,
        ),
      ),
    );
    // A run over the person under way: its slices are cut from its items by position, so the
    // erasure waits for its end.
    const plan = (await erasurePlan(db, person.id))!;
    expect(await erasePerson(db, plan, plan.fingerprint, actor)).toEqual({ status: "refused", message: RUN_UNDER_WAY("Mahnlauf") });
    expect(await first("SELECT erased_on FROM people WHERE id = ?1", person.id)).toEqual({ erased_on: null });
    await run("UPDATE jobs SET status = 'DONE', done = 3 WHERE id = ?1", underWay);
    expect(await erasePerson(db, plan, plan.fingerprint, actor)).toMatchObject({ status: "erased" });
    // The person's id leaves the items of every run; the others keep their order, the counts stay.
    for (const id of [finished, underWay]) {
      expect(await first("SELECT items, total, done FROM jobs WHERE id = ?1", id)).toEqual({ items: JSON.stringify([other, other + 1]), total: 3, done: 3 });
    }
    // Only a hash of the IBAN stays (no person, no IBAN).
    expect(await first("SELECT count(*) AS n FROM erased_ibans WHERE iban_hash = ?1", await erasedIbanHash(person.iban))).toEqual({ n: 1 });

    // A statement imported later: the erased payer's booking (IBAN written another way) keeps
    // amount and date, neither name nor IBAN nor remittance, and is linked to no one.
    const transaction = (position: number, name: string, iban: string, remittance: string) => ({
      position,
      direction: "CRDT" as const,
      amount: 2500 + position,
      bookingDate: "2026-11-20",
      valueDate: "2026-11-20",
      bankReference: `SPAET-${position}-${person.id}`,
      endToEndId: null,
      batchReference: null,
      mandateId: position === 0 ? `WUFF-${person.id}-1` : null,
      counterpartyName: name,
      counterpartyIban: iban,
      remittance,
      isReturn: false,
      returnReason: null,
    });
    // The same statement, imported once and again.
    const importLate = (transactions: ReturnType<typeof transaction>[]) =>
      importStatement(
        db,
        { fileName: "auszug-spaet.xml", statement: { format: "CAMT053", accountIban: null, statementId: `spaet-${person.id}`, transactions } },
        actor,
      );
    const imported = await importLate([
      transaction(
        0,
        `Erna ${person.lastName}`,
        person.iban
          .toLowerCase()
          .replace(/(.{4})/g, "$1 ")
          .trim(),
        `Beitrag ${person.lastName}`,
      ),
      transaction(1, "Fritz Fremd", "DE02120300000000202051", "Beitrag Fremd"),
    ]);
    const entries = await all(
      "SELECT position, amount, booking_date, counterparty_name, counterparty_iban, mandate_id, remittance, note, target_id FROM bank_statement_entries WHERE import_id = ?1 ORDER BY position",
      imported.importId,
    );
    expect(entries[0]).toEqual({
      position: 0,
      amount: 2500,
      booking_date: "2026-11-20",
      counterparty_name: null,
      counterparty_iban: null,
      mandate_id: null,
      remittance: "",
      note: expect.stringContaining(ANONYMISED_NOTE),
      target_id: null,
    });
    expect(entries[1]).toMatchObject({ counterparty_name: "Fritz Fremd", counterparty_iban: "DE02120300000000202051", remittance: "Beitrag Fremd" });
    expect(await personalTraces([person.lastName, person.iban], { invoices: [person.invoice], fees: [person.fee] })).toEqual([]);
    // A re-import of the statement finds the booking and does not bring the name back.
    const again = await importLate([transaction(0, `Erna ${person.lastName}`, person.iban, "x")]);
    expect(again.duplicates).toBe(1);
  });

  it("deletes a person without bookkeeping records completely", async () => {
    const person = await makePerson("Ganz", { withBooks: false });
    // A withdrawal they declared without signing in, under their address (§ 356a BGB): it goes too.
    await run(
      "INSERT INTO withdrawal_declarations (received_on, received_from, name, email, contract) VALUES ('2026-11-20T10:00:00.000Z', '192.0.2.7', ?1, ?2, 'Kurs mit Bello')",
      `Erna ${person.lastName}`,
      person.email,
    );
    const plan = (await erasurePlan(db, person.id))!;
    expect(plan.deletePerson).toBe(true);
    expect(await erasePerson(db, plan, plan.fingerprint, actor)).toMatchObject({ status: "erased", deleted: true });
    expect(await first("SELECT id FROM people WHERE id = ?1", person.id)).toBeUndefined();
    expect(await personalTraces([person.lastName, person.email, person.iban], { invoices: [], fees: [] })).toEqual([]);
  });

  it("refuses when the person changed since the preview, and changes nothing", async () => {
    const person = await makePerson("Stale", { withBooks: false });
    const plan = (await erasurePlan(db, person.id))!;
    await run("UPDATE people SET comments = 'neu', row_version = row_version + 1 WHERE id = ?1", person.id);
    expect(await erasePerson(db, plan, plan.fingerprint, actor)).toEqual({ status: "refused", message: ERASURE_CHANGED });
    // Also when the fingerprint is current but a record appears between the plan and the batch.
    const fresh = (await erasurePlan(db, person.id))!;
    await run("INSERT INTO dogs (owner_id, common_name) VALUES (?1, 'Nachzügler')", person.id);
    expect(await erasePerson(db, fresh, fresh.fingerprint, actor)).toEqual({ status: "refused", message: ERASURE_CHANGED });
    expect(await first("SELECT last_name FROM people WHERE id = ?1", person.id)).toEqual({ last_name: person.lastName });
  });

  it("keeps a mandate while a debit is pending", async () => {
    const person = await makePerson("Mandat", { pendingDebit: true });
    const plan = (await erasurePlan(db, person.id))!;
    await erasePerson(db, plan, plan.fingerprint, actor);
    expect(await all("SELECT iban FROM sepa_mandates WHERE person_id = ?1", person.id)).toEqual([{ iban: person.iban }]);
  });

  it("keeps a mandate while a Lastschriftlauf with the person is prepared, in the erasure and in the cron alike", async () => {
    const person = await makePerson("Vorbereitet");
    // A fee billed by invoice, paid, but in a run whose file has not gone to the bank yet.
    const debitRun = await makeDebitRun("PREPARED");
    const fee = Number(
      (await first(
        "INSERT INTO fees (person_id, date, text, amount, open_amount, send_invoice) VALUES (?1, '2026-10-01', 'Beitrag', 3000, 0, 1) RETURNING id",
        person.id,
      ))!.id,
    );
    await run(
      `INSERT INTO direct_debit_items (run_id, fee_id, person_id, mandate_id, mandate_reference, mandate_date, account_holder, iban, end_to_end_id, sequence_type, due_date, collection_date, amount)
       VALUES (?1, ?2, ?3, ?4, 'WUFF-X', '2025-01-01', 'Erna', ?5, 'E2E-Vorbereitet-2', 'RCUR', '2026-11-01', '2026-11-01', 3000)`,
      debitRun,
      fee,
      person.id,
      person.mandate,
      person.iban,
    );
    const plan = (await erasurePlan(db, person.id))!;
    expect(plan.retain.find((item) => item.table === "sepa_mandates")).toMatchObject({ id: person.mandate });
    await erasePerson(db, plan, plan.fingerprint, actor);
    await eraseExpiredRemains(env, db, new Date("2026-11-25T06:00:00Z"));
    expect(await all("SELECT id FROM sepa_mandates WHERE id = ?1", person.mandate)).toEqual([{ id: person.mandate }]);
    // Once the file has gone to the bank, the cron erases the mandate.
    await run("UPDATE direct_debit_runs SET status = 'SUBMITTED' WHERE id = ?1", debitRun);
    expect((await eraseExpiredRemains(env, db, new Date("2026-11-26T06:00:00Z"))).mandateIds).toEqual([person.mandate]);
    expect(await all("SELECT id FROM sepa_mandates WHERE id = ?1", person.mandate)).toEqual([]);
  });

  it("posts the erasure from the dialog as GDPR: the typed name must match; STAFF and FINANCE are refused", async () => {
    const person = await makePerson("Dialog", { withBooks: false });
    const plan = (await erasurePlan(db, person.id))!;
    const form = { intent: "erasure:erase", id: person.id, fingerprint: plan.fingerprint };
    for (const role of ["staff", "finance"] as const) {
      const refused = await postForm(`/people?dialog=erasure-preview&dialogId=${person.id}`, await loginCookie(role), {
        ...form,
        confirmName: person.fullName,
      });
      expect(refused.status).toBe(302);
      expect(refused.headers.get("Location")).toBe("/");
      expect(toastOf(refused)?.message).toContain("Zugriff verweigert");
    }
    expect(await first("SELECT id FROM people WHERE id = ?1", person.id)).toBeTruthy();
    const cookie = await loginCookie("gdpr");
    const wrong = await postForm(`/people?dialog=erasure-preview&dialogId=${person.id}`, cookie, { ...form, confirmName: "Jemand Anders" });
    expect(wrong.status).toBe(400);
    expect(await first("SELECT id FROM people WHERE id = ?1", person.id)).toBeTruthy();
    const done = await postForm(`/people?dialog=erasure-preview&dialogId=${person.id}`, cookie, {
      ...form,
      confirmName: ` erna  ${person.lastName.toLowerCase()} `,
    });
    expect(done.status).toBe(302);
    expect(toastOf(done)?.message).toContain("gelöscht");
    expect(await first("SELECT id FROM people WHERE id = ?1", person.id)).toBeUndefined();
  });
});

/** What a run of the cron returns when nothing has expired. */
const NOTHING_EXPIRED = {
  paymentIds: [],
  reminderIds: [],
  reminderPdfKeys: [],
  invoiceIds: [],
  strippedInvoiceIds: [],
  invoiceRowIds: [],
  pdfPaths: [],
  bankEntryIds: [],
  debitItemIds: [],
  molliePaymentIds: [],
  feeIds: [],
  receiptIds: [],
  receiptPdfKeys: [],
  mandateIds: [],
  personIds: [],
};

describe("the retention cron", () => {
  it("erases what has expired and nothing else, idempotently", async () => {
    const old = await makePerson("Alt", { invoiceDate: "2014-06-01" });
    const recent = await makePerson("Neu", { invoiceDate: "2020-06-01" });
    const living = await makePerson("Lebt", { invoiceDate: "2014-06-01" });
    // Each has a reminder (Mahnung) of their invoice with its letter in R2, a Lastschrift of their
    // fee and a bank statement entry booked to their invoice: they go with their invoice and fee.
    const oldReminder = old.reminder;
    const recentReminder = recent.reminder;
    for (const person of [old, recent]) {
      const plan = (await erasurePlan(db, person.id))!;
      await erasePerson(db, plan, plan.fingerprint, actor);
    }
    // History of the old invoice's row, as the triggers would have written it.
    const oldRow = Number((await first("SELECT id FROM invoice_rows WHERE invoice_id = ?1", old.invoice))!.id);
    await run(
      "INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes) VALUES ('invoice_rows', ?1, 'INSERT', 'Anna', '2014-06-01', '{}')",
      oldRow,
    );
    const oldPdf = String((await first("SELECT pdf_file_path FROM invoice_headers WHERE id = ?1", old.invoice))!.pdf_file_path);
    // The journal entry that paid the old invoice in 2014: its ten years have ended too.
    const oldPayment = Number((await first("SELECT payment_id AS id FROM payment_allocations WHERE invoice_id = ?1", old.invoice))!.id);
    const invoicesBefore = await all("SELECT id FROM invoice_headers WHERE id <> ?1 ORDER BY id", old.invoice);
    const feesBefore = await all("SELECT id FROM fees WHERE id <> ?1 ORDER BY id", old.fee);

    const remains = await eraseExpiredRemains(env, db, new Date("2026-11-25T06:00:00Z"));
    expect(remains).toMatchObject({
      invoiceIds: [old.invoice],
      invoiceRowIds: [oldRow],
      feeIds: [old.fee],
      reminderIds: [oldReminder],
      reminderPdfKeys: [old.letter],
      bankEntryIds: [old.bookedEntry],
      debitItemIds: [old.debitItem],
      molliePaymentIds: ["tr_Alt"],
      strippedInvoiceIds: [],
      paymentIds: [oldPayment],
      personIds: [old.id],
    });
    expect(await all("SELECT id FROM reminders WHERE id IN (?1, ?2)", oldReminder, recentReminder)).toEqual([{ id: recentReminder }]);
    // The reminder letter goes from R2; the payer's name and IBAN of the booking go with it.
    expect(await env.INVOICES.head(old.letter)).toBeNull();
    expect(await env.INVOICES.head(recent.letter)).not.toBeNull();
    expect(await all("SELECT id FROM bank_statement_entries WHERE id IN (?1, ?2)", old.bookedEntry, recent.bookedEntry)).toEqual([{ id: recent.bookedEntry }]);
    expect(await all("SELECT id FROM direct_debit_items WHERE id IN (?1, ?2)", old.debitItem, recent.debitItem)).toEqual([{ id: recent.debitItem }]);
    // Nothing of the old person is left anywhere (the living person of 2014 keeps hers).
    expect(await personalTraces([old.lastName, old.email, old.phone, old.iban], { invoices: [], fees: [] })).toEqual([]);
    expect(await all("SELECT id FROM change_history WHERE table_name = 'invoice_rows' AND record_id = ?1", oldRow)).toEqual([]);
    expect(await first("SELECT id FROM people WHERE id = ?1", old.id)).toBeUndefined();
    expect(await first("SELECT id FROM invoice_headers WHERE id = ?1", old.invoice)).toBeUndefined();
    expect(await env.INVOICES.head(oldPdf)).toBeNull();
    // Nothing else: the erased person of 2020 (until 31.12.2030) and a living person of 2014 keep everything.
    expect(await all("SELECT id FROM invoice_headers WHERE id <> ?1 ORDER BY id", old.invoice)).toEqual(invoicesBefore);
    expect(await all("SELECT id FROM fees WHERE id <> ?1 ORDER BY id", old.fee)).toEqual(feesBefore);
    expect(await first("SELECT last_name, retained_until FROM people WHERE id = ?1", recent.id)).toEqual({
      last_name: "Gelöschte Person",
      retained_until: "2030-12-31",
    });
    expect(await first("SELECT last_name FROM people WHERE id = ?1", living.id)).toEqual({ last_name: living.lastName });
    // A second run finds nothing.
    expect(await eraseExpiredRemains(env, db, new Date("2026-11-25T07:00:00Z"))).toEqual(NOTHING_EXPIRED);
  });
});

describe("retention per kind of record (§ 147 AO)", () => {
  it("keeps letters 6, vouchers 8 and the journal 10 years; a paid invoice stays as a bare header while its journal entry does", async () => {
    const person = await makePerson("Fristen", { invoiceDate: "2016-05-01" });
    // Paid through the journal in 2016: the entry names the invoice until the end of 2026.
    const invoiceNumber = (await first("SELECT invoice_number AS n, amount FROM invoice_headers WHERE id = ?1", person.invoice))!;
    const payment = Number((await first("SELECT payment_id AS id FROM payment_allocations WHERE invoice_id = ?1", person.invoice))!.id);
    const plan = (await erasurePlan(db, person.id))!;
    expect(plan.retain.find((item) => item.table === "reminders")).toMatchObject({ until: "2022-12-31" });
    expect(plan.retain.find((item) => item.table === "invoice_headers")).toMatchObject({ until: "2024-12-31" });
    expect(plan.retain.find((item) => item.table === "payments")).toMatchObject({ until: "2026-12-31" });
    expect(plan.retainedUntil).toBe("2026-12-31");
    await erasePerson(db, plan, plan.fingerprint, actor);
    // The retention screen's schedule names each kind at the end of its period (seen from 2020).
    const schedule = await retentionSchedule(db, "2020-06-01");
    expect(schedule).toContainEqual({ until: "2022-12-31", kind: "letters", records: "1 Mahnung" });
    expect(schedule).toContainEqual({ until: "2024-12-31", kind: "vouchers", records: "1 Rechnung, 1 Posten, 1 Lastschrift" });
    expect(schedule).toContainEqual({ until: "2026-12-31", kind: "books", records: "1 Buchung im Zahlungsjournal" });
    // Seen from 2023 the letter's date has passed: it is no longer listed.
    expect(await retentionSchedule(db, "2023-06-01")).not.toContainEqual(expect.objectContaining({ until: "2022-12-31" }));
    // The erased people come from their own index (people_erased_idx), not from every person.
    const erasedPlan = await env.DB.prepare(
      "EXPLAIN QUERY PLAN SELECT count(*) FROM fees WHERE person_id IN (SELECT id FROM people WHERE erased_on IS NOT NULL)",
    ).all<{ detail: string }>();
    expect(erasedPlan.results.map((row) => row.detail).join("\n")).toMatch(/people USING COVERING INDEX people_erased_idx/);

    // 2023: the business letter has gone, the vouchers and the journal stay.
    const letters = await eraseExpiredRemains(env, db, new Date("2023-01-02T06:00:00Z"));
    expect(letters).toMatchObject({ reminderIds: [person.reminder], reminderPdfKeys: [person.letter], invoiceIds: [], strippedInvoiceIds: [], paymentIds: [] });
    expect(await env.INVOICES.head(person.letter)).toBeNull();
    const pdf = String((await first("SELECT pdf_file_path FROM invoice_headers WHERE id = ?1", person.invoice))!.pdf_file_path);
    expect(await env.INVOICES.head(pdf)).not.toBeNull();

    // 2025: the vouchers have gone; the invoice the journal names keeps its number, date and amount only.
    const vouchers = await eraseExpiredRemains(env, db, new Date("2025-01-02T06:00:00Z"));
    expect(vouchers).toMatchObject({
      invoiceIds: [],
      strippedInvoiceIds: [person.invoice],
      feeIds: [person.fee],
      bankEntryIds: [person.bookedEntry],
      debitItemIds: [person.debitItem],
      molliePaymentIds: ["tr_Fristen"],
      paymentIds: [],
      personIds: [],
    });
    expect(await env.INVOICES.head(pdf)).toBeNull();
    expect(
      await first(
        "SELECT invoice_number AS n, amount, date, issued_first_name AS first, issued_last_name AS last, issued_city AS city, pdf_file_path AS pdf FROM invoice_headers WHERE id = ?1",
        person.invoice,
      ),
    ).toEqual({ ...invoiceNumber, date: "2016-05-01", first: "", last: "Gelöschte Person", city: null, pdf: null });
    expect(await all("SELECT id FROM invoice_rows WHERE invoice_id = ?1", person.invoice)).toEqual([]);
    expect(await all("SELECT id FROM payment_allocations WHERE payment_id = ?1", payment)).toHaveLength(1);
    expect(await first("SELECT retained_until FROM people WHERE id = ?1", person.id)).toEqual({ retained_until: "2026-12-31" });
    expect(await personalTraces([person.lastName, person.email, person.phone, person.iban], { invoices: [], fees: [] })).toEqual([]);
    expect(await eraseExpiredRemains(env, db, new Date("2025-01-02T07:00:00Z"))).toEqual(NOTHING_EXPIRED);

    // 2027: the journal's period has ended too: entry, header and person go.
    const books = await eraseExpiredRemains(env, db, new Date("2027-01-02T06:00:00Z"));
    expect(books).toMatchObject({ paymentIds: [payment], invoiceIds: [person.invoice], personIds: [person.id] });
    expect(await first("SELECT id FROM people WHERE id = ?1", person.id)).toBeUndefined();
    expect(await eraseExpiredRemains(env, db, new Date("2027-01-02T07:00:00Z"))).toEqual(NOTHING_EXPIRED);
  });
});

describe("retention of a payment for someone else", () => {
  it("keeps the journal entry of an erased parent that paid a child's invoice: the child's books still need it", async () => {
    const parent = await makePerson("Elternteil", { withBooks: false });
    const child = await makePerson("Kind", { withBooks: false });
    const number = Number((await first("SELECT max(invoice_number) + 1 AS n FROM invoice_headers"))!.n);
    const invoice = Number(
      (await first("INSERT INTO invoice_headers (person_id, date, amount, open_amount) VALUES (?1, '2016-05-01', 5000, 0) RETURNING id", child.id))!.id,
    );
    await run("INSERT INTO invoice_rows (invoice_id, text, amount) VALUES (?1, 'Welpenkurs', 5000)", invoice);
    await issueTestInvoice(invoice, number, null, "2016-05-01T09:00:00.000Z");
    const payment = Number(
      (await first(
        "INSERT INTO payments (entry_key, person_id, date, amount, method, source, text, created_by, created_on) VALUES (?1, ?2, '2016-06-01', 5000, 'TRANSFER', 'MANUAL', 'Für das Kind', 'Test', '2016-06-01T10:00:00Z') RETURNING id",
        `test:eltern-${parent.id}`,
        parent.id,
      ))!.id,
    );
    await run(
      "INSERT INTO payment_allocations (payment_id, invoice_id, amount, created_by, created_on) VALUES (?1, ?2, 5000, 'Test', '2016-06-01T10:00:00Z')",
      payment,
      invoice,
    );
    const plan = (await erasurePlan(db, parent.id))!;
    await erasePerson(db, plan, plan.fingerprint, actor);
    // Past the journal's ten years: the parent's entry stays, for the child's invoice it paid.
    const remains = await eraseExpiredRemains(env, db, new Date("2027-01-02T06:00:00Z"));
    expect(remains.paymentIds).not.toContain(payment);
    expect(remains.personIds).not.toContain(parent.id);
    expect(
      await first(
        "SELECT open_amount AS open, (SELECT sum(amount) FROM payment_allocations WHERE invoice_id = ?1) AS paid FROM invoice_headers WHERE id = ?1",
        invoice,
      ),
    ).toEqual({
      open: 0,
      paid: 5000,
    });
  });
});

describe("the retention cron and reminder letters", () => {
  it("keeps a letter in R2 while a reminder still retained shares it", async () => {
    const person = await makePerson("Brief", { invoiceDate: "2013-06-01" });
    // A later invoice of theirs, reminded in the same letter (one letter per person and run).
    const number = Number((await first("SELECT coalesce(max(invoice_number), 0) + 1 AS n FROM invoice_headers"))!.n);
    const later = Number(
      (await first(
        "INSERT INTO invoice_headers (person_id, invoice_number, status, issued_on, date, amount, open_amount) VALUES (?1, ?2, 'ISSUED', '2020-06-01T09:00:00Z', '2020-06-01', 5000, 5000) RETURNING id",
        person.id,
        number,
      ))!.id,
    );
    await run(
      "INSERT INTO reminders (target_type, target_id, person_id, level, date, new_due_date, status, pdf_key) VALUES ('INVOICE', ?1, ?2, 1, '2020-07-01', '2020-07-15', 'SENT', ?3)",
      later,
      person.id,
      person.letter,
    );
    const plan = (await erasurePlan(db, person.id))!;
    await erasePerson(db, plan, plan.fingerprint, actor);
    const remains = await eraseExpiredRemains(env, db, new Date("2026-11-25T06:00:00Z"));
    expect(remains.reminderIds).toContain(person.reminder);
    expect(remains.reminderPdfKeys).not.toContain(person.letter);
    expect(await env.INVOICES.head(person.letter)).not.toBeNull();
  });
});

describe("the retention cron and a Mahnlauf's print PDF", () => {
  it("removes the run's print PDF with a posted letter that expires; the next download renders it from the letters kept", async () => {
    const person = await makePerson("Druck", { invoiceDate: "2014-06-01" });
    const runId = Number((await first("INSERT INTO jobs (type, status) VALUES ('REMINDERS', 'DONE') RETURNING id"))!.id);
    await run("UPDATE reminders SET channel = 'PRINT', job_id = ?1 WHERE id = ?2", runId, person.reminder);
    const printKey = `Mahnlauf_${runId}_Druck.pdf`;
    await env.INVOICES.put(printKey, new TextEncoder().encode(`%PDF-1.4 ${person.lastName}`));
    const plan = (await erasurePlan(db, person.id))!;
    await erasePerson(db, plan, plan.fingerprint, actor);
    // A business letter, retained until the end of 2014+6: the print PDF stays with the letter meanwhile.
    expect((await eraseExpiredRemains(env, db, new Date("2020-11-25T06:00:00Z"))).reminderPdfKeys).toEqual([]);
    expect(await env.INVOICES.head(printKey)).not.toBeNull();
    const remains = await eraseExpiredRemains(env, db, new Date("2026-11-25T06:00:00Z"));
    expect(remains.reminderPdfKeys).toEqual([person.letter, printKey]);
    expect(await env.INVOICES.head(printKey)).toBeNull();
    expect(await env.INVOICES.head(person.letter)).toBeNull();
  });
});

describe("retention overview", () => {
  it("saves N years in Einstellungen for GDPR, refuses bad input in German, and refuses STAFF and FINANCE", async () => {
    const cookie = await loginCookie("gdpr");
    for (const bad of ["0", "31", "drei", "2.5", ""]) {
      const response = await postForm("/gdpr", cookie, { intent: "retentionYears", years: bad });
      expect(response.status, bad).toBe(400);
      expect(await response.text()).toContain("Bitte eine ganze Zahl von 1 bis 30 Jahren eingeben.");
    }
    expect(await first("SELECT retention_years FROM configuration WHERE id = 1")).toEqual({ retention_years: 3 });
    for (const role of ["staff", "finance"] as const) {
      const refused = await postForm("/gdpr", await loginCookie(role), { intent: "retentionYears", years: "5" });
      expect(refused.status).toBe(302);
      expect(refused.headers.get("Location")).toBe("/");
      // Nor do they see the erasure preview from a page they may use.
      const page = await (await fetchApp(`/people?dialog=erasure-preview&dialogId=${demoPersonId}`, { cookie: await loginCookie(role) })).text();
      expect(page).not.toContain("Endgültig löschen");
    }
    const saved = await postForm("/gdpr", cookie, { intent: "retentionYears", years: "5" });
    expect(saved.status).toBe(302);
    expect(toastOf(saved)?.message).toContain("5 Jahre");
    expect(await first("SELECT retention_years FROM configuration WHERE id = 1")).toEqual({ retention_years: 5 });
    const response = await fetchApp("/gdpr", { cookie });
    // The years, the cutoff and both lists with the session lookup: one round trip to D1.
    expect(response.headers.get("Server-Timing")).toContain('desc="1 D1-Abfragen"');
    const page = await response.text();
    // The count once, as every grid shows it (not again in the title).
    expect(page.replaceAll("<!-- -->", "")).toMatch(/>Ausgetreten vor mehr als 5 Jahren <span[^>]*>\(\d+\)<\/span>/);
    // The periods per kind of record, and what of erased people may go when (issue 30 item 5):
    // the person erased above with an invoice of 2020 keeps its journal entry until the end of 2030.
    const text = page
      .replaceAll("<!-- -->", "")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
    expect(text).toContain("Buchungsbelege 8 Jahre Rechnungen, Stornorechnungen und Gutschriften");
    expect(text).toContain("Bücher 10 Jahre Zahlungsjournal");
    expect(text).toContain("Geschäftsbriefe 6 Jahre Mahnungen");
    expect(text).toMatch(/31\.12\.2030 Bücher \d+ Buchung(en)? im Zahlungsjournal/);
    await run("UPDATE configuration SET retention_years = 3 WHERE id = 1");
  });

  it("lists members who left more than N years ago and people without activity", async () => {
    const left = Number(
      (await first(
        "INSERT INTO people (first_name, last_name, member_type_id, is_member, member_since, member_until, created_on) VALUES ('Otto', 'Ausgetreten', 1, 0, '2000-01-01', '2019-12-31', '2000-01-01T00:00:00Z') RETURNING id",
      ))!.id,
    );
    const idle = Number(
      (await first("INSERT INTO people (first_name, last_name, member_type_id, created_on) VALUES ('Ida', 'Untätig', 1, '2018-01-01T00:00:00Z') RETURNING id"))!
        .id,
    );
    const busy = Number(
      (await first(
        "INSERT INTO people (first_name, last_name, member_type_id, created_on) VALUES ('Bea', 'Beschäftigt', 1, '2018-01-01T00:00:00Z') RETURNING id",
      ))!.id,
    );
    await run("INSERT INTO fees (person_id, date, text, amount, open_amount) VALUES (?1, '2026-01-01', 'Neu', 100, 0)", busy);
    const { left: leftList, inactive } = await retentionLists(db, 3, "2026-11-25");
    expect(leftList.map((row) => row.id)).toContain(left);
    expect(inactive.map((row) => row.id)).toContain(idle);
    expect(inactive.map((row) => row.id)).not.toContain(busy);
    expect(inactive.map((row) => row.id)).not.toContain(left);
  });

  it("a page of the 'left' list is the whole list's slice, in order of leaving and name (DIN 5007), with the whole count", async () => {
    const leftOn = (lastName: string) =>
      first(
        "INSERT INTO people (first_name, last_name, member_type_id, is_member, member_since, member_until) VALUES ('Test', ?1, 1, 0, '2001-01-01', '2019-06-30') RETURNING id",
        lastName,
      ).then((row) => Number(row!.id));
    const [ozturk, ohm, ozean] = [await leftOn("Öztürk"), await leftOn("Ohm"), await leftOn("Ozean")];
    const cutoff = await retentionCutoff(db, 3, "2026-11-25");
    const whole = await retentionList(db, "left", cutoff, "2026-11-25");
    const ours = whole.rows.map((row) => row.id).filter((id) => [ozturk, ohm, ozean].includes(id));
    expect(ours).toEqual([ohm, ozean, ozturk]);
    expect(whole.total).toBe(whole.rows.length);
    for (let offset = 0; offset < whole.total; offset += 2) {
      const page = await retentionList(db, "left", cutoff, "2026-11-25", { offset, limit: 2 });
      expect(page).toEqual({ rows: whole.rows.slice(offset, offset + 2), total: whole.total });
    }
  });
});
