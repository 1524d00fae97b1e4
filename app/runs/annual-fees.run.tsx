import { Form, useLocation } from "@remix-run/react";
import { busyButtonClass, buttonClass } from "~/components/run-screen";
import { isActive } from "~/lib/jobs";
import type { JobRow } from "~/models/jobs.server";
import { defineRun } from "./declare";

/** 'Jahresbeiträge' (Tasks; server half: annual-fees.run.server.ts). Its start chooses the year. */
export const annualFeesCard = defineRun({
  type: "ANNUAL_FEES",
  resumeIntent: "task:resume",
  id: "annual-fees",
  title: "Jahresbeiträge",
  text: "Stellt für jedes Mitglied, dessen Mitgliedsart einen Jahresbeitrag hat, den Beitrag des Jahres als offenen Posten ein (Standard, Reduziert 1 oder Reduziert 2 aus den Einstellungen), dazu einmal die Aufnahmegebühr für neue Mitglieder. Ein zweiter Lauf fügt nichts doppelt hinzu.",
});

/** The year to charge, then the confirmation (dialog task-annualFees, dialogId: the year). */
export function AnnualFeesStart({ job, years, year }: { job: JobRow | undefined; years: number[]; year: number }) {
  const { pathname } = useLocation();
  return (
    <Form method="get" action={pathname} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="dialog" value="task-annualFees" />
      <div>
        <label htmlFor="annual-fee-year" className="mb-1 block text-sm font-medium text-slate-700">
          Beitragsjahr
        </label>
        <select id="annual-fee-year" name="dialogId" defaultValue={year} className="rounded border border-slate-300 px-2 py-1.5 text-sm">
          {years.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </div>
      {isActive(job) ? (
        <button type="button" disabled className={busyButtonClass}>
          Jahresbeiträge laufen …
        </button>
      ) : (
        <button type="submit" className={buttonClass}>
          Jahresbeiträge einstellen …
        </button>
      )}
    </Form>
  );
}
