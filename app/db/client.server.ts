import type { SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";

/** D1 work of one request, for the Server-Timing header: the number of round trips to D1 and the
 *  time during which at least one was under way (overlapping calls count once). */
export type QueryTimer = { count: number; milliseconds: number; active?: number; since?: number };

function startCall(timer: QueryTimer | undefined) {
  if (!timer) return () => {};
  timer.count += 1;
  if (!timer.active) timer.since = performance.now();
  timer.active = (timer.active ?? 0) + 1;
  return () => {
    timer.active! -= 1;
    if (timer.active === 0) timer.milliseconds += performance.now() - timer.since!;
  };
}

/** A read (all/raw/first of one statement) or an explicit batch, waiting to go to D1. */
type Pending = {
  statements: D1PreparedStatement[];
  /** The method a single read used (and its arguments); absent for an explicit batch. */
  read?: { method: "all" | "raw" | "first"; args: unknown[] };
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/** A single read's answer, shaped from a batch result as its own method would have answered. */
function shape(read: NonNullable<Pending["read"]>, result: D1Result): unknown {
  if (read.method === "all") return result;
  const rows = result.results as Record<string, unknown>[];
  if (read.method === "first") {
    const [column] = read.args as [string | undefined];
    const row = rows[0] ?? null;
    return column ? (row?.[column] ?? null) : row;
  }
  // raw(): rows as arrays in column order (drizzle's own batch maps them the same way).
  return rows.map((row) => Object.values(row));
}

/**
 * The D1 binding of one request. What the request's loaders ask at the same moment (they all wait
 * for the session first, then ask at once) goes to D1 together as one batch: one round trip
 * instead of one each. An explicit batch stays one transaction inside it. Writes (run) go alone.
 * If a shared batch fails, each part is retried alone, so one bad query fails only its caller.
 */
function requestD1(d1: D1Database, timer: QueryTimer | undefined): D1Database {
  let queue: Pending[] = [];

  const alone = (item: Pending): Promise<unknown> => {
    if (!item.read) return d1.batch(item.statements);
    const [statement] = item.statements;
    const call = statement[item.read.method] as (...args: unknown[]) => Promise<unknown>;
    return call.apply(statement, item.read.args);
  };

  async function flush() {
    const items = queue;
    queue = [];
    const done = startCall(timer);
    try {
      if (items.length === 1) {
        await alone(items[0]).then(items[0].resolve, items[0].reject);
        return;
      }
      let results: D1Result[];
      try {
        results = await d1.batch(items.flatMap((item) => item.statements));
      } catch {
        for (const item of items) await alone(item).then(item.resolve, item.reject);
        return;
      }
      let offset = 0;
      for (const item of items) {
        const own = results.slice(offset, offset + item.statements.length);
        offset += item.statements.length;
        item.resolve(item.read ? shape(item.read, own[0]) : own);
      }
    } finally {
      done();
    }
  }

  const enqueue = (item: Omit<Pending, "resolve" | "reject">) =>
    new Promise((resolve, reject) => {
      if (queue.length === 0) setTimeout(flush, 0);
      queue.push({ ...item, resolve, reject });
    });

  const timed = async <T>(call: () => Promise<T>): Promise<T> => {
    const done = startCall(timer);
    try {
      return await call();
    } finally {
      done();
    }
  };

  const wrap = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        if (property === "bind") return (...args: unknown[]) => wrap(value.apply(target, args));
        // raw({ columnNames: true }) answers in a shape of its own: not shared.
        if (property === "all" || property === "first" || property === "raw") {
          return (...args: unknown[]) =>
            property === "raw" && args.length > 0
              ? timed(() => value.apply(target, args))
              : enqueue({ statements: [target], read: { method: property, args } });
        }
        if (property === "run") return (...args: unknown[]) => timed(() => value.apply(target, args));
        return value.bind(target);
      },
    });

  return new Proxy(d1, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "prepare") return (query: string) => wrap(target.prepare(query));
      if (property === "batch") return (statements: D1PreparedStatement[]) => enqueue({ statements });
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A drizzle handle on the D1 binding; cheap to create, so one per request. */
export function createDb(d1: D1Database, timer?: QueryTimer) {
  return drizzle(requestD1(d1, timer), { schema });
}

export type Db = ReturnType<typeof createDb>;

/** A rendered statement: SQL text and its bound parameters. */
export type Statement = { sql: string; params: unknown[] };

/** Runs statements as one D1 batch: one transaction, all or nothing. (drizzle's own batch cannot
 *  take raw SQL statements.) */
export async function runAtomically(db: Db, statements: Statement[]): Promise<D1Result[]> {
  const d1 = db.$client;
  return d1.batch(statements.map(({ sql, params }) => d1.prepare(sql).bind(...params)));
}

const dialect = new SQLiteSyncDialect();

/** An SQL fragment as a statement for runAtomically. */
export const render = (query: SQL): Statement => dialect.sqlToQuery(query);

/**
 * A guard statement for a batch: it aborts the whole batch (an SQL error that
 * isAbortedAsUnchanged recognises) when the statement before it changed no row, e.g. an UPDATE
 * quoting a stale rowVersion, so the other writes of the batch never happen without it.
 */
export const ABORT_UNLESS_CHANGED: Statement = { sql: "SELECT CASE WHEN changes() = 0 THEN json('unchanged') END", params: [] };
