import { sql, type AnyColumn, type SQL } from "drizzle-orm";

/** The 1-based position of each row in a list ordered like the grid (a window function). */
export const positionInOrder = (orderBy: SQL[]) => sql<number>`row_number() over (order by ${sql.join(orderBy, sql`, `)})`.as("position");

/** The page a row at `position` is on. */
export const pageOfPosition = (position: number | undefined, pageSize: number) => (position === undefined ? null : Math.floor((position - 1) / pageSize) + 1);

/** An ORDER BY over one or more expressions, ascending or descending as asked. */
export type SortKey = (descending: boolean) => SQL;
export const sortKey =
  (...expressions: SQL[]): SortKey =>
  (descending) =>
    sql.join(
      expressions.map((expression) => sql`${expression} ${sql.raw(descending ? "DESC" : "ASC")}`),
      sql`, `,
    );

/** A dog's DIN 5007 name key by id, read from dogs_id_name_key_idx (as personNameKeys for people):
 *  a sort of joined rows by dog name (a course's participants) reads it instead of working it out. */
export const dogNameKey = (dogId: AnyColumn | SQL): SQL => sql`(SELECT k.common_name_key FROM dogs AS k INDEXED BY dogs_id_name_key_idx WHERE k.id = ${dogId})`;

/**
 * A person's DIN 5007 name keys (last name, first name) by id, read from people_id_name_keys_idx.
 * A list joined to people that sorts more rows than its page (the Kontenblatt sorts every fee of a
 * date by person) would otherwise work out both generated keys, a hundred replace()s each, for
 * every row it sorts: on the benchmark data 214 fees of one day took 12 ms, from the index 3 ms.
 */
export const personNameKeys = (personId: AnyColumn | SQL): [SQL, SQL] => [
  sql`(SELECT k.last_name_key FROM people AS k INDEXED BY people_id_name_keys_idx WHERE k.id = ${personId})`,
  sql`(SELECT k.first_name_key FROM people AS k INDEXED BY people_id_name_keys_idx WHERE k.id = ${personId})`,
];
