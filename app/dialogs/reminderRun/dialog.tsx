import { DialogAlert, DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { formatCount, formatDate, formatMoney } from "~/lib/format";
import type { ReminderRunPreview } from "./dialog.server";

/** 'Mahnlauf starten': what the run will do (per level the items, open amounts, fees and the new
 *  due date; per person mail or post and why not by mail), confirmed before it starts. */
export default function ReminderRunDialog({ data, actionData, closeHref }: DialogProps<ReminderRunPreview>) {
  const nothing = data.items === 0;
  return (
    <RouteDialog title="Mahnlauf starten" closeHref={closeHref}>
      <DialogForm intent="reminderRun:start">
        <table className="w-full text-sm">
          <caption className="mb-1 text-left font-medium text-slate-800">Vorschau für den {formatDate(data.date)}</caption>
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th scope="col" className="py-1 pr-2 font-normal">
                Stufe
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-normal">
                Posten
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-normal">
                Offen
              </th>
              <th scope="col" className="py-1 pr-2 text-right font-normal">
                Gebühren
              </th>
              {data.interestOn && (
                <th scope="col" className="py-1 pr-2 text-right font-normal">
                  Zinsen
                </th>
              )}
              <th scope="col" className="py-1 text-right font-normal">
                Zahlbar bis
              </th>
            </tr>
          </thead>
          <tbody>
            {data.levels.map((level) => (
              <tr key={level.level} className="border-b border-slate-100">
                <th scope="row" className="py-1 pr-2 text-left font-normal">
                  {level.title}
                </th>
                <td className="py-1 pr-2 text-right tabular-nums">{level.items}</td>
                <td className="py-1 pr-2 text-right tabular-nums">{formatMoney(level.openAmount)}</td>
                <td className="py-1 pr-2 text-right tabular-nums">{formatMoney(level.fees)}</td>
                {data.interestOn && <td className="py-1 pr-2 text-right tabular-nums">{formatMoney(level.interest)}</td>}
                <td className="py-1 text-right tabular-nums">{formatDate(level.newDueDate)}</td>
              </tr>
            ))}
            <tr className="font-medium">
              <th scope="row" className="py-1 pr-2 text-left">
                Summe
              </th>
              <td className="py-1 pr-2 text-right tabular-nums">{data.items}</td>
              <td className="py-1 pr-2 text-right tabular-nums">{formatMoney(data.openAmount)}</td>
              <td className="py-1 pr-2 text-right tabular-nums">{formatMoney(data.fees)}</td>
              {data.interestOn && <td className="py-1 pr-2 text-right tabular-nums">{formatMoney(data.interest)}</td>}
              <td />
            </tr>
          </tbody>
        </table>
        <p className="mt-3 text-sm text-slate-700">
          {nothing
            ? "Heute ist keine Mahnung fällig: Ein Lauf schreibt nichts."
            : `${formatCount(data.people, "Person erhält", "Personen erhalten")} ein Schreiben: ${formatCount(data.byMail, "per Mail", "per Mail")}, ${formatCount(data.byPrint, "zum Drucken", "zum Drucken")} (ohne E-Mail-Adresse oder ohne Einwilligung).`}
        </p>
        {data.recipients.length > 0 ? (
          <div className="mt-2 max-h-60 overflow-y-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">Versand je Person</caption>
              <thead>
                <tr className="border-b border-slate-200 text-left text-slate-600">
                  <th scope="col" className="py-1 pr-2 font-normal">
                    Person
                  </th>
                  <th scope="col" className="py-1 pr-2 font-normal">
                    Versand
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Grund
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.recipients.map((recipient) => (
                  <tr key={recipient.personId} className="border-b border-slate-100">
                    <th scope="row" className="py-1 pr-2 text-left font-normal">
                      {recipient.name}
                    </th>
                    <td className="py-1 pr-2">{recipient.channel === "MAIL" ? "per Mail" : "zum Drucken"}</td>
                    <td className="py-1 text-slate-600">{recipient.reason ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {data.interestOn && (
          <p className="mt-2 text-sm text-slate-600">
            Verzugszinsen: 5 Prozentpunkte über dem Basiszinssatz (Unternehmer 9), ab dem Tag nach der Zahlungsfrist der ersten versandten Mahnung bis heute,
            auf den offenen Betrag ohne Gebühren (§§ 286, 288 BGB).
          </p>
        )}
        <p className="mt-2 text-sm text-slate-600">
          Bist du sicher? Jeder Posten erreicht jede Stufe nur einmal; ein zweiter Lauf am selben Tag mahnt niemanden doppelt.
        </p>
        <DialogAlert message={data.problem ?? actionData?.error} />
        <DialogButtons submitLabel="Mahnlauf starten" closeHref={closeHref} disabled={data.problem !== null} reason={data.problem} />
      </DialogForm>
    </RouteDialog>
  );
}
