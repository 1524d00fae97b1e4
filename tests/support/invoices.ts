import { env } from "cloudflare:test";

/**
 * Issues an invoice a test wrote as a draft (issue 30): the test inserts the header without a
 * number, then its rows (an issued invoice's rows are frozen, app/db/frozen.ts), then this makes it
 * issued with the given number and open amount (default: all of it), its recipient frozen and its
 * rows' date of service the invoice's date where they have none. What
 * the app's issuing does beyond that (the counter, the fees) the test sets as it needs.
 */
export async function issueTestInvoice(id: number, invoiceNumber: number, openAmount: number | null = null, issuedOn = "2026-11-01T09:00:00.000Z") {
  await env.DB.prepare(
    "UPDATE invoice_rows SET service_from = coalesce(service_from, (SELECT date FROM invoice_headers WHERE id = ?1)), service_to = coalesce(service_to, service_from, (SELECT date FROM invoice_headers WHERE id = ?1)) WHERE invoice_id = ?1",
  )
    .bind(id)
    .run();
  const { meta } = await env.DB.prepare(
    `UPDATE invoice_headers SET status = 'ISSUED', invoice_number = ?2, issued_on = ?3, open_amount = coalesce(?4, amount),
      (issued_salutation, issued_title, issued_first_name, issued_last_name, issued_street_number, issued_zip, issued_city) =
        (SELECT salutation, title, first_name, last_name, street_number, zip, city FROM people WHERE people.id = invoice_headers.person_id)
      WHERE id = ?1 AND status = 'DRAFT'`,
  )
    .bind(id, invoiceNumber, issuedOn, openAmount)
    .run();
  if (!meta.changes) throw new Error(`Rechnung ${id} ist kein Entwurf`);
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
