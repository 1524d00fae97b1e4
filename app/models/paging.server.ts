import { sql, type SQL } from "drizzle-orm";

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
