/**
 * Turns seed data into SQL statements in foreign-key order. The same statements are executed by
 * `npm run db:seed` (through wrangler, into local D1) and by the integration tests (into the test
 * D1), so the tests prove exactly what a fresh start loads.
 */
import { is, sql, SQL, type Table, getTableName } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { cashEntryInsert, JOURNAL_CASH_BOX } from "../cash-book";
import { storedColumns } from "../columns";
import { DERIVED_COLUMNS } from "../derived";
import * as schema from "../schema";
import type { SeedData } from "./generate";

/** Insert order: every table after the tables it references. */
const INSERT_ORDER: [keyof SeedData, Table][] = [
  ["configuration", schema.configuration],
  ["memberTypes", schema.memberTypes],
  ["membershipStatuses", schema.membershipStatuses],
  ["locations", schema.locations],
  ["courseMasters", schema.courseMasters],
  ["certificationMasters", schema.certificationMasters],
  ["people", schema.people],
  ["sepaMandates", schema.sepaMandates],
  ["dogs", schema.dogs],
  ["courses", schema.courses],
  ["courseDates", schema.courseDates],
  // Course memberships and fees point at each other: memberships go in first without their
  // feeId, the fees next, and LINK_MEMBERSHIP_FEES sets course_memberships.fee_id afterwards.
  ["courseMemberships", schema.courseMemberships],
  ["fees", schema.fees],
  ["attendances", schema.attendances],
  ["certifications", schema.certifications],
  ["invoiceHeaders", schema.invoiceHeaders],
  ["invoiceRows", schema.invoiceRows],
  // The journal's allocations lower the open amounts (its trigger), as a payment in the app does.
  ["payments", schema.payments],
  ["paymentAllocations", schema.paymentAllocations],
  // After their fees and the entries that pay them (the donation triggers check both).
  ["donations", schema.donations],
  ["mailshots", schema.mailshots],
  // Karten & Abos (issue 34): the products and where they are valid, the cards sold, their fees and uses.
  ["cardProducts", schema.cardProducts],
  ["cardProductScopes", schema.cardProductScopes],
  ["cards", schema.cards],
  ["cardFees", schema.cardFees],
  ["cardUses", schema.cardUses],
];

const LINK_MEMBERSHIP_FEES =
  "UPDATE course_memberships SET fee_id = (SELECT fees.id FROM fees WHERE fees.course_membership_id = course_memberships.id) WHERE fee_id IS NULL";

/** Every table the seed fills, children first: the order to empty them in. */
export const TABLES_CHILDREN_FIRST = [...INSERT_ORDER].reverse().map(([, table]) => getTableName(table));

function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Ungültige Zahl im Seed: ${value}`);
    return String(value);
  }
  return `'${String(value).replaceAll("'", "''")}'`;
}

/** Multi-row INSERTs (chunks of `rowsPerStatement`) with SQL column names and literal values. */
function insertStatements(table: Table, rows: Record<string, unknown>[], existing?: ExistingColumns, rowsPerStatement = 100): string[] {
  // What the database derives itself (app/db/derived.ts) is never written; nor a column the
  // database does not have yet (a migration test seeding a database of before a migration).
  const there = existing?.(getTableName(table));
  // Not into a database of before the table (a migration test seeding an older schema).
  if (existing && !there) return [];
  const columns = storedColumns(table).filter(([, column]) => !DERIVED_COLUMNS.includes(column.name) && (!there || there.has(column.name)));
  const columnList = columns.map(([, column]) => `"${column.name}"`).join(", ");
  const statements: string[] = [];
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const values = rows.slice(start, start + rowsPerStatement).map((row) => {
      const literals = columns.map(([key, column]) => {
        const value = row[key];
        // Leave out nothing: a missing value takes the column's plain default, as an insert would.
        if (value === undefined && column.hasDefault && !is(column.default, SQL)) return sqlLiteral(column.default);
        return sqlLiteral(value);
      });
      return `(${literals.join(", ")})`;
    });
    statements.push(`INSERT INTO "${getTableName(table)}" (${columnList}) VALUES\n${values.join(",\n")};`);
  }
  return statements;
}

/** An entry of the Kasse after its last one, as 'Buchung erfassen' writes it (by the System). */
const cashBookStatement = (entry: SeedData["cashBook"][number]) => {
  const literal = (value: unknown) => sql.raw(sqlLiteral(value));
  const insert = cashEntryInsert({
    box: literal(JOURNAL_CASH_BOX),
    entryKey: literal(null),
    date: literal(entry.date),
    kind: literal(entry.kind),
    amount: literal(entry.amount),
    text: literal(entry.text),
    paymentId: literal(null),
    reversesEntryId: literal(null),
    account: literal(null),
    createdBy: literal("System"),
    createdOn: literal(`${entry.date}T17:00:00.000Z`),
  });
  return `${new SQLiteSyncDialect().sqlToQuery(insert).sql};`;
};

/** All statements that load `data` into an empty, migrated database. */
/** The columns a table has in the database written to (undefined: all of the schema). */
export type ExistingColumns = (table: string) => ReadonlySet<string> | undefined;

export function seedStatements(data: SeedData, existing?: ExistingColumns): string[] {
  // The Änderungsverlauf names the seed as how the records came (app/db/history.ts).
  const statements: string[] = ["INSERT OR REPLACE INTO write_context (id, actor, action, source) VALUES (1, 'System', NULL, 'Seed/Import');"];
  // What the journal's allocations lower (their trigger): the records go in with it added.
  const allocated = (target: "feeId" | "invoiceId") => {
    const sums = new Map<number, number>();
    for (const allocation of data.paymentAllocations) {
      const id = allocation[target];
      if (id) sums.set(id, (sums.get(id) ?? 0) + allocation.amount);
    }
    return (row: Record<string, unknown>) => ({ ...row, openAmount: Number(row.openAmount) + (sums.get(Number(row.id)) ?? 0) });
  };
  const unpaidFee = allocated("feeId");
  const unpaidInvoice = allocated("invoiceId");
  for (const [key, table] of INSERT_ORDER) {
    const rows = data[key] as Record<string, unknown>[];
    // course_memberships.fee_id is linked after the fees exist (see INSERT_ORDER); invoices go in
    // as drafts and are issued once their rows are there (an issued invoice's rows are frozen).
    const prepared =
      key === "courseMemberships"
        ? rows.map((row) => ({ ...row, feeId: null }))
        : key === "invoiceHeaders"
          ? rows.map((row) => ({ ...unpaidInvoice(row), status: "DRAFT", invoiceNumber: null, issuedOn: null }))
          : key === "fees"
            ? rows.map(unpaidFee)
            : key === "payments"
              ? // In date order: each cash payment becomes the Kasse's next entry (app/db/cash-book.ts).
                [...rows].sort((a, b) => String(a.date).localeCompare(String(b.date)) || Number(a.id) - Number(b.id))
              : rows;
    statements.push(...insertStatements(table, prepared, existing));
  }
  statements.push(`${LINK_MEMBERSHIP_FEES};`);
  // The Kasse's entries without a person, after its cash payments (not into a database of before the Kassenbuch).
  if (!existing || existing("cash_entries")) statements.push(...data.cashBook.map(cashBookStatement));
  const issued = data.invoiceHeaders.filter((header) => header.status === "ISSUED").map(({ id, invoiceNumber, issuedOn }) => ({ id, invoiceNumber, issuedOn }));
  if (issued.length > 0) {
    statements.push(
      `UPDATE invoice_headers SET status = 'ISSUED', invoice_number = json_extract(j.value, '$.invoiceNumber'), issued_on = json_extract(j.value, '$.issuedOn')
        FROM json_each(${sqlLiteral(JSON.stringify(issued))}) j WHERE invoice_headers.id = json_extract(j.value, '$.id');`,
    );
  }
  // Templates are the club's own (the mail templates come with the migrations): the demo's are
  // added unless one of the name exists, and a reseed never removes them.
  statements.push(
    ...insertStatements(schema.templates, data.templates, existing).map((statement) => statement.replace(/;$/, " ON CONFLICT (name) DO NOTHING;")),
  );
  // The club's texts for Mein Wuff likewise: a version that exists is never replaced.
  statements.push(
    ...insertStatements(schema.legalTexts, data.legalTexts, existing).map((statement) => statement.replace(/;$/, " ON CONFLICT (kind, version) DO NOTHING;")),
  );
  statements.push("DELETE FROM write_context;");
  return statements;
}
