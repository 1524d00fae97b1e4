import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { databaseErrorOf } from "../support/db-errors";
import { ISSUED } from "../support/invoices";

const db = createDb(env.DB);

/** Columns the migration must create: every stored field of spec §3 (both documents).
 *  Display fields (ownerFullName, ageText, trainerName, actualNrOfDogs, courseName, ...) are
 *  computed by the queries from these. */
const SPEC_COLUMNS: Record<string, string[]> = {
  people: [
    "id",
    "last_name",
    "first_name",
    "full_name",
    "salutation",
    "title",
    "street_number",
    "zip",
    "city",
    "member_since",
    "member_until",
    "is_member",
    "has_gdpr",
    "has_insurance",
    "member_type_id",
    "membership_status_id",
    "hsvrm_nr",
    "is_vorstand",
    "is_trainer",
    "comments",
    "email",
    "home_phone",
    "mobile_phone",
    "date_of_birth",
    "annual_birthday",
  ],
  dogs: ["id", "common_name", "owner_id", "breed", "gender", "date_of_birth", "rabies_valid_until", "chip_nr", "zucht_buch_nr", "comments", "archived"],
  member_types: ["id", "code", "course_price_tier", "annual_fee_tier"],
  membership_statuses: ["id", "name", "code", "is_fee_trigger"],
  course_masters: ["id", "name"],
  locations: ["id", "name"],
  courses: [
    "id",
    "name",
    "start_year",
    "web_time_information",
    "trainer_id",
    "cotrainer_id",
    "start_date_time",
    "max_dogs",
    "nr_of_sessions",
    "cost_full",
    "cost_reduced1",
    "cost_reduced2",
    "status_code",
    "duration_model",
    "pricing_model",
    "location_id",
    "course_master_id",
  ],
  course_memberships: [
    "id",
    "course_id",
    "person_id",
    "dog_id",
    "status_id",
    "fee_id",
    "comments",
    "person_comments",
    "dog_comments",
    "is_paid",
    "price",
    "amount",
    "rabies_valid_until",
    "has_gdpr",
    "has_insurance",
  ],
  course_dates: ["id", "course_id", "start_date_time", "end_date_time", "location_id", "is_all_day", "comments"],
  certification_masters: ["id", "name", "is_person_certification", "is_dog_certification"],
  certifications: ["id", "person_id", "dog_id", "certification_master_id", "date", "comments"],
  fees: [
    "id",
    "person_id",
    "date",
    "due_date",
    "text",
    "amount",
    "open_amount",
    "comments",
    "payment_comments",
    "is_open",
    "send_invoice",
    "is_invoiced",
    "payment_reference",
    "course_membership_id",
  ],
  invoice_headers: [
    "id",
    "person_id",
    "date",
    "sent_date",
    "due_date",
    "amount",
    "open_amount",
    "comments",
    "payment_comments",
    "is_open",
    "invoice_number",
    "pdf_file_path",
  ],
  invoice_rows: ["id", "invoice_id", "fee_id", "line_number", "amount", "text"],
  mailshots: ["id", "name", "recipient_query", "template_name", "subject", "cc", "attach_invoice", "attach_doc_path1", "attach_doc_path2"],
  configuration: [
    "id",
    "club_membership_enrollment_fee",
    "club_membership_price_full",
    "club_membership_price_reduced1",
    "club_membership_price_reduced2",
    "last_invoice_number",
    "hsvrm_verein_name",
    "hsvrm_kg",
    "hsvrm_verein_nr",
    "smtp_test_account",
    "mollie_integration",
    "comments",
  ],
  deleted_records: ["id", "transaction_id", "deleted_on", "deleted_by", "table_name", "identifier1", "identifier2", "identifier3", "json"],
  jobs: ["id", "type", "status", "total", "done", "failed", "message"],
};
const AUDIT_COLUMNS = ["created_by", "created_on", "last_modified_by", "last_modified_on", "row_version"];
const NOT_AUDITED = new Set(["deleted_records"]);

async function columnsOf(table: string): Promise<string[]> {
  const { results } = await env.DB.prepare(`SELECT name FROM pragma_table_xinfo(?)`).bind(table).all<{ name: string }>();
  return results.map((row) => row.name);
}

async function indexedColumns(table: string): Promise<string[]> {
  const { results } = await env.DB.prepare(`SELECT ii.name AS name FROM pragma_index_list(?1) il JOIN pragma_index_info(il.name) ii WHERE ii.seqno = 0`)
    .bind(table)
    .all<{ name: string }>();
  return results.map((row) => row.name);
}

describe("the migration", () => {
  it("creates every entity of both spec documents with the fields of §3, audit fields and rowVersion", async () => {
    for (const [table, expected] of Object.entries(SPEC_COLUMNS)) {
      const actual = await columnsOf(table);
      expect(actual, `${table} fehlt`).not.toHaveLength(0);
      expect(actual, table).toEqual(expect.arrayContaining(expected));
      if (!NOT_AUDITED.has(table)) expect(actual, `${table} Audit`).toEqual(expect.arrayContaining(AUDIT_COLUMNS));
    }
  });

  it("indexes every column the screens filter by", async () => {
    const expectations: [string, string][] = [
      ["dogs", "owner_id"],
      ["course_memberships", "person_id"],
      ["course_memberships", "dog_id"],
      ["course_memberships", "course_id"],
      ["course_memberships", "fee_id"],
      ["courses", "course_master_id"],
      ["course_dates", "course_id"],
      ["certifications", "person_id"],
      ["certifications", "dog_id"],
      ["fees", "person_id"],
      ["fees", "course_membership_id"],
      ["invoice_headers", "person_id"],
      ["invoice_headers", "pdf_file_path"],
      ["invoice_rows", "invoice_id"],
      ["invoice_rows", "fee_id"],
      ["people", "last_name"],
      ["people", "membership_status_id"],
      ["deleted_records", "transaction_id"],
    ];
    for (const [table, column] of expectations) {
      expect(await indexedColumns(table), `${table}.${column}`).toContain(column);
    }
  });
});

describe("constraints keep the data sane", () => {
  let personId: number;

  beforeEach(async () => {
    await db.insert(schema.memberTypes).values({ id: 1, code: "NONE", name: "Kein Mitglied" }).onConflictDoNothing();
    const [person] = await db
      .insert(schema.people)
      .values({ firstName: "Erika", lastName: "Mustermann", memberTypeId: 1, dateOfBirth: "1980-05-17" })
      .returning();
    personId = person.id;
  });

  it("computes fullName and annualBirthday", async () => {
    const [person] = await db.select().from(schema.people).where(eq(schema.people.id, personId));
    expect(person.fullName).toBe("Erika Mustermann");
    expect(person.annualBirthday).toBe("05-17");
    expect(person.rowVersion).toBe(1);
    expect(person.createdOn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("refuses a dog whose owner does not exist", async () => {
    expect(await databaseErrorOf(db.insert(schema.dogs).values({ ownerId: 999_999, commonName: "Bello" }))).toMatch(/FOREIGN KEY constraint failed/);
    await db.insert(schema.dogs).values({ ownerId: personId, commonName: "Bello" });
    expect(await db.$count(schema.dogs)).toBe(1);
  });

  it("refuses a duplicate invoice number", async () => {
    await db.insert(schema.invoiceHeaders).values({ personId, invoiceNumber: 2026001, ...ISSUED, date: "2026-11-01" });
    expect(await databaseErrorOf(db.insert(schema.invoiceHeaders).values({ personId, invoiceNumber: 2026001, ...ISSUED, date: "2026-11-02" }))).toMatch(
      /UNIQUE constraint failed: invoice_headers.invoice_number/,
    );
  });

  it("refuses money that is negative, too large or an open amount above the amount", async () => {
    const fee = { personId, date: "2026-11-01", text: "Einzelstunde" };
    expect(await databaseErrorOf(db.insert(schema.fees).values({ ...fee, amount: -100, openAmount: 0 }))).toMatch(/CHECK constraint failed/);
    expect(await databaseErrorOf(db.insert(schema.fees).values({ ...fee, amount: 100_000_000, openAmount: 0 }))).toMatch(/CHECK constraint failed/);
    expect(await databaseErrorOf(db.insert(schema.fees).values({ ...fee, amount: 1000, openAmount: 1001 }))).toMatch(/CHECK constraint failed/);
    const [ok] = await db
      .insert(schema.fees)
      .values({ ...fee, amount: 1000, openAmount: 1000 })
      .returning();
    expect(ok.isOpen).toBe(true);
    await db.update(schema.fees).set({ openAmount: 0 }).where(eq(schema.fees.id, ok.id));
    const [paid] = await db.select().from(schema.fees).where(eq(schema.fees.id, ok.id));
    expect(paid.isOpen).toBe(false);
  });

  it("refuses impossible dates and fee texts over 100 characters", async () => {
    expect(await databaseErrorOf(db.insert(schema.people).values({ firstName: "A", lastName: "B", memberTypeId: 1, dateOfBirth: "2025-02-29" }))).toMatch(
      /CHECK constraint failed/,
    );
    expect(await databaseErrorOf(db.insert(schema.fees).values({ personId, date: "2026-11-01", text: "x".repeat(101), amount: 1, openAmount: 1 }))).toMatch(
      /CHECK constraint failed/,
    );
  });

  it("charges an annual fee at most once per person and year, and bills a fee on one invoice row only", async () => {
    const annual = { personId, date: "2026-01-15", text: "Jahresbeitrag 2026", amount: 6000, openAmount: 6000, kind: "ANNUAL" as const, periodYear: 2026 };
    const [fee] = await db.insert(schema.fees).values(annual).returning();
    expect(await databaseErrorOf(db.insert(schema.fees).values(annual))).toMatch(/UNIQUE constraint failed/);
    await db.insert(schema.fees).values({ ...annual, periodYear: 2027, text: "Jahresbeitrag 2027" });

    const [invoice] = await db.insert(schema.invoiceHeaders).values({ personId, date: "2026-11-01" }).returning();
    await db.insert(schema.invoiceRows).values({ invoiceId: invoice.id, feeId: fee.id, text: fee.text, amount: fee.amount });
    expect(
      await databaseErrorOf(db.insert(schema.invoiceRows).values({ invoiceId: invoice.id, feeId: fee.id, lineNumber: 2, text: fee.text, amount: fee.amount })),
    ).toMatch(/UNIQUE constraint failed: invoice_rows.fee_id/);
  });

  it("keeps a single configuration row and a unique member type code", async () => {
    await db.insert(schema.configuration).values({ id: 1 });
    expect(await databaseErrorOf(db.insert(schema.configuration).values({ id: 2 }))).toMatch(/CHECK constraint failed/);
    expect(await databaseErrorOf(db.insert(schema.memberTypes).values({ code: "NONE", name: "Doppelt" }))).toMatch(/UNIQUE/);
  });

  it("never reuses the id of a deleted record (the recycle bin restores under the original id)", async () => {
    const [dog] = await db.insert(schema.dogs).values({ ownerId: personId, commonName: "Luna" }).returning();
    await db.delete(schema.dogs).where(eq(schema.dogs.id, dog.id));
    const [next] = await db.insert(schema.dogs).values({ ownerId: personId, commonName: "Balu" }).returning();
    expect(next.id).toBeGreaterThan(dog.id);
  });

  it("accepts only JSON arrays in the recycle bin", async () => {
    const record = { transactionId: 1, deletedOn: "2026-11-22T10:00:00.000Z", deletedBy: "admin", tableName: "dogs" };
    expect(await databaseErrorOf(db.insert(schema.deletedRecords).values({ ...record, json: "{not json" }))).toMatch(/CHECK/);
    expect(await databaseErrorOf(db.insert(schema.deletedRecords).values({ ...record, json: '{"id":1}' }))).toMatch(/CHECK/);
    await db.insert(schema.deletedRecords).values({ ...record, json: '[{"id":1}]' });
    expect(await db.$count(schema.deletedRecords)).toBe(1);
  });
});
