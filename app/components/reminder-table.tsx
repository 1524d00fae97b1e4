import { Link } from "@remix-run/react";
import type { ReminderRow } from "~/models/reminders.server";
import { formatDate, formatMoney } from "~/lib/format";

const STATUS_LABELS: Record<string, string> = { PENDING: "offen", SENT: "versandt", CANCELLED: "storniert" };
const CHANNEL_LABELS: Record<string, string> = { MAIL: "Mail", PRINT: "Post" };

/** The reminders as a table (this screen; the history under a person, an invoice or a fee). */
export function ReminderTable({ title, reminders, omitPerson = false }: { title: string; reminders: ReminderRow[]; omitPerson?: boolean }) {
  return (
    <section aria-labelledby="reminders-title" className="overflow-x-auto">
      <h2 id="reminders-title" className="mb-2 text-lg font-semibold text-wuff-800">
        {title}
      </h2>
      {reminders.length === 0 ? (
        <p className="text-sm text-slate-600">Noch keine Mahnungen.</p>
      ) : (
        <table className="w-full text-sm">
          <thead>
            <tr className="border-b border-slate-300 text-left">
              <th scope="col" className="py-1 pr-2">Datum</th>
              {!omitPerson && <th scope="col" className="py-1 pr-2">Person</th>}
              <th scope="col" className="py-1 pr-2">Posten</th>
              <th scope="col" className="py-1 pr-2">Stufe</th>
              <th scope="col" className="py-1 pr-2 text-right">Offen</th>
              <th scope="col" className="py-1 pr-2 text-right">Gebühr</th>
              <th scope="col" className="py-1 pr-2">Zahlbar bis</th>
              <th scope="col" className="py-1 pr-2">Versand</th>
              <th scope="col" className="py-1 pr-2">Status</th>
              <th scope="col" className="py-1 pr-2">Von</th>
              <th scope="col" className="py-1">
                <span className="sr-only">Aktion</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {reminders.map((reminder) => (
              <tr key={reminder.id} className="border-b border-slate-100">
                <td className="py-1 pr-2 tabular-nums">{formatDate(reminder.date)}</td>
                {!omitPerson && (
                  <td className="py-1 pr-2">
                    <Link to={`/people/${reminder.personId}/reminders`} className="text-wuff-700 underline">
                      {reminder.personName}
                    </Link>
                  </td>
                )}
                <td className="py-1 pr-2">{reminder.item}</td>
                <td className="py-1 pr-2">{reminder.levelTitle}</td>
                <td className="py-1 pr-2 text-right tabular-nums">{formatMoney(reminder.openAmount)}</td>
                <td className="py-1 pr-2 text-right tabular-nums">{reminder.fee === null ? "" : formatMoney(reminder.fee)}</td>
                <td className="py-1 pr-2 tabular-nums">{formatDate(reminder.newDueDate)}</td>
                <td className="py-1 pr-2">{reminder.channel ? CHANNEL_LABELS[reminder.channel] : ""}</td>
                <td className="py-1 pr-2">{STATUS_LABELS[reminder.status] ?? reminder.status}</td>
                <td className="py-1 pr-2">{reminder.createdBy}</td>
                <td className="py-1">
                  {reminder.status === "PENDING" && (
                    <Link to={`?dialog=reminder-cancel&dialogId=${reminder.id}`} preventScrollReset className="text-wuff-700 underline" aria-label={`${reminder.levelTitle} zu ${reminder.item} stornieren`}>
                      Stornieren …
                    </Link>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
