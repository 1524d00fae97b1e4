/**
 * The Kassenbuch's refusals in German (issue 35 item 2): the triggers of app/db/cash-book.ts abort
 * a batch that would take the cash balance below zero, back-date an entry or change one; every
 * caller that books cash (the journal's dialogs, 'Guthaben erstatten', 'Zurückbuchen', the Kasse's
 * own dialog, and the dialog kit for any other) turns the abort into one of these messages.
 */
import { desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { CASH_BACK_DATED, CASH_BAD_REVERSAL, CASH_BELOW_ZERO, FROZEN_CASH_BOOK, JOURNAL_CASH_BOX } from "~/db/cash-book";
import { cashEntries } from "~/db/schema";
import { formatDate, formatMoney } from "~/lib/format";
import { errorText } from "./constraints.server";

/** The Kasse's balance now and the date of its last entry (null: no entry yet). */
export async function cashBalance(db: Db, box = JOURNAL_CASH_BOX): Promise<{ balance: number; lastDate: string | null }> {
  const [last] = await db
    .select({ balance: cashEntries.balance, date: cashEntries.date })
    .from(cashEntries)
    .where(eq(cashEntries.cashBoxId, box))
    .orderBy(desc(cashEntries.id))
    .limit(1);
  return { balance: last?.balance ?? 0, lastDate: last?.date ?? null };
}

const cashBelowZeroMessage = (balance: number, out?: number) =>
  `Der Kassenbestand reicht nicht: In der Kasse sind ${formatMoney(balance)}${out === undefined ? "" : `, ausgezahlt werden sollen ${formatMoney(out)}`}. Der Bestand darf nicht unter 0,00 € fallen; es wurde nichts gebucht.`;

const cashBackDatedMessage = (lastDate: string) =>
  `Das Kassenbuch ist bis zum ${formatDate(lastDate)} geschrieben: Eine Barbuchung mit früherem Datum ist nicht möglich (die Einträge stehen in zeitlicher Reihenfolge). Bitte mit dem ${formatDate(lastDate)} oder später buchen; es wurde nichts gebucht.`;

const CASH_FROZEN_MESSAGE = "Einträge im Kassenbuch werden nicht geändert oder gelöscht: Ein falscher Eintrag wird storniert (Gegenbuchung).";

/** Whether a failed write was refused by the Kassenbuch's triggers. */
const isCashBookRefusal = (error: unknown) => /cash book: |frozen: cash book/.test(errorText(error));

/**
 * The German message for a write the Kassenbuch refused, or null for any other error. `out` is the
 * cash paid out, if the caller knows it.
 */
export async function cashBookRefusal(db: Db, error: unknown, out?: number): Promise<string | null> {
  const text = errorText(error);
  if (!isCashBookRefusal(error)) return null;
  if (text.includes(FROZEN_CASH_BOOK)) return CASH_FROZEN_MESSAGE;
  if (text.includes(CASH_BAD_REVERSAL)) return "Dieser Eintrag ist schon storniert oder selbst eine Stornobuchung.";
  const { balance, lastDate } = await cashBalance(db);
  if (text.includes(CASH_BELOW_ZERO)) return cashBelowZeroMessage(balance, out);
  if (text.includes(CASH_BACK_DATED) && lastDate) return cashBackDatedMessage(lastDate);
  return "Das Kassenbuch hat die Buchung abgelehnt; es wurde nichts gebucht.";
}
