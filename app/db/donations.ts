/**
 * Spenden and Zuwendungsbestätigungen in the database (issue 35 item 5): the rules hold whatever
 * path writes, because triggers check them, not only the model (app/models/donations.server.ts).
 *
 * - A donation is booked as a fee of its own: of kind 'OTHER', of the same person and amount, on no
 *   invoice. So a membership fee (kind ANNUAL or ENROLLMENT) can never be a donation, and nothing
 *   can ever be confirmed for one (§ 10b Abs. 1 Satz 8 Nr. 1 EStG).
 * - A donation is never changed or deleted: it only gets its receipt (once) or is cancelled (once,
 *   and not after a receipt names it). Its fee keeps person, date, amount, kind, text and account.
 * - A receipt is never changed or deleted (the Doppel kept, § 50 Abs. 7 EStDV): only its stored
 *   PDF is recorded, once.
 * - The GDPR erasure of what has outlived its retention (write context ERASE) is the one exception.
 *
 * Written with the history triggers at the end of a migration (scripts/history-triggers.ts through
 * app/db/history.ts).
 */

/** The triggers' ABORT messages (developer English; the model maps them to German). */
const DONATION_NOT_A_DONATION_FEE = "donation: not a donation fee";
const FROZEN_DONATION = "frozen: donation";
const FROZEN_DONATION_RECEIPT = "frozen: donation receipt";

const NOT_ERASING = "(SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE'";

export function donationTriggers(): { name: string; sql: string }[] {
  return [
    {
      name: "donations_fee_is_donation",
      sql: `CREATE TRIGGER donations_fee_is_donation BEFORE INSERT ON donations
  WHEN NOT EXISTS (SELECT 1 FROM fees f WHERE f.id = NEW.fee_id AND f.kind = 'OTHER' AND f.person_id = NEW.person_id AND f.amount = NEW.amount)
    OR EXISTS (SELECT 1 FROM invoice_rows r WHERE r.fee_id = NEW.fee_id)
BEGIN
  SELECT RAISE(ABORT, '${DONATION_NOT_A_DONATION_FEE}');
END`,
    },
    {
      name: "donations_frozen",
      sql: `CREATE TRIGGER donations_frozen BEFORE UPDATE ON donations
  WHEN ${NOT_ERASING} AND (NEW.person_id IS NOT OLD.person_id OR NEW.date IS NOT OLD.date OR NEW.amount IS NOT OLD.amount
    OR NEW.fee_id IS NOT OLD.fee_id OR NEW.text IS NOT OLD.text OR NEW.created_by IS NOT OLD.created_by OR NEW.created_on IS NOT OLD.created_on
    OR (OLD.receipt_id IS NOT NULL AND NEW.receipt_id IS NOT OLD.receipt_id)
    OR (OLD.cancelled_on IS NOT NULL AND (NEW.cancelled_on IS NOT OLD.cancelled_on OR NEW.cancelled_by IS NOT OLD.cancelled_by)))
BEGIN
  SELECT RAISE(ABORT, '${FROZEN_DONATION}');
END`,
    },
    {
      name: "donations_kept",
      sql: `CREATE TRIGGER donations_kept BEFORE DELETE ON donations WHEN ${NOT_ERASING}
BEGIN
  SELECT RAISE(ABORT, '${FROZEN_DONATION}');
END`,
    },
    {
      name: "donation_fees_frozen",
      sql: `CREATE TRIGGER donation_fees_frozen BEFORE UPDATE ON fees
  WHEN ${NOT_ERASING} AND EXISTS (SELECT 1 FROM donations d WHERE d.fee_id = OLD.id)
    AND (NEW.person_id IS NOT OLD.person_id OR NEW.date IS NOT OLD.date OR NEW.amount IS NOT OLD.amount OR NEW.kind IS NOT OLD.kind
      OR NEW.text IS NOT OLD.text OR NEW.account_number IS NOT OLD.account_number OR NEW.sphere IS NOT OLD.sphere OR NEW.send_invoice IS NOT OLD.send_invoice)
BEGIN
  SELECT RAISE(ABORT, '${FROZEN_DONATION}');
END`,
    },
    {
      name: "donation_fees_not_invoiced",
      sql: `CREATE TRIGGER donation_fees_not_invoiced BEFORE INSERT ON invoice_rows
  WHEN NEW.fee_id IS NOT NULL AND EXISTS (SELECT 1 FROM donations d WHERE d.fee_id = NEW.fee_id)
BEGIN
  SELECT RAISE(ABORT, '${DONATION_NOT_A_DONATION_FEE}');
END`,
    },
    {
      name: "donation_receipts_frozen",
      sql: `CREATE TRIGGER donation_receipts_frozen BEFORE UPDATE ON donation_receipts
  WHEN ${NOT_ERASING} AND (NEW.year IS NOT OLD.year OR NEW.seq IS NOT OLD.seq OR NEW.kind IS NOT OLD.kind OR NEW.person_id IS NOT OLD.person_id
    OR NEW.issued_on IS NOT OLD.issued_on OR NEW.period_from IS NOT OLD.period_from OR NEW.period_to IS NOT OLD.period_to
    OR NEW.amount IS NOT OLD.amount OR NEW.donor_name IS NOT OLD.donor_name OR NEW.donor_address IS NOT OLD.donor_address
    OR NEW.issuer IS NOT OLD.issuer OR NEW.created_by IS NOT OLD.created_by OR NEW.created_on IS NOT OLD.created_on
    OR (OLD.pdf_key IS NOT NULL AND (NEW.pdf_key IS NOT OLD.pdf_key OR NEW.pdf_sha256 IS NOT OLD.pdf_sha256)))
BEGIN
  SELECT RAISE(ABORT, '${FROZEN_DONATION_RECEIPT}');
END`,
    },
    {
      name: "donation_receipts_kept",
      sql: `CREATE TRIGGER donation_receipts_kept BEFORE DELETE ON donation_receipts WHEN ${NOT_ERASING}
BEGIN
  SELECT RAISE(ABORT, '${FROZEN_DONATION_RECEIPT}');
END`,
    },
  ];
}
