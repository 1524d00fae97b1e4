/**
 * Das Kassenbuch in the database (issue 35 item 2; § 146 Abs. 1 and 4 AO, GoBD Rz. 48 ff.): the rules
 * hold whatever path writes, because triggers check them, not only the models.
 *
 * - One ordered sequence per Kasse: the Kasse's last entry is the one with the highest id, and a
 *   new entry follows it. It may not be dated before it (zeitgerecht, geordnet; the same day is
 *   fine, entries of one day follow in their order), its receipt number is the next of its year
 *   (1 on the first entry of a year), and its balance is the last balance plus its amount.
 * - The balance never goes below zero (Kassensturzfähigkeit: a negative cash balance is a formal
 *   defect). An entry that would is refused, and with it everything of its batch: an ABORT in a
 *   trigger fails the statement, and D1 runs a batch as one transaction.
 * - Never changed or deleted; the GDPR erasure (write context ERASE) is the one exception, as for
 *   the payment journal (it only unlinks the journal's payments it erases). A correction is a
 *   counter-entry naming the entry it reverses (at most once: unique index), with the negated
 *   amount; a counter-entry is not reversed again.
 * - Every cash payment of the journal (method CASH, in and out, its counter-entries too) is an
 *   entry of the Kasse JOURNAL_CASH_BOX: a trigger on payments writes it in the payment's own
 *   statement, so no caller can book cash without it. An entry of kind PAYMENT names a cash
 *   payment of the same date and amount; no other entry names one.
 *
 * The triggers are written with the history triggers at the end of a migration
 * (scripts/history-triggers.ts through app/db/history.ts).
 */
import { sql, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";

/** The Kasse that takes the journal's cash payments (created by the migration). */
export const JOURNAL_CASH_BOX = 1;

/** The triggers' ABORT messages (developer English; the models map them to German). */
export const CASH_BELOW_ZERO = "cash book: below zero";
export const CASH_BACK_DATED = "cash book: back-dated";
const CASH_OUT_OF_SEQUENCE = "cash book: out of sequence";
export const CASH_BAD_REVERSAL = "cash book: bad reversal";
const CASH_BAD_PAYMENT = "cash book: bad payment link";
export const FROZEN_CASH_BOOK = "frozen: cash book";

const NOT_ERASING = "(SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE'";

/** The Kasse's last entry's column, for the box given as SQL. */
const lastOf = (column: string, box: string) => `(SELECT ${column} FROM cash_entries WHERE cash_box_id = ${box} ORDER BY id DESC LIMIT 1)`;
/** The number an entry dated `date` gets after the Kasse's last entry: the next of its year, 1 in a new year. Its
 *  CASE stands after a space: wrangler's migration splitter sees a CASE only there (docs/development.md). */
const nextSeq = (box: string, date: string) =>
  `CASE WHEN ${lastOf("date", box)} IS NULL OR substr(${lastOf("date", box)}, 1, 4) <> substr(${date}, 1, 4) THEN 1 ELSE ${lastOf("seq", box)} + 1 END `;

type EntryValues = {
  box: SQL;
  entryKey: SQL;
  date: SQL;
  kind: SQL;
  amount: SQL;
  text: SQL;
  paymentId: SQL;
  reversesEntryId: SQL;
  account: SQL;
  /** NULL where the caller has none (a payment's entry). */
  sphere?: SQL;
  createdBy: SQL;
  createdOn: SQL;
};

/** INSERT of one Kasse entry after the Kasse's last one: its number and balance computed from it. */
export function cashEntryInsert(v: EntryValues): SQL {
  // The box is a plain integer in every caller (a parameter would be bound once per use).
  const box = sql`${v.box}`;
  const last = (column: string) => sql`(SELECT ${sql.raw(column)} FROM cash_entries WHERE cash_box_id = ${box} ORDER BY id DESC LIMIT 1)`;
  return sql`INSERT INTO cash_entries (cash_box_id, entry_key, seq, date, kind, amount, balance, text, payment_id, reverses_entry_id, account, sphere, created_by, created_on)
    SELECT ${box}, ${v.entryKey}, CASE WHEN ${last("date")} IS NULL OR substr(${last("date")}, 1, 4) <> substr(${v.date}, 1, 4) THEN 1 ELSE ${last("seq")} + 1 END ,
      ${v.date}, ${v.kind}, ${v.amount}, coalesce(${last("balance")}, 0) + ${v.amount}, substr(${v.text}, 1, 200), ${v.paymentId}, ${v.reversesEntryId},
      ${v.account}, ${v.sphere ?? sql`NULL`}, ${v.createdBy}, ${v.createdOn}`;
}

const raw = (expression: string) => sql.raw(expression);
const dialect = new SQLiteSyncDialect();

export function cashBookTriggers(): { name: string; sql: string }[] {
  const abort = (message: string, when: string) => `SELECT RAISE(ABORT, '${message}') WHERE ${when};`;
  const box = "NEW.cash_box_id";
  const rules = [
    abort(CASH_BACK_DATED, `NEW.date < ${lastOf("date", box)}`),
    abort(CASH_BELOW_ZERO, `coalesce(${lastOf("balance", box)}, 0) + NEW.amount < 0`),
    abort(CASH_OUT_OF_SEQUENCE, `NEW.balance IS NOT coalesce(${lastOf("balance", box)}, 0) + NEW.amount OR NEW.seq IS NOT ( ${nextSeq(box, "NEW.date")})`),
    abort(
      CASH_BAD_REVERSAL,
      `NEW.reverses_entry_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM cash_entries o WHERE o.id = NEW.reverses_entry_id
        AND o.cash_box_id = NEW.cash_box_id AND o.amount = -NEW.amount AND o.kind = NEW.kind AND o.reverses_entry_id IS NULL)`,
    ),
    abort(
      CASH_BAD_PAYMENT,
      `(NEW.kind = 'PAYMENT') <> (NEW.payment_id IS NOT NULL) OR (NEW.payment_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM payments p
        WHERE p.id = NEW.payment_id AND p.method = 'CASH' AND p.amount = NEW.amount AND p.date = NEW.date))`,
    ),
  ];
  const journalEntry = dialect.sqlToQuery(
    cashEntryInsert({
      box: raw(String(JOURNAL_CASH_BOX)),
      entryKey: raw("NULL"),
      date: raw("NEW.date"),
      kind: raw("'PAYMENT'"),
      amount: raw("NEW.amount"),
      text: raw("NEW.text"),
      paymentId: raw("NEW.id"),
      reversesEntryId: raw("(SELECT c.id FROM cash_entries c WHERE c.payment_id = NEW.reverses_payment_id)"),
      account: raw("NULL"),
      createdBy: raw("NEW.created_by"),
      createdOn: raw("NEW.created_on"),
    }),
  ).sql;
  const frozen = (action: "UPDATE" | "DELETE") => ({
    name: `frozen_cash_entries_${action.toLowerCase()}`,
    sql: `CREATE TRIGGER frozen_cash_entries_${action.toLowerCase()} BEFORE ${action} ON cash_entries WHEN ${NOT_ERASING} BEGIN\n  SELECT RAISE(ABORT, '${FROZEN_CASH_BOOK}');\nEND`,
  });
  return [
    { name: "cash_entries_rules", sql: `CREATE TRIGGER cash_entries_rules BEFORE INSERT ON cash_entries BEGIN\n  ${rules.join("\n  ")}\nEND` },
    frozen("UPDATE"),
    frozen("DELETE"),
    {
      name: "payments_cash_book",
      sql: `CREATE TRIGGER payments_cash_book AFTER INSERT ON payments WHEN NEW.method = 'CASH' BEGIN\n  ${journalEntry};\nEND`,
    },
  ];
}
