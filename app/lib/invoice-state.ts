/**
 * What an invoice's state column says (issue 30): 'Entwurf' until issued; a correction by its
 * kind ('Stornorechnung', 'Gutschrift'); an invoice a Stornorechnung cancelled 'Storniert'; else
 * derived from what is open on it: 'Ausgestellt' (all of it open), 'Teilweise bezahlt', 'Bezahlt'.
 * Nothing stored: the state follows the invoice's status, kind, open amount and corrections.
 */
export type InvoiceKindName = "INVOICE" | "STORNO" | "CREDIT_NOTE";

/** What a document of each kind is called (its heading, its title, its state). */
export const INVOICE_KIND_LABELS: Record<InvoiceKindName, string> = { INVOICE: "Rechnung", STORNO: "Stornorechnung", CREDIT_NOTE: "Gutschrift" };

export type InvoiceStateSource = {
  status: "DRAFT" | "ISSUED";
  kind: InvoiceKindName;
  amount: number;
  openAmount: number;
  cancelled: boolean;
};

export function invoiceStateLabel({ status, kind, amount, openAmount, cancelled }: InvoiceStateSource): string {
  if (status === "DRAFT") return "Entwurf";
  if (kind !== "INVOICE") return INVOICE_KIND_LABELS[kind];
  if (cancelled) return "Storniert";
  if (amount > 0 && openAmount === 0) return "Bezahlt";
  if (openAmount > 0 && openAmount < amount) return "Teilweise bezahlt";
  return "Ausgestellt";
}
