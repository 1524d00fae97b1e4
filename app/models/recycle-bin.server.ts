/**
 * The Papierkorb (deleted_records).
 *
 * Deleting: every deleted record goes into the bin in the same atomic batch as the delete, under
 * one transaction id, as a JSON array whose first element is the record (SQL column names and
 * stored values). SQLite builds the JSON from the row as it is at that moment, not from a copy
 * read before, so nothing that changed in between is lost.
 *
 * Restoring puts records back exactly (same id, same values). Restoring the first record of a
 * transaction (the one the user deleted) brings back everything deleted with it, parents before
 * children, in one atomic batch; a record whose parent is still deleted is refused with a reason.
 */
import { asc, count, desc, eq, getTableName, sql, type SQL, type Table } from "drizzle-orm";
import { type SQLiteTable } from "drizzle-orm/sqlite-core";
import { ABORT_UNLESS_CHANGED, render, runAtomically, writingAs, type Db, type Statement } from "~/db/client.server";
import { errorText, isAbortedAsUnchanged, isFrozenInvoice } from "./constraints.server";
import { storedColumns } from "~/db/columns";
import * as schema from "~/db/schema";
import { PAGE_SIZE } from "~/lib/grid";

/** Records of one table going into the bin: `where` selects them, the identifiers are SQL
 *  expressions over that table's columns (what the bin shows as Feld1..3). */
export type Capture = {
  table: SQLiteTable;
  where: SQL;
  identifiers: [SQL, SQL?, SQL?];
};

/**
 * Records a delete changes instead of deleting (an invoice's fees become billable again): their
 * values before the change go into the same bin transaction, and `set` (SQL assignments) is
 * applied to them, with row_version + 1. Restoring the transaction puts those values back, unless
 * the record was changed again since (then the whole restore is refused).
 */
export type Change = Capture & { set: SQL };

/** json_array(json_object('id', id, 'last_name', last_name, ...)) over the stored columns; a
 *  changed record carries a second element: how to restore it and the version it must still have. */
function recordJson(table: SQLiteTable, changed = false): SQL {
  const pairs = storedColumns(table)
    .map(([, column]) => `'${column.name}', "${column.name}"`)
    .join(", ");
  const marker = changed ? `, json_object('restore', 'update', 'row_version', "row_version" + 1)` : "";
  return sql.raw(`json_array(json_object(${pairs})${marker})`);
}

const NEXT_TRANSACTION = sql`(SELECT coalesce(max(transaction_id), 0) + 1 FROM deleted_records)`;
const THIS_TRANSACTION = sql`(SELECT max(transaction_id) FROM deleted_records)`;

/**
 * The statements (for runAtomically) that move `main` (exactly one record) and its `dependents`
 * into the bin and delete them. Dependents are deleted first, the main record last. If the main
 * record no longer exists, its JSON is NULL, the NOT NULL constraint fails and nothing happens.
 * `changed` records are kept as they were and then changed (before any delete, so their `where`
 * and `set` may still read the records being deleted).
 */
export function recycleStatements(
  db: Db,
  {
    main,
    dependents = [],
    changed = [],
    deletedBy,
    now = new Date(),
  }: { main: Capture; dependents?: Capture[]; changed?: Change[]; deletedBy: string; now?: Date },
): Statement[] {
  const deletedOn = now.toISOString();
  const scalar = (table: SQLiteTable, expression: SQL | undefined, where: SQL) =>
    expression ? sql`(SELECT ${expression} FROM ${table} WHERE ${where})` : sql`NULL`;

  const [id1, id2, id3] = main.identifiers;
  const mainRecord = render(sql`
    INSERT INTO deleted_records (transaction_id, deleted_on, deleted_by, table_name, identifier1, identifier2, identifier3, json)
    VALUES (${NEXT_TRANSACTION}, ${deletedOn}, ${deletedBy}, ${getTableName(main.table)},
      ${scalar(main.table, id1, main.where)}, ${scalar(main.table, id2, main.where)}, ${scalar(main.table, id3, main.where)},
      ${scalar(main.table, recordJson(main.table), main.where)})`);

  const dependentRecords = dependents.map(({ table, where, identifiers: [d1, d2, d3] }) =>
    render(sql`
      INSERT INTO deleted_records (transaction_id, deleted_on, deleted_by, table_name, identifier1, identifier2, identifier3, json)
      SELECT ${THIS_TRANSACTION}, ${deletedOn}, ${deletedBy}, ${getTableName(table)},
        ${d1}, ${d2 ?? sql`NULL`}, ${d3 ?? sql`NULL`}, ${recordJson(table)}
      FROM ${table} WHERE ${where}`),
  );
  const changedRecords = changed.flatMap(({ table, where, set, identifiers: [c1, c2, c3] }) => [
    render(sql`
      INSERT INTO deleted_records (transaction_id, deleted_on, deleted_by, table_name, identifier1, identifier2, identifier3, json)
      SELECT ${THIS_TRANSACTION}, ${deletedOn}, ${deletedBy}, ${getTableName(table)},
        ${c1}, ${c2 ?? sql`NULL`}, ${c3 ?? sql`NULL`}, ${recordJson(table, true)}
      FROM ${table} WHERE ${where}`),
    render(sql`UPDATE ${table} SET ${set}, row_version = row_version + 1 WHERE ${where}`),
  ]);
  const deletes = [...dependents, main].map(({ table, where }) => db.delete(table).where(where).toSQL());
  return [mainRecord, ...dependentRecords, ...changedRecords, ...deletes];
}

/**
 * Moves `main` and its dependents into the bin and deletes them, atomically (recycleStatements);
 * returns the bin's transaction id of this delete, read in the same batch, so 'Rückgängig' restores
 * exactly it.
 */
export async function moveToBin(db: Db, capture: Parameters<typeof recycleStatements>[1]): Promise<number> {
  const results = await runAtomically(db, [...recycleStatements(db, capture), render(sql`SELECT ${THIS_TRANSACTION} AS transaction_id`)]);
  return (results.at(-1)?.results[0] as { transaction_id: number }).transaction_id;
}

/** The first record of a bin transaction (the one the user deleted), or undefined. */
export async function mainRecordOfTransaction(db: Db, transactionId: number): Promise<DeletedRecordRow | undefined> {
  const [record] = await db
    .select()
    .from(schema.deletedRecords)
    .where(eq(schema.deletedRecords.transactionId, transactionId))
    .orderBy(asc(schema.deletedRecords.id))
    .limit(1);
  return record;
}

/** Every table whose records can be in the bin, parents before children (restore order). */
const RESTORABLE: Table[] = [
  schema.locations,
  schema.courseMasters,
  schema.cardProducts,
  schema.certificationMasters,
  schema.people,
  schema.sepaMandates,
  schema.dogs,
  schema.courses,
  schema.cardProductScopes,
  schema.courseDates,
  schema.courseMemberships,
  schema.fees,
  schema.attendances,
  schema.cardUses,
  schema.attendanceSettlements,
  schema.onlineBookings,
  schema.waitlistOffers,
  schema.withdrawalDeclarations,
  schema.certifications,
  schema.invoiceHeaders,
  schema.invoiceRows,
  schema.templates,
  schema.mailshots,
];
const TABLES = new Map(RESTORABLE.map((table) => [getTableName(table), table]));
const RESTORE_ORDER = new Map(RESTORABLE.map((table, index) => [getTableName(table), index]));

export type DeletedRecordRow = typeof schema.deletedRecords.$inferSelect;

/** The bin, newest transaction first, then by who deleted (spec 000 §2 Recycle bin). */
export async function listDeletedRecords(db: Db, page: number, pageSize = PAGE_SIZE) {
  const [rows, [{ total }]] = await db.batch([
    db
      .select()
      .from(schema.deletedRecords)
      .orderBy(desc(schema.deletedRecords.transactionId), asc(schema.deletedRecords.deletedBy), asc(schema.deletedRecords.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(schema.deletedRecords),
  ]);
  return { rows, total };
}

export async function getDeletedRecord(db: Db, id: number): Promise<DeletedRecordRow | undefined> {
  const [row] = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.id, id));
  return row;
}

/** 'Feld1[/Feld2][/Feld3]' as the restore toast names the record. */
export const recordIdentifiers = (record: Pick<DeletedRecordRow, "identifier1" | "identifier2" | "identifier3">) =>
  [record.identifier1, record.identifier2, record.identifier3].filter((part) => part !== null && part !== "").join("/");

/** A record a delete changed rather than deleted (see Change): restored by an update. */
function changedMarker(record: DeletedRecordRow): { rowVersion: number } | null {
  try {
    const parsed: unknown = JSON.parse(record.json);
    const marker = Array.isArray(parsed) ? (parsed[1] as { restore?: unknown; row_version?: unknown } | undefined) : undefined;
    return marker?.restore === "update" && typeof marker.row_version === "number" ? { rowVersion: marker.row_version } : null;
  } catch {
    return null;
  }
}

/**
 * The INSERT that puts one stored record back, with only the columns its table has (never trusted
 * blindly); for a changed record the UPDATE back to its stored values, guarded by the version the
 * delete left it with.
 */
function restoreStatements(record: DeletedRecordRow): Statement[] {
  const table = TABLES.get(record.tableName);
  if (!table) throw new RestoreRefused(`Datensätze der Tabelle „${record.tableName}“ können nicht wiederhergestellt werden.`);
  const parsed: unknown = JSON.parse(record.json);
  const values = Array.isArray(parsed) ? (parsed[0] as Record<string, unknown>) : null;
  if (!values || typeof values !== "object") throw new RestoreRefused("Der gelöschte Satz ist beschädigt und kann nicht wiederhergestellt werden.");
  const columns = storedColumns(table)
    .map(([, column]) => column.name)
    .filter((name) => name in values);
  const params = columns.map((name) => values[name] ?? null);
  const changed = changedMarker(record);
  if (!changed) {
    return [
      { sql: `INSERT INTO "${record.tableName}" (${columns.map((name) => `"${name}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, params },
    ];
  }
  return [
    {
      sql: `UPDATE "${record.tableName}" SET ${columns.map((name) => `"${name}" = ?`).join(", ")} WHERE "id" = ? AND "row_version" = ?`,
      params: [...params, values.id ?? null, changed.rowVersion],
    },
    ABORT_UNLESS_CHANGED,
  ];
}

class RestoreRefused extends Error {}

export type RestoreOutcome = { status: "restored"; record: DeletedRecordRow; count: number } | { status: "refused"; message: string } | { status: "missing" };

/**
 * Puts a deleted record back. If it is the record the user deleted (the first of its
 * transaction), everything deleted with it comes back too.
 */
export async function restoreDeletedRecord(db: Db, id: number): Promise<RestoreOutcome> {
  const record = await getDeletedRecord(db, id);
  if (!record) return { status: "missing" };
  const transaction = await db
    .select()
    .from(schema.deletedRecords)
    .where(eq(schema.deletedRecords.transactionId, record.transactionId))
    .orderBy(asc(schema.deletedRecords.id));
  const isMain = transaction[0]?.id === record.id;
  if (!isMain && changedMarker(record)) {
    return {
      status: "refused",
      message: "Dieser Satz wurde nicht gelöscht, sondern beim Löschen geändert: Er kommt mit dem ersten Satz seiner Transaktion zurück.",
    };
  }
  const records = (isMain ? transaction : [record]).sort(
    (a, b) => (RESTORE_ORDER.get(a.tableName) ?? 99) - (RESTORE_ORDER.get(b.tableName) ?? 99) || a.id - b.id,
  );
  try {
    // The history writes the records put back as RESTORE, not as new inserts.
    await writingAs(db, "RESTORE", () =>
      runAtomically(db, [
        // Records may point at each other (a membership and its course fee): the references are
        // checked when the batch commits, once all of them are back.
        { sql: "PRAGMA defer_foreign_keys = ON", params: [] },
        ...records.flatMap(restoreStatements),
        { sql: `DELETE FROM deleted_records WHERE id IN (${records.map(() => "?").join(", ")})`, params: records.map((r) => r.id) },
      ]),
    );
  } catch (error) {
    if (error instanceof RestoreRefused) return { status: "refused", message: error.message };
    const text = errorText(error);
    if (isAbortedAsUnchanged(error)) {
      return {
        status: "refused",
        message:
          "Ein beim Löschen geänderter Datensatz (z. B. ein offener Posten der Rechnung) wurde inzwischen erneut geändert. Die Wiederherstellung würde diese Änderung überschreiben und wurde abgebrochen.",
      };
    }
    if (isFrozenInvoice(error)) {
      return {
        status: "refused",
        message: "Die Rechnung, zu der dieser Satz gehört, ist inzwischen ausgestellt: Ihre Zeilen und Beträge ändern sich nicht mehr (§ 146 Abs. 4 AO).",
      };
    }
    if (text.includes("FOREIGN KEY")) {
      return {
        status: "refused",
        message: "Dieser Satz gehört zu einem Datensatz, der noch gelöscht ist (z. B. die Person eines Hundes). Stelle zuerst diesen wieder her.",
      };
    }
    if (text.includes("UNIQUE") || text.includes("PRIMARY KEY")) {
      return { status: "refused", message: "Der Satz kann nicht wiederhergestellt werden: Es gibt inzwischen einen Datensatz mit demselben Schlüssel." };
    }
    throw error;
  }
  return { status: "restored", record, count: records.length };
}
