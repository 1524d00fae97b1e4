/**
 * Das Kassenbuch (issue 35 item 2): labels and pure rules the screen, the dialog and the print
 * view share (the database rules are app/db/cash-book.ts, the queries app/models/cash-book.server.ts).
 */
import type { CashEntryKind } from "~/db/schema";
import { PERIODS, type Period } from "./periods";

/** The kinds of entry as the treasurer names them. */
export const CASH_ENTRY_KIND_LABELS: Record<CashEntryKind, string> = {
  PAYMENT: "Barzahlung",
  OPENING: "Anfangsbestand",
  DEPOSIT: "Einlage",
  BANK_DEPOSIT: "Bankeinzahlung",
  EXPENSE: "Ausgabe",
  WITHDRAWAL: "Entnahme",
};

/** What 'Buchung erfassen' books (entries without a person; cash payments come from the journal). */
export const MANUAL_CASH_KINDS = ["DEPOSIT", "EXPENSE", "BANK_DEPOSIT", "WITHDRAWAL"] as const;
export type ManualCashKind = (typeof MANUAL_CASH_KINDS)[number];

/** Cash in (Einlage) or out (the rest). */
export const isCashIn = (kind: ManualCashKind) => kind === "DEPOSIT";

/** The period filter of the Kasse's screens and the print view (default: this month). */
export const cashPeriodOf = (value: string | null | undefined): Period => (PERIODS.includes(value as Period) ? (value as Period) : "thisMonth");

/** One day of the printed Kassenbuch: its entries between the opening and the closing balance. */
export type CashBookDay<Entry> = { date: string; opening: number; entries: Entry[]; amountIn: number; amountOut: number; closing: number };

/** The entries (in book order) grouped per day, each day opening with the balance the one before closed. */
export function cashBookDays<Entry extends { date: string; amount: number; balance: number }>(
  entries: readonly Entry[],
  opening: number,
): CashBookDay<Entry>[] {
  const days: CashBookDay<Entry>[] = [];
  for (const entry of entries) {
    let day = days.at(-1);
    if (!day || day.date !== entry.date) {
      day = { date: entry.date, opening: day?.closing ?? opening, entries: [], amountIn: 0, amountOut: 0, closing: day?.closing ?? opening };
      days.push(day);
    }
    day.entries.push(entry);
    if (entry.amount > 0) day.amountIn += entry.amount;
    else day.amountOut -= entry.amount;
    day.closing = entry.balance;
  }
  return days;
}
