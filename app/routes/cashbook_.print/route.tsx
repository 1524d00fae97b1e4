/**
 * Kassenbuch drucken (issue 35 item 2; ADMIN, FINANCE): the Kassenbuch of a period as pages to
 * print (the browser's print, styled for paper: the app's shell is not printed). Per day with
 * entries the opening balance, the entries with Belegnummer, Einnahme, Ausgabe and Bestand, the
 * day's sums and its closing balance (Tagesabschluss); the balance carried into the period first
 * and the closing balance last. A plain GET form chooses the period: works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { dialogAction } from "~/dialogs/kit.server";
import { cashPeriodOf, CASH_ENTRY_KIND_LABELS } from "~/lib/cash-book";
import { formatDate, formatDateTime, formatMoney, todayInBerlin } from "~/lib/format";
import { PERIOD_OPTIONS } from "~/lib/periods";
import { cashBookPrint } from "~/models/cash-book.server";
import { portalClub } from "~/models/club-look.server";
import { requireAccess } from "~/services/auth.server";

const TITLE = "Kassenbuch drucken";

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

/** The dialogs opened on the page (the shell's, e.g. Suche) post here. */
export const action = (args: ActionFunctionArgs) => dialogAction(args, ["cashbook"], []);

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireAccess(args, "cashbook");
  const period = cashPeriodOf(new URL(args.request.url).searchParams.get("period"));
  const [book, club] = await Promise.all([cashBookPrint(args.context.db, period, todayInBerlin()), portalClub(args.context.db)]);
  return { period, ...book, club: club.name, printedBy: user.name, printedOn: new Date().toISOString() };
}

const money = (cents: number | null) => (cents === null ? "" : formatMoney(cents));

export default function CashBookPrint() {
  const { period, range, opening, days, closing, club, printedBy, printedOn } = useLoaderData<typeof loader>();
  const number = "px-1 py-0.5 text-right tabular-nums whitespace-nowrap";
  const text = "px-1 py-0.5 align-top";
  return (
    <section aria-labelledby="cash-print-title" className="max-w-4xl text-sm">
      <div className="print:hidden">
        <Form method="get" className="mb-3 flex flex-wrap items-end gap-2">
          <label>
            <span className="mb-1 block font-medium text-slate-700">Zeitraum</span>
            <select name="period" defaultValue={period} className="rounded border border-slate-300 px-2 py-1.5">
              {PERIOD_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="rounded border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50">
            Anzeigen
          </button>
          <Link to="/cashbook" className="px-2 py-1.5 text-blue-700 underline">
            Zurück zur Kasse
          </Link>
        </Form>
        <p className="mb-3 text-slate-700">Zum Drucken die Druckfunktion des Browsers verwenden (Strg+P): gedruckt werden nur die Kassenbuchseiten.</p>
      </div>
      <h1 id="cash-print-title" className="text-xl font-semibold text-wuff-800">
        Kassenbuch{club ? ` ${club}` : ""}
      </h1>
      <p className="mb-3">
        {range ? `Zeitraum ${formatDate(range[0])} bis ${formatDate(range[1])}` : "Alle Buchungen"} · Übertrag (Bestand zu Beginn):{" "}
        <span className="tabular-nums">{formatMoney(opening)}</span>
      </p>
      {days.length === 0 && <p>Keine Kassenbuchungen in diesem Zeitraum.</p>}
      {days.map((day) => (
        <div key={day.date} className="mb-4 break-inside-avoid">
          <h2 className="border-b border-slate-400 font-semibold">{formatDate(day.date)}</h2>
          <table className="w-full table-fixed border-collapse">
            <caption className="sr-only">{`Kassenbuch ${formatDate(day.date)}`}</caption>
            <thead>
              <tr className="text-left text-xs text-slate-600">
                <th scope="col" className={`${text} w-[5.5rem]`}>
                  Beleg
                </th>
                <th scope="col" className={text}>
                  Buchungstext
                </th>
                <th scope="col" className={`${number} w-[4.5rem] sm:w-24`}>
                  Einnahme
                </th>
                <th scope="col" className={`${number} w-[4.5rem] sm:w-24`}>
                  Ausgabe
                </th>
                <th scope="col" className={`${number} w-[4.5rem] sm:w-24`}>
                  Bestand
                </th>
              </tr>
            </thead>
            <tbody>
              <tr className="text-slate-600">
                <td className={text} />
                <td className={text}>Anfangsbestand</td>
                <td className={number} />
                <td className={number} />
                <td className={number}>{formatMoney(day.opening)}</td>
              </tr>
              {day.entries.map((entry) => (
                <tr key={entry.id} className="border-t border-slate-200">
                  <td className={`${text} tabular-nums break-all`}>{entry.receiptNumber}</td>
                  <td className={`${text} break-words`}>
                    {CASH_ENTRY_KIND_LABELS[entry.kind]}: {entry.text}
                    {entry.personName ? ` (${entry.personName})` : ""}
                  </td>
                  <td className={number}>{money(entry.amountIn)}</td>
                  <td className={number}>{money(entry.amountOut)}</td>
                  <td className={number}>{formatMoney(entry.balance)}</td>
                </tr>
              ))}
              <tr className="border-t border-slate-400 font-semibold">
                <td className={text} />
                <td className={text}>Tagesabschluss: Summe und Endbestand</td>
                <td className={number}>{formatMoney(day.amountIn)}</td>
                <td className={number}>{formatMoney(day.amountOut)}</td>
                <td className={number}>{formatMoney(day.closing)}</td>
              </tr>
            </tbody>
          </table>
        </div>
      ))}
      <p className="mt-2 font-semibold">
        Bestand am Ende: <span className="tabular-nums">{formatMoney(closing)}</span>
      </p>
      <p className="mt-4 text-xs text-slate-600">
        Gedruckt am {formatDateTime(printedOn)} von {printedBy}.
      </p>
    </section>
  );
}
