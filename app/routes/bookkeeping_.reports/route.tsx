/**
 * Auswertungen of Buchhaltung (issue 35 item 4; ADMIN, FINANCE): the EÜR of a year per sphere and
 * account (one EÜR for a business), the open items at a key date, and the members' assembly report,
 * each on the screen and as Excel and PDF (app/lib/report-tables.ts declares them once). A plain
 * GET form chooses the report: works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { dialogAction } from "~/dialogs/kit.server";
import { formatDate, todayInBerlin } from "~/lib/format";
import { formatCell, REPORT_KINDS, REPORT_TITLES } from "~/lib/report-tables";
import { reportRequest } from "~/lib/report-request";
import { buildReport } from "~/models/report-data.server";
import { requireAccess } from "~/services/auth.server";

const TITLE = "Auswertungen";

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

/** The dialogs opened on the page (the shell's, e.g. Suche) post here. */
export const action = (args: ActionFunctionArgs) => dialogAction(args, ["bookkeeping"], []);

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "bookkeeping");
  const request = reportRequest(new URL(args.request.url), todayInBerlin());
  const report = await buildReport(args.context.db, request.kind, request.year, request.keyDate);
  const query = new URLSearchParams({ report: request.kind, year: String(request.year), date: formatDate(request.keyDate) }).toString();
  return { request, report, query };
}

const input = "rounded border border-slate-300 px-2 py-1.5 text-sm";

export default function Reports() {
  const { request, report, query } = useLoaderData<typeof loader>();
  const numeric = (type: string | undefined) => type === "money" || type === "number";
  return (
    <section aria-labelledby="reports-title" className="max-w-5xl">
      <h1 id="reports-title" className="mb-2 text-2xl font-semibold text-wuff-800">
        {TITLE}
      </h1>
      <p className="text-sm text-slate-700">
        <Link to="/bookkeeping" className="text-blue-700 underline">
          Buchhaltung
        </Link>
      </p>
      <Form method="get" className="mt-3 flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">Auswertung</span>
          <select name="report" defaultValue={request.kind} className={input}>
            {REPORT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {REPORT_TITLES[kind]}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">Geschäftsjahr</span>
          <select name="year" defaultValue={request.year} className={input}>
            {request.years.map((year) => (
              <option key={year} value={year}>
                {year}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">Stichtag (offene Posten)</span>
          <input name="date" defaultValue={formatDate(request.keyDate)} inputMode="numeric" className={`${input} w-32`} />
        </label>
        <button type="submit" className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50">
          Anzeigen
        </button>
      </Form>

      <h2 className="mt-6 text-xl font-semibold text-slate-800">{report.title}</h2>
      <p className="text-sm text-slate-600">{report.subtitle}</p>
      <p className="mt-2 flex gap-3 text-sm">
        <a href={`/bookkeeping/reports/file?${query}&format=xlsx`} className="text-blue-700 underline">
          Excel herunterladen
        </a>
        <a href={`/bookkeeping/reports/file?${query}&format=pdf`} className="text-blue-700 underline">
          PDF herunterladen
        </a>
      </p>
      {report.tables.map((table) => (
        // Focusable, so a keyboard can scroll a wide table on a phone (axe: scrollable-region-focusable).
        <div key={table.title} className="mt-4 overflow-x-auto" tabIndex={0} role="region" aria-label={table.title}>
          <table className="min-w-full text-sm">
            <caption className="text-left font-semibold text-slate-800">{table.title}</caption>
            <thead>
              <tr className="border-b text-left">
                {table.columns.map((column) => (
                  <th key={column.id} className={`px-2 py-1 ${numeric(column.type) ? "text-right" : ""}`}>
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, index) => (
                <tr key={index} className="border-b">
                  {table.columns.map((column) => (
                    <td key={column.id} className={`px-2 py-1 ${numeric(column.type) ? "text-right tabular-nums" : ""}`}>
                      {formatCell(row[column.id], column.type)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
            {table.sums ? (
              <tfoot>
                <tr className="border-t-2 border-slate-400 font-semibold">
                  {table.columns.map((column, index) => (
                    <td key={column.id} className={`px-2 py-1 ${numeric(column.type) ? "text-right tabular-nums" : ""}`}>
                      {column.id in table.sums! ? formatCell(table.sums![column.id], column.type) : index === 0 ? "Summe" : ""}
                    </td>
                  ))}
                </tr>
              </tfoot>
            ) : null}
          </table>
        </div>
      ))}
      {report.notes.map((note) => (
        <p key={note} className="mt-2 text-xs text-slate-600">
          {note}
        </p>
      ))}
    </section>
  );
}
