/**
 * Karten: Auswertung (issue 34 item 5; ADMIN, FINANCE): per month of a year, the units of
 * 10er-Karten sold, used, expired and refunded, and their share of the price (a card's price
 * divided by its units, rounded per card). A card's price is earned as it is used or expires: this
 * is what the tax adviser books from the prepayments received (app/lib/cards.ts cardReport).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { currentYearInBerlin, formatMoney, todayInBerlin } from "~/lib/format";
import { parseId } from "~/lib/ids";
import type { CardReportMonth } from "~/lib/cards";
import { cardReportOfYear } from "~/models/cards.server";
import { requireAccess } from "~/services/auth.server";
import { dialogAction } from "~/dialogs/kit.server";

const TITLE = "Karten: Auswertung";
const MONTHS = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"];

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

/** The years offered: from five years back to the current one. */
function yearsOffered() {
  const current = currentYearInBerlin();
  return Array.from({ length: 6 }, (_, index) => current - index);
}

/** The dialogs opened on the page (the shell's, e.g. Suche) post here. */
export const action = (args: ActionFunctionArgs) => dialogAction(args, ["cards"], []);

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "cards");
  const years = yearsOffered();
  const asked = parseId(new URL(args.request.url).searchParams.get("year"));
  const year = asked !== null && years.includes(asked) ? asked : years[0];
  const months = await cardReportOfYear(args.context.db, year, todayInBerlin());
  return { year, years, months };
}

const COLUMNS: { label: string; units: keyof CardReportMonth; value: keyof CardReportMonth }[] = [
  { label: "Verkauft", units: "soldUnits", value: "soldValue" },
  { label: "Genutzt", units: "usedUnits", value: "usedValue" },
  { label: "Verfallen", units: "expiredUnits", value: "expiredValue" },
  { label: "Erstattet", units: "refundedUnits", value: "refundedValue" },
];

export default function CardReport() {
  const { year, years, months } = useLoaderData<typeof loader>();
  const total = (key: keyof CardReportMonth) => months.reduce((sum, month) => sum + Number(month[key]), 0);
  const cell = "px-2 py-1 text-right tabular-nums";
  return (
    <section aria-labelledby="card-report-title">
      <h1 id="card-report-title" className="mb-2 text-2xl font-semibold text-wuff-800">
        {TITLE}
      </h1>
      <p className="mt-1 max-w-3xl text-sm text-slate-700">
        10er-Karten je Monat: verkaufte, genutzte, verfallene und erstattete Einheiten, in Euro als Anteil am Kartenpreis. Verfallen ist, was am letzten
        Gültigkeitstag übrig war.{" "}
        <Link to="/cards" className="text-blue-700 underline">
          Alle Karten &amp; Abos
        </Link>
      </p>
      <Form method="get" className="mt-3 flex items-end gap-2">
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">Jahr</span>
          <select name="year" defaultValue={year} className="rounded border border-slate-300 px-2 py-1.5 text-sm">
            {years.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50">
          Anzeigen
        </button>
      </Form>
      <div className="mt-4 overflow-x-auto">
        <table className="min-w-full text-sm">
          <caption className="sr-only">{`${TITLE} ${year}`}</caption>
          <thead>
            <tr className="border-b border-slate-300 text-left">
              <th scope="col" className="px-2 py-1">
                Monat
              </th>
              {COLUMNS.map((column) => (
                <th key={column.label} scope="col" className="px-2 py-1 text-right" colSpan={2}>
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {months.map((month, index) => (
              <tr key={month.month} className="border-b border-slate-100">
                <th scope="row" className="px-2 py-1 text-left font-normal">
                  {MONTHS[index]}
                </th>
                {COLUMNS.map((column) => [
                  <td key={`${column.label}-units`} className={cell}>
                    {month[column.units]}
                  </td>,
                  <td key={`${column.label}-value`} className={cell}>
                    {formatMoney(Number(month[column.value]))}
                  </td>,
                ])}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t border-slate-300 font-semibold">
              <th scope="row" className="px-2 py-1 text-left">
                Summe {year}
              </th>
              {COLUMNS.map((column) => [
                <td key={`${column.label}-units`} className={cell}>
                  {total(column.units)}
                </td>,
                <td key={`${column.label}-value`} className={cell}>
                  {formatMoney(total(column.value))}
                </td>,
              ])}
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
