import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/** Time spent waiting for D1 during one request, for the Server-Timing header. */
export type QueryTimer = { count: number; milliseconds: number };

const TIMED_METHODS = new Set(["all", "raw", "run", "first"]);

/** Wraps the D1 binding so every statement's wall time is added to `timer`. */
function timedD1(d1: D1Database, timer: QueryTimer): D1Database {
  const timeStatement = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        if (property === "bind") return (...args: unknown[]) => timeStatement(value.apply(target, args));
        if (!TIMED_METHODS.has(String(property))) return value.bind(target);
        return async (...args: unknown[]) => {
          const started = performance.now();
          try {
            return await value.apply(target, args);
          } finally {
            timer.count += 1;
            timer.milliseconds += performance.now() - started;
          }
        };
      },
    });
  return new Proxy(d1, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "prepare") return (query: string) => timeStatement(target.prepare(query));
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const started = performance.now();
          try {
            return await target.batch(statements);
          } finally {
            timer.count += 1;
            timer.milliseconds += performance.now() - started;
          }
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A drizzle handle on the D1 binding; cheap to create, so one per request. */
export function createDb(d1: D1Database, timer?: QueryTimer) {
  return drizzle(timer ? timedD1(d1, timer) : d1, { schema });
}

export type Db = ReturnType<typeof createDb>;

/** A rendered statement: SQL text and its bound parameters. */
export type Statement = { sql: string; params: unknown[] };

/** Runs statements as one D1 batch: one transaction, all or nothing. (drizzle's own batch cannot
 *  take raw SQL statements.) */
export async function runAtomically(db: Db, statements: Statement[]): Promise<void> {
  const d1 = db.$client;
  await d1.batch(statements.map(({ sql, params }) => d1.prepare(sql).bind(...params)));
}
