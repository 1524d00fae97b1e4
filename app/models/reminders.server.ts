/**
 * Mahnwesen (issue 17): the reminder levels of Einstellungen, what is overdue, which level is due,
 * and the reminders written.
 *
 * Overdue: an invoice with something open whose due date has passed, or a fee collected directly
 * (send_invoice = 0, not itself a reminder fee) with something open past its due date; fees billed
 * by invoice are reminded through their invoice. A fee in a direct debit not paid or returned yet
 * is in collection, so it is not overdue (nor one the next run collects). "Passed" and "due" follow §193 BGB (app/lib/reminder-dates.ts): the stored
 * dates are compared with one cut-off date per level computed from today, so SQL needs no calendar.
 *
 * An item's level is the highest level of its reminders that are not cancelled; its next level the
 * next enabled one above; the next level is due `days` after the item's due date (level 1) or after
 * the new due date of its last reminder (levels 2, 3).
 */
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { render, runAtomically, type Db, type Statement } from "~/db/client.server";
import { qualified } from "~/db/columns";
import {
  directDebitItems,
  directDebitRuns,
  fees,
  invoiceHeaders,
  reminderLevels,
  reminders,
  sepaMandates,
  templates,
  type ReminderTargetType,
} from "~/db/schema";
import type { SortSpec } from "~/lib/grid";
import { earliestCollectionDate } from "~/lib/pain008";
import { latestDueDateFor, workingDayStepsBack } from "~/lib/reminder-dates";
import type { Actor } from "./audit.server";
import { mandateValidOnSql } from "./direct-debits.server";
import { containsPattern } from "./search.server";

export type ReminderLevel = typeof reminderLevels.$inferSelect;
export type ReminderLevelInput = Pick<
  ReminderLevel,
  "level" | "enabled" | "days" | "fee" | "mailFee" | "paymentTermDays" | "mailTemplate" | "letterTemplate"
> & {
  rowVersion: number;
};

/** The three levels, by level. */
export async function getReminderLevels(db: Db): Promise<ReminderLevel[]> {
  return db.select().from(reminderLevels).orderBy(asc(reminderLevels.level));
}

export type SaveLevelsOutcome = { status: "updated" } | { status: "conflict"; current: ReminderLevel[] };

/** Saves the levels in one batch, each quoting the rowVersion the form was based on: if one was
 *  changed meanwhile, nothing is saved (the batch is one transaction) and the current levels come back. */
export async function saveReminderLevels(db: Db, input: ReminderLevelInput[], actor: Actor): Promise<SaveLevelsOutcome> {
  const now = new Date().toISOString();
  const statements = input.map(({ level, rowVersion, ...values }) =>
    db
      .update(reminderLevels)
      .set({ ...values, lastModifiedBy: actor.name, lastModifiedOn: now, rowVersion: sql`${reminderLevels.rowVersion} + 1` })
      .where(and(eq(reminderLevels.level, level), eq(reminderLevels.rowVersion, rowVersion)))
      .returning({ level: reminderLevels.level }),
  );
  const current = await getReminderLevels(db);
  const stale = input.some((row) => current.find((level) => level.level === row.level)?.rowVersion !== row.rowVersion);
  if (stale || statements.length === 0) return { status: "conflict", current };
  const results = await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  if (results.every((rows) => rows.length === 1)) return { status: "updated" };
  return { status: "conflict", current: await getReminderLevels(db) };
}

/** The templates a level may name: mails (kind MAIL) and letters (kind INVOICE, printed to PDF). */
export async function reminderTemplateChoices(db: Db): Promise<{ mail: string[]; letter: string[] }> {
  const rows = await db.select({ name: templates.name, kind: templates.kind }).from(templates).orderBy(asc(templates.name));
  return {
    mail: rows.filter((row) => row.kind === "MAIL").map((row) => row.name),
    letter: rows.filter((row) => row.kind === "INVOICE").map((row) => row.name),
  };
}

// ---------------------------------------------------------------------------------------------
// Levels in SQL

/** The reminded item's table. */
const itemTable = (type: ReminderTargetType) => (type === "INVOICE" ? invoiceHeaders : fees);

/** The item's reminder level (0 without a reminder), kept by the database (app/db/derived.ts). */
const reminderLevelOf = (type: ReminderTargetType) => qualified(itemTable(type).reminderLevel);

/** The date the item's next level counts from: its due date, or the new due date its last reminder named. */
const nextLevelBaseOf = (type: ReminderTargetType) =>
  sql<string | null>`coalesce(${qualified(itemTable(type).reminderDueDate)}, ${qualified(itemTable(type).dueDate)})`;

/** An invoice is overdue: something open and its due date passed (§193 BGB). */
const invoiceOverdue = (today: string) =>
  sql`(${qualified(invoiceHeaders.openAmount)} > 0 AND ${qualified(invoiceHeaders.dueDate)} IS NOT NULL AND ${qualified(invoiceHeaders.dueDate)} <= ${latestDueDateFor(1, today)})`;

/** A fee is reminded on its own: collected directly (not billed by invoice), not a reminder fee. */
const feeRemindable = sql`(${qualified(fees.sendInvoice)} = 0 AND ${qualified(fees.kind)} <> 'REMINDER')`;

/** The fee is in a Lastschriftlauf not cancelled, its debit neither paid nor returned yet: it is
 *  'eingereicht' (debit-settlements.server.ts), so nobody reminds it. An uncorrelated IN, not a
 *  correlated EXISTS: SQLite builds the few fees in collection once instead of probing per fee
 *  (the 'Mahnung fällig' toggle on 50,000 fees: 25 ms to 4 ms). `fee_id` is NOT NULL, so IN
 *  answers only true or false. */
const inCollection = sql`${qualified(fees.id)} IN (SELECT di.fee_id FROM ${directDebitItems} di JOIN ${directDebitRuns} dr ON dr.id = di.run_id
  WHERE di.cancelled_on IS NULL AND dr.status <> 'CANCELLED')`;

/** A direct debit is pending for a fee: it is in collection, or no returned debit stopped it and its person has an active
 *  SEPA mandate that the next Lastschriftlauf may still collect under (not expired, not revoked or
 *  blocked by its earliest collection day), so that run collects it. */
const debitPending = (today: string) =>
  sql`((${qualified(fees.collectionStop)} IS NULL AND EXISTS (SELECT 1 FROM ${sepaMandates} sm WHERE sm.person_id = ${qualified(fees.personId)} AND sm.is_active = 1
    AND ${mandateValidOnSql("sm", earliestCollectionDate(today))})) OR ${inCollection})`;

/** A fee is overdue: reminded on its own, something open, its due date passed (§193 BGB), and no
 *  direct debit pending (issue 17: the club collects it rather than reminding). */
const feeOverdue = (today: string) =>
  sql`(${feeRemindable} AND ${qualified(fees.openAmount)} > 0 AND ${qualified(fees.dueDate)} IS NOT NULL AND ${qualified(fees.dueDate)} <= ${latestDueDateFor(1, today)} AND NOT ${debitPending(today)})`;

/**
 * Where the levels come from: a run's own (its parameters, fixed when it started) or STORED_LEVELS,
 * the table as it is when the query runs (the toggles: read in the same statement, so the page
 * needs no round trip to D1 for the levels before its list).
 */
export const STORED_LEVELS = "stored";
export type LevelSource = readonly ReminderLevel[] | typeof STORED_LEVELS;

/** The levels there can be (reminder_levels_level_range). */
const LEVEL_NUMBERS = [1, 2, 3] as const;

/**
 * A stored level's cut-off (latestDueDateFor of its days), NULL while it is disabled or missing.
 * Uncorrelated, so SQLite works it out once per statement.
 */
const storedCutoff = (level: number, today: string) =>
  sql<string | null>`(SELECT CASE WHEN rl.enabled = 1 THEN date(${today}, '-' || (rl.days + substr(${workingDayStepsBack(today)}, rl.days, 1)) || ' days') END
    FROM ${reminderLevels} rl WHERE rl.level = ${level})`;

/** An item is overdue and may be reminded (no level yet tells whether one is due). */
const overdueOf = (type: ReminderTargetType, today: string) => (type === "INVOICE" ? invoiceOverdue(today) : feeOverdue(today));

/**
 * The level due for an item that is overdue (overdueOf), as SQL; NULL when none is: the next
 * enabled level above its current one, if `days` have passed since the date it counts from. Only
 * meaningful behind overdueOf, which it does not test itself.
 */
function levelDueIfOverdue(levels: LevelSource, type: ReminderTargetType, today: string): SQL<number | null> {
  const current = reminderLevelOf(type);
  const base = nextLevelBaseOf(type);
  // The next enabled level above the current one, and whether it is due: the first WHEN that holds
  // decides, so a level not due yet is NULL (not the one after it).
  let cases: SQL[];
  if (levels === STORED_LEVELS) {
    cases = LEVEL_NUMBERS.map((level) => {
      const cutoff = storedCutoff(level, today);
      return sql`WHEN ${current} < ${level} AND ${cutoff} IS NOT NULL THEN CASE WHEN ${base} <= ${cutoff} THEN ${level} END`;
    });
  } else {
    const enabled = levels.filter((level) => level.enabled).sort((a, b) => a.level - b.level);
    if (enabled.length === 0) return sql<null>`NULL`;
    cases = enabled.map(
      (level) => sql`WHEN ${current} < ${level.level} THEN CASE WHEN ${base} <= ${latestDueDateFor(level.days, today)} THEN ${level.level} END`,
    );
  }
  return sql<number | null>`(CASE ${sql.join(cases, sql` `)} END)`;
}

/**
 * The level that is due for an item today, as SQL (NULL when none is): the next enabled level above
 * its current one, if the item is overdue and `days` have passed since the date it counts from.
 * Reads only the item's own columns (and, for a fee, whether a direct debit is pending), and with
 * STORED_LEVELS the levels.
 */
export function dueLevelOf(levels: LevelSource, type: ReminderTargetType, today: string): SQL<number | null> {
  return sql<number | null>`(CASE WHEN ${overdueOf(type, today)} THEN ${levelDueIfOverdue(levels, type, today)} END)`;
}

/** The Rechnungen's and the Kontenblatt's reminder toggle: all, only reminded, reminder due. */
const REMINDER_FILTERS = ["all", "reminded", "due"] as const;
export type ReminderFilter = (typeof REMINDER_FILTERS)[number];

/**
 * The toggle as a condition; 'due' reads the stored levels in the same statement (STORED_LEVELS).
 * `overdueIndex` (the default) tests overdue as a condition of its own, so SQLite may read the
 * overdue items from their partial index (invoice_headers_overdue_idx, fees_remindable_idx) instead
 * of testing every item, and then the level behind it without testing overdue again (for a fee that
 * is a lookup of its person's mandate: asked twice per fee, the toggle's count over the benchmark
 * data's 2,698 overdue fees took 1.6 to 2.3 times as long). A query that walks another index on
 * purpose turns it off: overdue then stays inside the level's CASE, where the planner does not see
 * it.
 */
export function reminderFilterCondition(
  filter: ReminderFilter | undefined,
  type: ReminderTargetType,
  today: string,
  { overdueIndex = true } = {},
): SQL | undefined {
  if (filter === "reminded") return sql`${reminderLevelOf(type)} > 0`;
  if (filter === "due") {
    if (!overdueIndex) return sql`${dueLevelOf(STORED_LEVELS, type, today)} IS NOT NULL`;
    return sql`${overdueOf(type, today)} AND ${levelDueIfOverdue(STORED_LEVELS, type, today)} IS NOT NULL`;
  }
  return undefined;
}

/** The toggle's value from the URL. */
export const reminderFilterOf = (value: string | undefined): ReminderFilter =>
  REMINDER_FILTERS.includes(value as ReminderFilter) ? (value as ReminderFilter) : "all";

/** The toggle of both grids (Rechnungen, Kontenblatt). */
export const REMINDER_TOGGLE = {
  param: "reminder",
  label: "Nach Mahnungen filtern",
  options: [
    { value: "all", label: "Alle" },
    { value: "reminded", label: "Nur gemahnte" },
    { value: "due", label: "Mahnung fällig" },
  ],
} as const;

// ---------------------------------------------------------------------------------------------
// The reminders written (history)

export type ReminderRow = {
  id: number;
  targetType: ReminderTargetType;
  targetId: number;
  /** 'Rechnung 2026001' or the fee's text. */
  item: string;
  personId: number;
  personName: string;
  level: number;
  levelTitle: string;
  date: string;
  newDueDate: string;
  openAmount: number;
  fee: number | null;
  /** Default interest within the fee (cents, 0 without). */
  interest: number;
  channel: string | null;
  /** PENDING, SENT, CANCELLED, or FAILED: still PENDING after its run finished with its person
   *  failed ('Versand fehlgeschlagen', derived from the run's record of failures). */
  status: string;
  /** Why the run could not send it (FAILED only). */
  failure: string | null;
  /** Whether its letter (PDF) is stored. */
  hasLetter: number;
  createdBy: string;
  jobId: number | null;
};

/** Whose reminders: one, of a person, of an invoice or of a fee (reminded itself, or the reminder
 *  fee), or all; `search` finds a person's name or the item's text. */
export type ReminderWhere = { id?: number; personId?: number; invoiceId?: number; feeId?: number; search?: string; failedOnly?: boolean };

/** A run that is over: a failure it recorded while running is retried, one recorded now stays. */
const RUN_OVER = sql`j.status IN ('DONE', 'FAILED')`;
/** The run's record of why it could not send the reminder's person their letter, once the run is
 *  over; with the reminder still not sent, it is 'Versand fehlgeschlagen'. */
const RUN_FAILURE = sql`(SELECT f.message FROM job_failures f JOIN jobs j ON j.id = f.job_id
    WHERE f.job_id = r.job_id AND f.item_id = r.person_id AND ${RUN_OVER})`;
const FAILED = sql`(r.status = 'PENDING' AND ${RUN_FAILURE} IS NOT NULL)`;

/** The columns the list sorts by (the grid's column ids); ties newest first. */
const REMINDER_SORTS: Record<string, SQL> = {
  date: sql`r.date`,
  item: sql`item`,
  personName: sql`p.last_name_key || ' ' || p.first_name_key`,
  levelTitle: sql`r.level`,
  openAmount: sql`r.open_amount`,
  fee: sql`fee`,
  interest: sql`r.interest`,
  newDueDate: sql`r.new_due_date`,
  channel: sql`r.channel`,
  status: sql`status`,
  createdBy: sql`r.created_by`,
};
export const REMINDER_DEFAULT_SORT: SortSpec = { id: "date", descending: true };

const ITEM_TEXT = sql`CASE WHEN r.target_type = 'INVOICE' THEN 'Rechnung ' || coalesce((SELECT h.invoice_number FROM invoice_headers h WHERE h.id = r.target_id), r.target_id)
           ELSE coalesce((SELECT f.text FROM fees f WHERE f.id = r.target_id), 'Posten ' || r.target_id) END`;

function reminderConditions(where: ReminderWhere): SQL {
  const pattern = where.search ? containsPattern(where.search) : null;
  const conditions = [
    where.id !== undefined ? sql`r.id = ${where.id}` : undefined,
    where.personId !== undefined ? sql`r.person_id = ${where.personId}` : undefined,
    where.invoiceId !== undefined ? sql`r.target_type = 'INVOICE' AND r.target_id = ${where.invoiceId}` : undefined,
    where.feeId !== undefined ? sql`((r.target_type = 'FEE' AND r.target_id = ${where.feeId}) OR r.fee_id = ${where.feeId})` : undefined,
    pattern ? sql`(p.full_name LIKE ${pattern} OR ${ITEM_TEXT} LIKE ${pattern})` : undefined,
    // From the few failures of finished runs to their reminders, not through every reminder.
    where.failedOnly
      ? sql`r.id IN (SELECT fr.id FROM job_failures f JOIN jobs j ON j.id = f.job_id AND ${RUN_OVER}
          JOIN ${reminders} fr ON fr.job_id = f.job_id AND fr.person_id = f.item_id WHERE fr.status = 'PENDING')`
      : undefined,
  ].filter((condition): condition is SQL => condition !== undefined);
  return conditions.length > 0 ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
}

const REMINDERS_FROM = sql`FROM ${reminders} r JOIN people p ON p.id = r.person_id LEFT JOIN ${reminderLevels} l ON l.level = r.level`;

/** The reminders, newest first (or sorted by a column): all of a person, an invoice or a fee, or all. */
async function listReminders(db: Db, where: ReminderWhere = {}, limit = 100, offset = 0, sort: SortSpec = REMINDER_DEFAULT_SORT): Promise<ReminderRow[]> {
  const direction = sort.descending ? sql`DESC` : sql`ASC`;
  const order = REMINDER_SORTS[sort.id] ?? REMINDER_SORTS.date;
  const rows = await db.all<ReminderRow>(sql`SELECT r.id AS id, r.target_type AS targetType, r.target_id AS targetId, ${ITEM_TEXT} AS item,
      r.person_id AS personId, p.full_name AS personName, r.level AS level, coalesce(l.title, 'Stufe ' || r.level) AS levelTitle,
      r.date AS date, r.new_due_date AS newDueDate, r.open_amount AS openAmount, (SELECT rf.amount FROM fees rf WHERE rf.id = r.fee_id) AS fee, r.interest AS interest,
      r.channel AS channel, CASE WHEN ${FAILED} THEN 'FAILED' ELSE r.status END AS status,
      CASE WHEN r.status = 'PENDING' THEN ${RUN_FAILURE} END AS failure, r.pdf_key IS NOT NULL AS hasLetter, r.created_by AS createdBy, r.job_id AS jobId
    ${REMINDERS_FROM} ${reminderConditions(where)}
    ORDER BY ${order} ${direction}, r.date DESC, r.id DESC LIMIT ${limit} OFFSET ${offset}`);
  return rows;
}

/** One page of the reminders (the grid 'Mahnungen': all, or of a person, an invoice, a fee) and how many there are. */
export async function pageOfReminders(db: Db, where: ReminderWhere, page: number, pageSize: number, sort: SortSpec = REMINDER_DEFAULT_SORT) {
  const [rows, [{ total }]] = await Promise.all([
    listReminders(db, where, pageSize, (page - 1) * pageSize, sort),
    db.all<{ total: number }>(sql`SELECT count(*) AS total ${REMINDERS_FROM} ${reminderConditions(where)}`),
  ]);
  return { rows, total };
}

/** Reminders whose mail failed ('Versand fehlgeschlagen'), newest first: the home page's card. */
export const failedReminders = (db: Db, limit: number) => listReminders(db, { failedOnly: true }, limit);

/** Every reminder of the query (the Excel export). */
export const allReminders = (db: Db, where: ReminderWhere, sort: SortSpec = REMINDER_DEFAULT_SORT) => listReminders(db, where, -1, 0, sort);

// ---------------------------------------------------------------------------------------------
// Cancel

export type CancelOutcome = { status: "cancelled"; reminder: ReminderRow } | { status: "refused"; message: string } | { status: "missing" };

/** The R2 key of a reminder's letter: null without one, undefined when there is no such reminder. */
export async function reminderLetterKeyOf(db: Db, id: number): Promise<string | null | undefined> {
  const [row] = await db.select({ pdfKey: reminders.pdfKey }).from(reminders).where(eq(reminders.id, id));
  return row ? row.pdfKey : undefined;
}

/** Not sent yet: waiting for its run, or its mail failed. */
export const isUnsent = (reminder: Pick<ReminderRow, "status">) => reminder.status === "PENDING" || reminder.status === "FAILED";

export const REMINDER_ALREADY_SENT = "Diese Mahnung ist schon versandt oder storniert: Sie bleibt, wie sie ist.";
const REMINDER_FEE_SETTLED = "Die Mahngebühr steht schon auf einer Rechnung oder ist (teilweise) bezahlt: Bitte zuerst dort korrigieren.";

export async function getReminder(db: Db, id: number): Promise<ReminderRow | undefined> {
  const [row] = await listReminders(db, { id }, 1);
  return row;
}

/** A reminder fee that a cancellation may zero: a REMINDER fee untouched since it was written
 *  (not on an invoice, nothing paid). `fee` is the fee's id as SQL. */
const feeCancellable = (fee: SQL) =>
  sql`EXISTS (SELECT 1 FROM ${fees} cf WHERE cf.id = ${fee} AND cf.kind = 'REMINDER' AND cf.is_invoiced = 0 AND cf.open_amount = cf.amount
    AND NOT EXISTS (SELECT 1 FROM invoice_rows ir WHERE ir.fee_id = cf.id AND ir.fee_released = 0))`;

/**
 * The writes of cancelling a reminder, for one batch (cancelReminder; the Mahnlauf for an item paid
 * before its letter went out): the reminder becomes CANCELLED while still PENDING and its fee (if
 * any) still cancellable; then its fee keeps its record (history) with amount and open amount 0 and
 * '(storniert)' in its text, so no money invariant moves. Each only while the state it needs holds.
 * The first statement returns the reminder's id when it was cancelled.
 */
export function cancelReminderStatements(id: number, actor: Actor, now: Date): Statement[] {
  const iso = now.toISOString();
  return [
    render(sql`UPDATE ${reminders} SET status = 'CANCELLED', cancelled_by = ${actor.name}, cancelled_on = ${iso}, last_modified_by = ${actor.name},
        last_modified_on = ${iso}, row_version = row_version + 1
      WHERE id = ${id} AND status = 'PENDING' AND (fee_id IS NULL OR ${feeCancellable(sql`${reminders}.fee_id`)})
      RETURNING id`),
    render(sql`UPDATE ${fees} SET amount = 0, open_amount = 0, text = substr(text, 1, 88) || ' (storniert)', last_modified_by = ${actor.name},
        last_modified_on = ${iso}, row_version = row_version + 1
      WHERE id = (SELECT r.fee_id FROM ${reminders} r WHERE r.id = ${id} AND r.status = 'CANCELLED') AND amount > 0 AND ${feeCancellable(sql`${fees}.id`)}`),
  ];
}

/**
 * Cancels a reminder that is not sent yet, and its reminder fee with it (cancelReminderStatements,
 * one batch). Refused when the fee is already on an invoice or (partly) paid.
 */
export async function cancelReminder(db: Db, id: number, actor: Actor, now = new Date()): Promise<CancelOutcome> {
  const [reminder] = await db.select().from(reminders).where(eq(reminders.id, id));
  if (!reminder) return { status: "missing" };
  if (!isUnsent(reminder)) return { status: "refused", message: REMINDER_ALREADY_SENT };
  if (reminder.feeId !== null) {
    const [fee] = await db.select().from(fees).where(eq(fees.id, reminder.feeId));
    const onInvoice = fee && (await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM invoice_rows WHERE fee_id = ${fee.id} AND fee_released = 0`))[0].n > 0;
    if (fee && (fee.isInvoiced || onInvoice || fee.openAmount < fee.amount)) return { status: "refused", message: REMINDER_FEE_SETTLED };
  }
  const [cancelled] = await runAtomically(db, cancelReminderStatements(id, actor, now));
  if (cancelled.results.length === 0) return { status: "refused", message: REMINDER_ALREADY_SENT };
  return { status: "cancelled", reminder: (await getReminder(db, id))! };
}
