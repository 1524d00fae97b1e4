import { getTableColumns, type Table } from "drizzle-orm";

/** A table's stored columns by TypeScript key: generated columns (fullName, isOpen, ...) are
 *  computed by SQLite and can be neither inserted nor restored. */
export function storedColumns(table: Table) {
  return Object.entries(getTableColumns(table)).filter(([, column]) => !column.generated);
}
