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

export function reminderStandingTriggers(): { name: string; sql: string }[] {
  const trigger = (name: string, when: string, body: string) => ({ name, sql: `CREATE TRIGGER ${name} ${when} BEGIN\n${body}\nEND` });
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

/** The columns the triggers write: not changes of their own in the Änderungsverlauf. */
export const DERIVED_COLUMNS = STANDING.map(([column]) => column);
