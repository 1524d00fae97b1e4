/**
 * Figures the database keeps itself, by triggers: written in the very statement that changes what
 * they are derived from, so no write path can leave them stale.
 *
 * An item's standing in the Mahnwesen (the reminder columns of fees and invoice_headers, see
 * `reminderStanding` in schema.ts) is derived from its reminders that are not cancelled: every
 * insert, change and delete of a reminder refreshes the standing of the item it names (before and
 * after the change). The columns are not kept in the Änderungsverlauf (app/db/history.ts): the
 * reminder itself is.
 *
 * The sums of the fees (fee_totals, see schema.ts) are derived from the fees: every insert, change
 * of what they sum and delete of a fee takes the fee out of its old row and adds it to its new one.
 *
 * The triggers name fees and invoice_headers: a migration that rebuilds either table drops them
 * first (SQLite refuses the rename otherwise); the generated block at the migration's end
 * (`npm run db:history`) writes them again.
 */

/** The reminder columns of the item and the SQL that derives each from the item's reminders. */
const STANDING: [column: string, derived: (reminders: string) => string][] = [
  ["reminder_level", (reminders) => `(SELECT coalesce(max(rm.level), 0) ${reminders})`],
  ["last_reminder_date", (reminders) => `(SELECT max(rm.date) ${reminders})`],
  ["reminder_due_date", (reminders) => `(SELECT rm.new_due_date ${reminders} ORDER BY rm.level DESC LIMIT 1)`],
];

const ITEMS = [
  { table: "invoice_headers", type: "INVOICE" },
  { table: "fees", type: "FEE" },
] as const;

/** Refreshes the standing of the item a reminder row (NEW or OLD) names. */
function refresh(row: "NEW" | "OLD"): string {
  return ITEMS.map(({ table, type }) => {
    const reminders = `FROM reminders rm WHERE rm.target_type = '${type}' AND rm.target_id = ${table}.id AND rm.status <> 'CANCELLED'`;
    const assignments = STANDING.map(([column, derived]) => `${column} = ${derived(reminders)}`).join(", ");
    return `  UPDATE ${table} SET ${assignments} WHERE ${row}.target_type = '${type}' AND id = ${row}.target_id;`;
  }).join("\n");
}

const trigger = (name: string, when: string, body: string) => ({ name, sql: `CREATE TRIGGER ${name} ${when} BEGIN\n${body}\nEND` });

export function reminderStandingTriggers(): { name: string; sql: string }[] {
  return [
    trigger("reminders_standing_insert", "AFTER INSERT ON reminders", refresh("NEW")),
    trigger(
      "reminders_standing_update",
      "AFTER UPDATE OF target_type, target_id, level, date, new_due_date, status ON reminders",
      `${refresh("OLD")}\n${refresh("NEW")}`,
    ),
    trigger("reminders_standing_delete", "AFTER DELETE ON reminders", refresh("OLD")),
  ];
}

/** A fee's row (NEW or OLD) in fee_totals: invoiced or not, open or paid, an open fee's due date.
 *  iif, not CASE … END: wrangler's statement splitter misses an END followed by a comma and then
 *  runs statements together (docs/development.md). */
const totalsKeyOf = (row: "NEW" | "OLD") =>
  [
    ["is_invoiced", `${row}.is_invoiced <> 0`],
    ["is_open", `${row}.open_amount > 0`],
    ["due_date", `iif(${row}.open_amount > 0, coalesce(${row}.due_date, ''), '')`],
  ] as const;

/** The WHERE of the fee's row. */
const totalsKey = (row: "NEW" | "OLD") =>
  totalsKeyOf(row)
    .map(([column, value]) => `${column} = ${column === "due_date" ? value : `(${value})`}`)
    .join(" AND ");

/** Adds the fee to its row of fee_totals (made when it is the first). */
const addToTotals = (row: "NEW" | "OLD") => `  INSERT INTO fee_totals (is_invoiced, is_open, due_date, fees, amount, open_amount)
    VALUES (${totalsKeyOf(row)
      .map(([, value]) => value)
      .join(", ")}, 1, ${row}.amount, ${row}.open_amount)
    ON CONFLICT (is_invoiced, is_open, due_date) DO UPDATE SET fees = fees + 1, amount = amount + excluded.amount, open_amount = open_amount + excluded.open_amount;`;

/** Takes the fee out of its row of fee_totals (dropped when it was the last). */
const takeFromTotals = (
  row: "NEW" | "OLD",
) => `  UPDATE fee_totals SET fees = fees - 1, amount = amount - ${row}.amount, open_amount = open_amount - ${row}.open_amount
    WHERE ${totalsKey(row)};
  DELETE FROM fee_totals WHERE fees = 0 AND ${totalsKey(row)};`;

export function feeTotalsTriggers(): { name: string; sql: string }[] {
  return [
    trigger("fee_totals_insert", "AFTER INSERT ON fees", addToTotals("NEW")),
    trigger("fee_totals_update", "AFTER UPDATE OF amount, open_amount, is_invoiced, due_date ON fees", `${takeFromTotals("OLD")}\n${addToTotals("NEW")}`),
    trigger("fee_totals_delete", "AFTER DELETE ON fees", takeFromTotals("OLD")),
  ];
}

/** The columns the triggers write: not changes of their own in the Änderungsverlauf. */
export const DERIVED_COLUMNS = STANDING.map(([column]) => column);
