/**
 * What an invoice's state column says (issue 30): 'Entwurf' until issued; then derived from what
 * is open on it: 'Ausgestellt' (all of it open), 'Teilweise bezahlt', 'Bezahlt'. Nothing stored:
 * the state follows the invoice's status and open amount.
 */
export type InvoiceStateSource = { status: "DRAFT" | "ISSUED"; amount: number; openAmount: number };

export function invoiceStateLabel({ status, amount, openAmount }: InvoiceStateSource): string {
  if (status === "DRAFT") return "Entwurf";
  if (amount > 0 && openAmount === 0) return "Bezahlt";
  if (openAmount > 0 && openAmount < amount) return "Teilweise bezahlt";
  return "Ausgestellt";
}
