import { getTableColumns, getTableName, sql, type Column, type SQL, type Table } from "drizzle-orm";

/** A table's stored columns by TypeScript key: generated columns (fullName, isOpen, ...) are
 *  computed by SQLite and can be neither inserted nor restored. */
export function storedColumns(table: Table) {
  return Object.entries(getTableColumns(table)).filter(([, column]) => !column.generated);
}

/**
 * A column named with its table ("jobs"."id"), for a correlated subquery. Drizzle writes a column
 * of a select without joins unqualified ("id"), and inside `(SELECT … FROM job_slices WHERE job_id
 * = "id")` SQLite then takes the subquery's own id: the correlation silently compares the wrong
 * rows.
 */
export function qualified(column: Column): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}
