import { Column, getTableColumns, getTableName, is, sql, type SQL, type Table } from "drizzle-orm";

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

/**
 * `table` INDEXED BY `index`, for a FROM: SQLite must walk that index (and fails loudly if it
 * cannot) where its planner, without statistics, would read and sort far more rows.
 */
export const indexedBy = (table: Table, index: string): SQL => sql`${table} INDEXED BY ${sql.identifier(index)}`;

/**
 * A select's fields with every column written as SQL ("fees"."id", decoded as the column is), for a
 * select FROM indexedBy(…): drizzle refuses columns of a table it cannot see behind SQL. The
 * result keeps the fields' type, so rows come back as from the plain select.
 */
export function fieldsAsSql<Fields extends Record<string, unknown>>(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, is(field, Column) ? sql`${qualified(field)}`.mapWith(field) : field])) as Fields;
}

/** The price of three that a price tier (FULL, REDUCED1, REDUCED2) names: a course's, a product's, a fee's. */
export const tierPrice = (
  tier: SQL,
  prices: { FULL: SQL | Column | number | null; REDUCED1: SQL | Column | number | null; REDUCED2: SQL | Column | number | null },
): SQL => sql`CASE ${tier} WHEN 'REDUCED1' THEN ${prices.REDUCED1} WHEN 'REDUCED2' THEN ${prices.REDUCED2} ELSE ${prices.FULL} END`;

/** A person's course price tier: that of their member type. */
export const coursePriceTierOf = (personId: SQL | Column | number): SQL =>
  sql`(SELECT mt.course_price_tier FROM people p JOIN member_types mt ON mt.id = p.member_type_id WHERE p.id = ${personId})`;

/**
 * A list of any length as a subquery, `(SELECT value FROM json_each(?))`. D1 binds at most 100
 * parameters per statement ("too many SQL variables"), so drizzle's inArray fails once a list read
 * from the data passes that; here the whole list is one JSON parameter, and a column's index still
 * serves `column IN` it. An empty list holds nothing.
 */
export const valuesOf = (values: readonly (number | string)[]): SQL => sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;

/** `expression IN (values)` for a list of any length (valuesOf). */
export const inValues = (expression: Column | SQL, values: readonly (number | string)[]): SQL => sql`${expression} IN ${valuesOf(values)}`;
