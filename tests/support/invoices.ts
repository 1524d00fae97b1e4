import { env } from "cloudflare:test";

/**
 * Issues an invoice a test wrote as a draft (issue 30): the test inserts the header without a
 * number, then its rows (an issued invoice's rows are frozen, app/db/frozen.ts), then this makes it
 * issued with the given number and open amount (default: all of it), its recipient frozen and its
 * rows' date of service the invoice's date where they have none. An open amount below the
 * invoice's amount is a transfer booked in the payment journal (open = amount - allocations). What
 * the app's issuing does beyond that (the counter, the fees) the test sets as it needs.
 */
export async function issueTestInvoice(id: number, invoiceNumber: number, openAmount: number | null = null, issuedOn = "2026-11-01T09:00:00.000Z") {
  await env.DB.prepare(
    "UPDATE invoice_rows SET service_from = coalesce(service_from, (SELECT date FROM invoice_headers WHERE id = ?1)), service_to = coalesce(service_to, service_from, (SELECT date FROM invoice_headers WHERE id = ?1)) WHERE invoice_id = ?1",
  )
    .bind(id)
    .run();
  const { meta } = await env.DB.prepare(
    `UPDATE invoice_headers SET status = 'ISSUED', invoice_number = ?2, issued_on = ?3, open_amount = max(amount, 0),
      (issued_salutation, issued_title, issued_first_name, issued_last_name, issued_street_number, issued_zip, issued_city) =
        (SELECT salutation, title, first_name, last_name, street_number, zip, city FROM people WHERE people.id = invoice_headers.person_id)
      WHERE id = ?1 AND status = 'DRAFT'`,
  )
    .bind(id, invoiceNumber, issuedOn)
    .run();
  if (!meta.changes) throw new Error(`Rechnung ${id} ist kein Entwurf`);
  if (openAmount !== null) await payTestInvoice(id, null, issuedOn.slice(0, 10), openAmount);
}

/**
 * Books a transfer on an issued invoice in the payment journal: `amount` cents, or (with
 * `leaveOpen`) what brings its open amount down to that. The allocation's trigger lowers the open amount.
 */
async function payTestInvoice(id: number, amount: number | null, date = "2026-11-10", leaveOpen: number | null = null) {
  const row = await env.DB.prepare("SELECT person_id AS personId, open_amount AS openAmount FROM invoice_headers WHERE id = ?1")
    .bind(id)
    .first<{ personId: number; openAmount: number }>();
  const paid = amount ?? row!.openAmount - (leaveOpen ?? 0);
  if (paid <= 0) return;
  const key = `test:${crypto.randomUUID()}`;
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO payments (entry_key, person_id, date, amount, method, source, text, created_by, created_on) VALUES (?1, ?2, ?3, ?4, 'TRANSFER', 'MANUAL', 'Test', 'Test', ?5)",
    ).bind(key, row!.personId, date, paid, new Date().toISOString()),
    env.DB.prepare(
      "INSERT INTO payment_allocations (payment_id, invoice_id, amount, created_by, created_on) SELECT id, ?2, ?3, 'Test', created_on FROM payments WHERE entry_key = ?1",
    ).bind(key, id, Math.min(paid, row!.openAmount)),
  ]);
}

/** What makes an inserted invoice issued (with its invoice_number): for a test's invoice that gets no rows afterwards. */
export const ISSUED = { status: "ISSUED", issuedOn: "2026-11-01T09:00:00.000Z" } as const;

/**
 * Statements a test runs to clear data away, as the GDPR erasure and the reseed do (write context
 * ERASE): issued invoices and their rows are otherwise never deleted (app/db/frozen.ts).
 */
export async function clearingAway(...statements: string[]) {
  await env.DB.batch([
    env.DB.prepare("INSERT OR REPLACE INTO write_context (id, actor, action, source) VALUES (1, 'Test', 'ERASE', NULL)"),
    ...statements.map((statement) => env.DB.prepare(statement)),
    env.DB.prepare("DELETE FROM write_context"),
  ]);
}
