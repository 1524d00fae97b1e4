/**
 * Änderungsverlauf of one record, as the edit dialogs show it: newest first, 'wann, wer, Aktion,
 * Feld: alt → neu' with German labels and values (written by the triggers of app/db/history.ts).
 */
import { and, desc, eq, getTableColumns, getTableName, type Table } from "drizzle-orm";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { changeHistory } from "~/db/schema";
import { HISTORY_TABLES, tableName, UNTRACKED_ON_UPDATE } from "~/db/history";
import { formatDate, formatDateTimeWithSeconds, formatMoney } from "~/lib/format";

export const HISTORY_ACTION_LABELS = { INSERT: "Angelegt", UPDATE: "Geändert", DELETE: "Gelöscht", RESTORE: "Wiederhergestellt" } as const;

/** How the dialog shows a table's history: labels by TypeScript key, left-out and own-format keys. */
export type HistoryView = {
  /** The SQL table ('people'): one of HISTORY_TABLES. */
  table: string;
  /** German field labels by the column's TypeScript key (e.g. from the grid's headers). */
  labels: Record<string, string>;
  /** Keys the user may not see (neither their values nor that they changed). */
  hidden: ReadonlySet<string>;
  /** Keys with a format of their own (e.g. an IBAN grouped as the dialog shows it). */
  formats?: Record<string, (value: unknown) => string>;
};

export type HistoryChange = { label: string; from: string; to: string };

export type HistoryEntry = { id: number; when: string; who: string; action: string; source: string | null; changes: HistoryChange[] };

/** Columns the history does not list: the audit fields and the id are shown elsewhere. */
const NOT_LISTED = new Set(["id", "created_by", "created_on", ...UNTRACKED_ON_UPDATE]);

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

type ColumnInfo = { key: string; kind: "flag" | "money" | "date" | "other" };

/** The table's columns by SQL name: TypeScript key and how a value is shown. */
function columnsOf(table: SQLiteTable): Map<string, ColumnInfo> {
  const name = getTableName(table as Table);
  const checks = new Set(getTableConfig(table).checks.map((check) => check.name));
  return new Map(
    Object.entries(getTableColumns(table as Table)).map(([key, column]) => {
      const kind =
        column.columnType === "SQLiteBoolean"
          ? "flag"
          : checks.has(`${name}_${column.name}_is_money`)
            ? "money"
            : checks.has(`${name}_${column.name}_is_date`)
              ? "date"
              : "other";
      return [column.name, { key, kind }];
    }),
  );
}

/** A stored value as German text (money, dates, flags as Ja/Nein); empty as '–'. */
function historyValue(value: unknown, kind: ColumnInfo["kind"]): string {
  if (value === null || value === undefined || value === "") return "–";
  if (kind === "flag") return value ? "Ja" : "Nein";
  if (kind === "money" && typeof value === "number") return formatMoney(value);
  if (typeof value === "string" && (kind === "date" || /^\d{4}-\d{2}-\d{2}$/.test(value))) return formatDate(value);
  if (typeof value === "string" && INSTANT.test(value)) return formatDateTimeWithSeconds(value);
  return String(value);
}

/** The stored change of one history row: {column: [before, after]}. */
function parseChanges(changes: string | null): Record<string, [unknown, unknown]> {
  try {
    const parsed: unknown = JSON.parse(changes ?? "{}");
    return parsed && typeof parsed === "object" ? (parsed as Record<string, [unknown, unknown]>) : {};
  } catch {
    return {};
  }
}

/** The history rows of one record, newest first. */
function historyRows(db: Db, table: string, recordId: number, limit = 100) {
  return db
    .select()
    .from(changeHistory)
    .where(and(eq(changeHistory.tableName, table), eq(changeHistory.recordId, recordId)))
    .orderBy(desc(changeHistory.id))
    .limit(limit);
}

type ChangeOptions = {
  /** The German label of a column (SQL name, TypeScript key). */
  label: (column: string, key: string) => string;
  /** Columns left out (by TypeScript key). */
  hidden?: ReadonlySet<string>;
  /** Keys with a format of their own. */
  formats?: Record<string, (value: unknown) => string>;
};

/** The changes of one history row of `table`, labelled and formatted in German: an update lists
 *  'alt → neu', an insert or restore what it set, a delete what there was (empty fields left out). */
export function describeChanges(table: string, action: keyof typeof HISTORY_ACTION_LABELS, stored: string | null, options: ChangeOptions): HistoryChange[] {
  const tracked = HISTORY_TABLES.find((candidate) => tableName(candidate) === table);
  const columns = tracked ? columnsOf(tracked) : new Map<string, ColumnInfo>();
  const changes: HistoryChange[] = [];
  for (const [column, pair] of Object.entries(parseChanges(stored))) {
    const info = columns.get(column);
    const key = info?.key ?? column;
    if (NOT_LISTED.has(column) || options.hidden?.has(key) || !Array.isArray(pair)) continue;
    const [from, to] = pair;
    if (action !== "UPDATE" && (action === "DELETE" ? from : to) == null) continue;
    const format = options.formats?.[key] ?? ((value: unknown) => historyValue(value, info?.kind ?? "other"));
    changes.push({ label: options.label(column, key), from: action === "UPDATE" ? format(from) : "", to: action === "DELETE" ? "" : format(to) });
  }
  return changes;
}

/** One change as a line: 'Feld: alt → neu' (an insert 'Feld: neu', a delete 'Feld: alt'). */
export const changeLine = (change: HistoryChange) =>
  `${change.label}: ${change.from && change.to ? `${change.from} → ${change.to}` : change.to || change.from}`;

/** The record's history as the dialog shows it, newest first; what the user may not see is left out. */
export async function recordHistory(db: Db, view: HistoryView, recordId: number): Promise<HistoryEntry[]> {
  if (!HISTORY_TABLES.some((candidate) => tableName(candidate) === view.table)) return [];
  const rows = await historyRows(db, view.table, recordId);
  const entries: HistoryEntry[] = [];
  for (const row of rows) {
    const changes = describeChanges(view.table, row.action, row.changes, {
      label: (column, key) => view.labels[key] ?? column,
      hidden: view.hidden,
      formats: view.formats,
    });
    // An update of nothing the user may see is not shown at all.
    if (row.action === "UPDATE" && changes.length === 0) continue;
    entries.push({
      id: row.id,
      when: formatDateTimeWithSeconds(row.changedOn),
      who: row.changedBy,
      action: HISTORY_ACTION_LABELS[row.action],
      source: row.source,
      changes,
    });
  }
  return entries;
}

export type ConsentEntry = { given: boolean; when: string; who: string; source: string | null };

/** The consent history of a person (has_gdpr given or withdrawn), newest first. */
export async function consentHistory(db: Db, personId: number): Promise<ConsentEntry[]> {
  const rows = await historyRows(db, "people", personId, 500);
  return rows.flatMap((row) => {
    const pair = parseChanges(row.changes).has_gdpr;
    if (!Array.isArray(pair) || row.action === "DELETE") return [];
    const [from, to] = pair;
    // An insert without consent is no event; a restore puts back what was (given or not).
    if (row.action !== "UPDATE" && !to) return [];
    if (row.action === "UPDATE" && Boolean(from) === Boolean(to)) return [];
    return [{ given: Boolean(to), when: formatDateTimeWithSeconds(row.changedOn), who: row.changedBy, source: row.source }];
  });
}
