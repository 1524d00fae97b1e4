import { formatCount } from "~/lib/format";
import type { InvoiceRunResult } from "~/models/invoice-runs.server";

/** What undoing a run will do, in words (the confirmation lists it). */
export function undoDetails(result: InvoiceRunResult): string[] {
  const numbers = result.firstNumber === null ? "" : result.firstNumber === result.lastNumber ? ` (Nr. ${result.firstNumber})` : ` (Nr. ${result.firstNumber} bis ${result.lastNumber})`;
  return [
    ...(result.created > 0 ? [`${formatCount(result.created, "neue Rechnung wird", "neue Rechnungen werden")} gelöscht${numbers}.`] : []),
    ...(result.extended > 0 ? [`${formatCount(result.extended, "offene Rechnung verliert", "offene Rechnungen verlieren")} die angefügten Zeilen.`] : []),
    `${formatCount(result.rows, "offener Posten ist", "offene Posten sind")} wieder abzurechnen.`,
    ...(result.firstNumber === null ? [] : [`„Letzte Rechnungs Nr“ wird wieder ${result.firstNumber - 1}.`]),
  ];
}
