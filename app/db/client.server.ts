import type { SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";

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

/**
 * Who writes, for the Änderungsverlauf (app/db/history.ts): the triggers read it from the one-row
 * table write_context, which every write batch sets first and clears last.
 */
export type WriteContext = {
  /** The logged-in user's name (as in the audit fields); 'System' for cron and webhooks. */
  actor: string;
  /** RESTORE: inserts re-insert records from the Papierkorb; ERASE: no history (Art. 17). */
  action: "RESTORE" | "ERASE" | null;
  /** How: 'Personendialog', 'Massenlauf', 'Seed/Import', ... */
  source: string | null;
};

/** Does this SQL write (insert, update, delete, replace; also behind a WITH)? */
function isWriteSql(query: string): boolean {
  const text = query.trimStart();
  if (/^(insert|update|delete|replace)\b/i.test(text)) return true;
  return /^with\b/i.test(text) && /\b(insert\s+(or\s+\w+\s+)?into|update\s+\S+\s+set|delete\s+from)\b/i.test(text);
}

/** A read (all/raw/first of one statement) or an explicit batch, waiting to go to D1. */
type Pending = {
  statements: D1PreparedStatement[];
  /** Whether the first and last statement are the write context (not part of the answer). */
  framed?: boolean;
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
 * Every write (a batch with a writing statement, a single write, a write that returns rows) goes
 * with the write context around it: first set, last cleared, for the history triggers.
 */
function requestD1(d1: D1Database, timer: QueryTimer | undefined, context: WriteContext): D1Database {
  let queue: Pending[] = [];
  /** The SQL of every statement prepared here (and of its bound copies). */
  const sqlOf = new WeakMap<object, string>();
  const writes = (statement: D1PreparedStatement) => isWriteSql(sqlOf.get(statement) ?? "");

  /** The statements with the write context around them when one of them writes. */
  const withContext = (statements: D1PreparedStatement[]): { statements: D1PreparedStatement[]; framed: boolean } => {
    if (!statements.some(writes)) return { statements, framed: false };
    const set = d1
      .prepare("INSERT OR REPLACE INTO write_context (id, actor, action, source) VALUES (1, ?, ?, ?)")
      .bind(context.actor, context.action, context.source);
    return { statements: [set, ...statements, d1.prepare("DELETE FROM write_context")], framed: true };
  };

  /** An item's answer from its statements' results (without the write context's). */
  const answerOf = (item: Pending, results: D1Result[]): unknown => {
    const own = item.framed ? results.slice(1, -1) : results;
    return item.read ? shape(item.read, own[0]) : own;
  };

  const alone = (item: Pending): Promise<unknown> => {
    if (!item.read || item.framed) return d1.batch(item.statements).then((results) => answerOf(item, results));
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
        item.resolve(answerOf(item, own));
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

  const wrap = (statement: D1PreparedStatement, query: string): D1PreparedStatement => {
    sqlOf.set(statement, query);
    const proxy = new Proxy(statement, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        if (property === "bind") return (...args: unknown[]) => wrap(value.apply(target, args), query);
        const write = isWriteSql(query);
        // raw({ columnNames: true }) answers in a shape of its own: not shared.
        if (property === "all" || property === "first" || property === "raw") {
          return (...args: unknown[]) => {
            if (property === "raw" && args.length > 0 && !write) return timed(() => value.apply(target, args));
            // A write that returns rows: inside its write context, answered by the write itself.
            if (write) return enqueue({ ...withContext([target]), read: { method: property as "all" | "first" | "raw", args } });
            return enqueue({ statements: [target], read: { method: property, args } });
          };
        }
        if (property === "run") {
          return (...args: unknown[]) =>
            write ? timed(() => d1.batch(withContext([target]).statements).then((results) => results[1])) : timed(() => value.apply(target, args));
        }
        return value.bind(target);
      },
    });
    sqlOf.set(proxy, query);
    return proxy;
  };

  return new Proxy(d1, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "prepare") return (query: string) => wrap(target.prepare(query), query);
      if (property === "batch") return (statements: D1PreparedStatement[]) => enqueue(withContext(statements));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Where a handle keeps its write context: a global symbol, since the Worker entry and the built
 *  app may each bundle their own copy of this module. */
const WRITE_CONTEXT = Symbol.for("wuff.writeContext");

/** A drizzle handle on the D1 binding; cheap to create, so one per request. Writes are recorded
 *  as `actor` (the logged-in user, once a guard confirmed them: setWriteActor) until told.
 *  Without drizzle's relational API (`db.query`, unused): given the schema, drizzle works out
 *  its relations anew for every handle, about 1 % of a page's CPU (issue 29/11, profiled). */
export function createDb(d1: D1Database, timer?: QueryTimer, actor = "System") {
  const context: WriteContext = { actor, action: null, source: null };
  const db = drizzle(requestD1(d1, timer, context));
  Object.defineProperty(db, WRITE_CONTEXT, { value: context });
  return db;
}

export type Db = ReturnType<typeof createDb>;

function contextOf(db: Db): WriteContext {
  const context = (db as unknown as Record<symbol, WriteContext | undefined>)[WRITE_CONTEXT];
  if (!context) throw new Error("Datenbank ohne Schreibkontext (createDb)");
  return context;
}

/** Who writes from now on through this handle (the history's 'wer'). */
export function setWriteActor(db: Db, actor: string) {
  contextOf(db).actor = actor;
}

/** How the writes from now on are made (the history's 'über', e.g. 'Personendialog'). */
export function setWriteSource(db: Db, source: string | null) {
  contextOf(db).source = source;
}

/** The writes that `work` starts (synchronously or later) under a special action: RESTORE records
 *  re-inserts from the Papierkorb as restores, ERASE writes no history at all. */
export async function writingAs<T>(db: Db, action: "RESTORE" | "ERASE", work: () => Promise<T>): Promise<T> {
  const context = contextOf(db);
  const before = context.action;
  context.action = action;
  try {
    return await work();
  } finally {
    context.action = before;
  }
}

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

/** A drizzle query builder's statement, for a batch of hand-written ones (runAtomically). */
export const toSql = (query: { toSQL(): { sql: string; params: unknown[] } }): Statement => query.toSQL();

/**
 * A guard statement for a batch: it aborts the whole batch (an SQL error that
 * isAbortedAsUnchanged recognises) when the statement before it changed no row, e.g. an UPDATE
 * quoting a stale rowVersion, so the other writes of the batch never happen without it.
 */
export const ABORT_UNLESS_CHANGED: Statement = { sql: "SELECT CASE WHEN changes() = 0 THEN json('unchanged') END", params: [] };
