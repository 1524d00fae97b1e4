import { DialogAlert, DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { formatCount, formatDate, formatMoney } from "~/lib/format";
import type { InvoiceRunResult } from "~/models/invoice-runs.server";
import type { TaskDialogData } from "./dialog.server";

/**
 * The confirmations of the Tasks screen: before a run, what it will do (the preview); before an
 * undo, what goes. A run that cannot start says why, and its button stays disabled.
 */
export default function TaskDialog({ data, actionData, closeHref }: DialogProps<TaskDialogData>) {
  const error = actionData?.error;
  switch (data.kind) {
    case "annualFees": {
      const { preview } = data;
      const nothing = preview.annualFees + preview.enrollmentFees === 0;
      return (
        <RouteDialog title={`Jahresbeiträge ${preview.year} einstellen`} closeHref={closeHref}>
          <DialogForm intent="task:annualFees">
            <input type="hidden" name="year" value={preview.year} />
            <Facts
              caption="Vorschau"
              rows={[
                ["Mitglieder mit Jahresbeitrag", formatCount(preview.members, "Person", "Personen")],
                ["davon schon eingestellt", formatCount(preview.alreadyCharged, "Person", "Personen")],
                ["neue Jahresbeiträge", formatCount(preview.annualFees, "offener Posten", "offene Posten")],
                ["Aufnahmegebühren (neue Mitglieder)", formatCount(preview.enrollmentFees, "offener Posten", "offene Posten")],
                ["Summe", formatMoney(preview.total)],
              ]}
            />
            <p className="mt-3 text-sm text-slate-700">
              {nothing
                ? `Für ${preview.year} ist nichts mehr einzustellen: Ein zweiter Lauf fügt nichts hinzu.`
                : "Die offenen Posten werden per Rechnung abgerechnet („Rechnungen schreiben“)."}
            </p>
            <DialogAlert message={preview.problem ?? error} />
            <DialogButtons submitLabel="Jahresbeiträge einstellen" closeHref={closeHref} disabled={preview.problem !== null} reason={preview.problem} />
          </DialogForm>
        </RouteDialog>
      );
    }
    case "invoices": {
      const { preview } = data;
      const numbers = preview.people === 0 ? "keine" : preview.people === 1 ? `${preview.firstNumber}` : `${preview.firstNumber} bis ${preview.lastNumber}`;
      return (
        <RouteDialog title="Rechnungen schreiben" closeHref={closeHref}>
          <DialogForm intent="task:invoices">
            <Facts
              caption="Vorschau"
              rows={[
                ["offene Posten", formatCount(preview.fees, "offener Posten", "offene Posten")],
                ["Personen", formatCount(preview.people, "Person", "Personen")],
                ["neue Rechnungen", formatCount(preview.newInvoices, "Rechnung", "Rechnungen")],
                ["ergänzte Entwürfe", formatCount(preview.extendedInvoices, "Entwurf", "Entwürfe")],
                ["Rechnungsnummern beim Ausstellen", numbers],
                ["Rechnungsdatum / fällig am", `${formatDate(preview.date)} / ${formatDate(preview.dueDate)}`],
                ["Summe", formatMoney(preview.total)],
              ]}
            />
            <label className="mt-3 flex items-start gap-2 text-sm">
              <input type="checkbox" name="draftsOnly" className="mt-0.5" />
              <span>Nur Entwürfe anlegen: nicht ausstellen, sondern einzeln prüfen und ausstellen</span>
            </label>
            <p className="mt-3 text-sm text-slate-700">
              Bist du sicher? Ausgestellte Rechnungen erhalten ihre Nummer und sind danach festgeschrieben: Korrigieren lässt sich eine ausgestellte Rechnung
              nur mit einer Stornorechnung. Ein Lauf, der nur Entwürfe angelegt hat, lässt sich rückgängig machen.
            </p>
            <DialogAlert message={preview.problem ?? error} />
            <DialogButtons submitLabel="Rechnungen schreiben" closeHref={closeHref} disabled={preview.problem !== null} reason={preview.problem} />
          </DialogForm>
        </RouteDialog>
      );
    }
    case "subscriptionFees": {
      const { preview } = data;
      const nothing = preview.periods === 0;
      return (
        <RouteDialog title="Abo-Beiträge einstellen" closeHref={closeHref}>
          <DialogForm intent="task:subscriptionFees">
            <Facts
              caption="Vorschau"
              rows={[
                ["Abos mit offenem Zeitraum", formatCount(preview.subscriptions, "Abo", "Abos")],
                ["neue Abo-Beiträge", formatCount(preview.periods, "offener Posten", "offene Posten")],
                ["Zeiträume begonnen bis", formatDate(preview.through)],
                ["Summe", formatMoney(preview.total)],
              ]}
            />
            <p className="mt-3 text-sm text-slate-700">
              {nothing
                ? "Alle begonnenen Zeiträume sind schon abgerechnet: Ein Lauf fügt jetzt nichts hinzu."
                : "Mit SEPA-Mandat werden die Beiträge per Lastschrift eingezogen, sonst per Rechnung abgerechnet („Rechnungen schreiben“)."}
            </p>
            <DialogAlert message={error} />
            <DialogButtons
              submitLabel="Abo-Beiträge einstellen"
              closeHref={closeHref}
              disabled={nothing}
              reason={nothing ? "Es ist nichts abzurechnen." : null}
            />
          </DialogForm>
        </RouteDialog>
      );
    }
    case "undoSubscriptions":
      return (
        <RouteDialog title="Abo-Beiträge rückgängig machen" closeHref={closeHref}>
          <DialogForm intent="task:undoSubscriptions">
            <input type="hidden" name="id" value={data.jobId} />
            <p>Bist du sicher?</p>
            <ul className="mt-2 list-disc pl-5 text-sm text-slate-700">
              <li>{formatCount(data.fees, "offener Posten dieses Laufs wird", "offene Posten dieses Laufs werden")} gelöscht.</li>
              <li>Ein neuer Lauf stellt die Zeiträume wieder ein.</li>
            </ul>
            <DialogAlert message={data.refusal ?? error} />
            <DialogButtons submitLabel="Ja, rückgängig machen" closeHref={closeHref} danger disabled={data.refusal !== null} reason={data.refusal} />
          </DialogForm>
        </RouteDialog>
      );
    case "undo":
      return (
        <RouteDialog title="Rechnungslauf rückgängig machen" closeHref={closeHref}>
          <DialogForm intent="task:undo">
            <input type="hidden" name="id" value={data.jobId} />
            <p>Bist du sicher?</p>
            <ul className="mt-2 list-disc pl-5 text-sm text-slate-700">
              {undoDetails(data.result).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <DialogAlert message={data.refusal ?? error} />
            <DialogButtons submitLabel="Ja, rückgängig machen" closeHref={closeHref} danger disabled={data.refusal !== null} reason={data.refusal} />
          </DialogForm>
        </RouteDialog>
      );
  }
}

function Facts({ caption, rows }: { caption: string; rows: [string, string][] }) {
  return (
    <table className="w-full text-sm">
      <caption className="mb-1 text-left font-medium text-slate-800">{caption}</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label} className="border-b border-slate-100">
            <th scope="row" className="py-1 pr-3 text-left font-normal text-slate-600">
              {label}
            </th>
            <td className="py-1 text-right tabular-nums">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What undoing a run will do, in words (the confirmation lists it). */
export function undoDetails(result: InvoiceRunResult): string[] {
  return [
    ...(result.created > 0 ? [`${formatCount(result.created, "neuer Rechnungsentwurf wird", "neue Rechnungsentwürfe werden")} gelöscht.`] : []),
    ...(result.extended > 0 ? [`${formatCount(result.extended, "Entwurf verliert", "Entwürfe verlieren")} die angefügten Zeilen.`] : []),
    `${formatCount(result.rows, "offener Posten ist", "offene Posten sind")} wieder abzurechnen.`,
  ];
}
