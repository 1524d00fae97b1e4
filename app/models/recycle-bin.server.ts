/**
 * The one delete mechanism: every deleted record goes into deleted_records (the Papierkorb) in the
 * same atomic batch as the delete, under one transaction id, as a JSON array whose first element
 * is the record (SQL column names and stored values, so a restore can put it back exactly).
 *
 * The JSON is built by SQLite from the row as it is at that moment, not from a copy read before,
 * so nothing that changed in between is lost.
 */
import { getTableColumns, getTableName, sql, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db, Statement } from "~/db/client.server";

const dialect = new SQLiteSyncDialect();
const render = (query: SQL): Statement => dialect.sqlToQuery(query);

/** Records of one table going into the bin: `where` selects them, the identifiers are SQL
 *  expressions over that table's columns (what the bin shows as Feld1..3). */
export type Capture = {
  table: SQLiteTable;
  where: SQL;
  identifiers: [SQL, SQL?, SQL?];
};

/** json_array(json_object('id', id, 'last_name', last_name, ...)) over the stored columns. */
function recordJson(table: SQLiteTable): SQL {
  const pairs = Object.values(getTableColumns(table))
    .filter((column) => !column.generated)
    .map((column) => `'${column.name}', "${column.name}"`)
    .join(", ");
  return sql.raw(`json_array(json_object(${pairs}))`);
}

const NEXT_TRANSACTION = sql`(SELECT coalesce(max(transaction_id), 0) + 1 FROM deleted_records)`;
const THIS_TRANSACTION = sql`(SELECT max(transaction_id) FROM deleted_records)`;

/**
 * The statements (for runAtomically) that move `main` (exactly one record) and its `dependents`
 * into the bin and delete them. Dependents are deleted first, the main record last. If the main
 * record no longer exists, its JSON is NULL, the NOT NULL constraint fails and nothing happens.
 */
export function recycleStatements(
  db: Db,
  { main, dependents = [], deletedBy, now = new Date() }: { main: Capture; dependents?: Capture[]; deletedBy: string; now?: Date },
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
  const deletes = [...dependents, main].map(({ table, where }) => db.delete(table).where(where).toSQL());
  return [mainRecord, ...dependentRecords, ...deletes];
}
