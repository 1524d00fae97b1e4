/**
 * Rules of the payment journal (issue 30) that the grid (which row actions it offers) and the
 * model (what it refuses) share.
 */
import type { PaymentSource } from "~/db/schema";

/** Why an entry cannot be undone by hand (German), or null. */
export function reversalRefusal(entry: { source: PaymentSource; reversedBy: number | null }): string | null {
  if (entry.source === "REVERSAL") return "Eine Gegenbuchung wird nicht selbst zurückgebucht: Buche die Zahlung neu.";
  if (entry.reversedBy !== null) return "Diese Zahlung ist schon zurückgebucht.";
  if (entry.source === "CORRECTION") return "Eine Verrechnung mit einer Stornorechnung oder Gutschrift bleibt stehen wie das Dokument.";
  if (entry.source === "DIRECT_DEBIT") return "Eine Lastschrift wird mit ihrer Rücklastschrift (Kontoauszug) oder dem Storno des Laufs zurückgebucht.";
  return null;
}
