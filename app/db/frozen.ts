/**
 * Issued invoices are frozen (issue 30: § 146 Abs. 4 AO, § 14 UStG, GoBD): once an invoice is
 * issued, its number, recipient, dates, amount and rows never change and it is never deleted; a
 * mistake is corrected by a new document (Storno, Gutschrift) that names it. The models refuse
 * such writes with a German message; these triggers are the last line, so that no path (an
 * unforeseen route, a bulk run, a hand-made batch) can do it either.
 *
 * What stays writable on an issued invoice: the sent date, the open amount (lowered and raised only
 * by the payment journal's allocations, below), the payment comment, the comment, the audit columns, and the
 * stored PDF's path and SHA-256, each set once; of its rows only the mark that a Storno released
 * their fee, set once. The GDPR erasure (write context ERASE) may still
 * delete what has outlived its retention period (§ 147 AO) and copy the recipient of invoices from
 * before issue 30.
 *
 * The triggers belong to their tables: a migration that rebuilds invoice_headers or invoice_rows
 * drops them, so scripts/history-triggers.ts writes them with the history triggers (at the end of
 * the migration). Rebuilding invoice_headers, drop the invoice_rows triggers first (0031 does):
 * SQLite refuses the rename while a trigger names the dropped table. tests/integration/invoices.test.ts
 * checks that the triggers work.
 */

/** The message of the triggers' ABORT (English: a developer's message, mapped to German by frozenInvoiceRefusal). */
export const FROZEN_INVOICE = "frozen: issued invoice";

const NOT_ERASING = "(SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE'";
const ABORT = `SELECT RAISE(ABORT, '${FROZEN_INVOICE}');`;
const issued = (invoiceId: string) => `(SELECT status FROM invoice_headers WHERE id = ${invoiceId}) = 'ISSUED'`;

/** Columns of an issued invoice that never change. */
const FROZEN_HEADER_COLUMNS = [
  "id",
  "person_id",
  "invoice_number",
  "status",
  "kind",
  "corrects_invoice_id",
  "issued_on",
  "issued_by",
  "date",
  "due_date",
  "amount",
  "job_id",
  "issued_salutation",
  "issued_title",
  "issued_first_name",
  "issued_last_name",
  "issued_street_number",
  "issued_zip",
  "issued_city",
  "issued_tax_status",
  "created_by",
  "created_on",
];
/** Set once: from empty to a value, never after. */
const SET_ONCE_HEADER_COLUMNS = ["pdf_file_path", "pdf_sha256"];
/** Columns of an issued invoice's row that never change; its fee_released goes from 0 to 1 once
 *  (a Stornorechnung releases the fee for billing again). */
const FROZEN_ROW_COLUMNS = [
  "id",
  "invoice_id",
  "fee_id",
  "line_number",
  "text",
  "amount",
  "service_from",
  "service_to",
  "tax_case",
  "job_id",
  "created_by",
  "created_on",
];

export function frozenInvoiceTriggers(): { name: string; sql: string }[] {
  const changed = [
    ...FROZEN_HEADER_COLUMNS.map((column) => `NEW."${column}" IS NOT OLD."${column}"`),
    ...SET_ONCE_HEADER_COLUMNS.map((column) => `(OLD."${column}" IS NOT NULL AND NEW."${column}" IS NOT OLD."${column}")`),
  ];
  const trigger = (name: string, when: string) => ({ name, sql: `CREATE TRIGGER ${name} ${when} BEGIN\n  ${ABORT}\nEND` });
  return [
    trigger("frozen_invoice_headers_update", `BEFORE UPDATE ON invoice_headers WHEN OLD.status = 'ISSUED' AND ${NOT_ERASING} AND (${changed.join(" OR ")})`),
    trigger("frozen_invoice_headers_delete", `BEFORE DELETE ON invoice_headers WHEN OLD.status = 'ISSUED' AND ${NOT_ERASING}`),
    trigger("frozen_invoice_rows_insert", `BEFORE INSERT ON invoice_rows WHEN ${issued("NEW.invoice_id")} AND ${NOT_ERASING}`),
    trigger(
      "frozen_invoice_rows_update",
      `BEFORE UPDATE ON invoice_rows WHEN (${issued("OLD.invoice_id")} OR ${issued("NEW.invoice_id")}) AND ${NOT_ERASING} AND (${[
        ...FROZEN_ROW_COLUMNS.map((column) => `NEW."${column}" IS NOT OLD."${column}"`),
        `NEW."fee_released" < OLD."fee_released"`,
      ].join(" OR ")})`,
    ),
    trigger("frozen_invoice_rows_delete", `BEFORE DELETE ON invoice_rows WHEN ${issued("OLD.invoice_id")} AND ${NOT_ERASING}`),
  ];
}

/** The message of the journal's ABORT (mapped to German by the models, as FROZEN_INVOICE). */
const FROZEN_PAYMENT = "frozen: payment journal";

/**
 * The payment journal (issue 30 item 4, § 146 Abs. 4 AO): an entry and its allocations are never
 * changed or deleted, only undone by a counter-entry; the GDPR erasure (ERASE) may delete what has
 * outlived its retention period. An allocation lowers the open amount of its invoice or fee (a
 * counter-entry's negative one raises it again) in the statement that writes it: the open amount
 * is what the allocations left, and the tables' checks (0 <= open <= amount) refuse an allocation
 * beyond what is open. `payment_allocations_apply` names fees and invoice_headers: a migration that
 * rebuilds either drops it first (SQLite refuses the rename otherwise); the generated block at the
 * migration's end writes it again.
 */
export function paymentJournalTriggers(): { name: string; sql: string }[] {
  const abort = `SELECT RAISE(ABORT, '${FROZEN_PAYMENT}');`;
  const frozen = (table: string, action: "UPDATE" | "DELETE") => ({
    name: `frozen_${table}_${action.toLowerCase()}`,
    sql: `CREATE TRIGGER frozen_${table}_${action.toLowerCase()} BEFORE ${action} ON ${table} WHEN ${NOT_ERASING} BEGIN\n  ${abort}\nEND`,
  });
  return [
    frozen("payments", "UPDATE"),
    frozen("payments", "DELETE"),
    frozen("payment_allocations", "UPDATE"),
    frozen("payment_allocations", "DELETE"),
    {
      name: "payment_allocations_apply",
      sql: `CREATE TRIGGER payment_allocations_apply AFTER INSERT ON payment_allocations BEGIN
  UPDATE invoice_headers SET open_amount = open_amount - NEW.amount WHERE id = NEW.invoice_id;
  UPDATE fees SET open_amount = open_amount - NEW.amount WHERE id = NEW.fee_id;
END`,
    },
  ];
}
