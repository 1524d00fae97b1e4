import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { PdfsCard } from "./pdfs-card";
import { DirectDebitCard } from "./direct-debit-card";
import { ReminderRunCard } from "./reminder-run-card";
import { busyButtonClass, buttonClass, StartRunLink, TaskCard, useFollowRunning } from "./task-card";
import { DataGrid } from "~/components/data-grid/data-grid";
import { loadPageGrid } from "~/components/data-grid/routes.server";
import { SCREEN_TITLES } from "~/components/navigation";
import { annualFeeYearsOffered } from "~/dialogs/task/dialog.server";
import { dialogAction } from "~/dialogs/kit.server";
import { jobsGrid } from "~/grids/jobs.grid";
import { currentYearInBerlin } from "~/lib/format";
import { invoiceRunUndoRefusal, latestInvoiceRun, paramsOf } from "~/models/invoice-runs.server";
import { isActive, isFollowed } from "~/lib/jobs";
import { latestJobs } from "~/models/jobs.server";
import { readForUser } from "~/services/auth.server";
import { ChecksCard } from "./checks-card";
import { mailshotChoices } from "~/models/mailshots.server";
import { MailTaskCards } from "./mail-cards";

/**
 * Tasks (ADMIN; spec 001 §2 Tasks screen): the bulk runs. Each button opens a confirmation with
 * the preview of what the run will do; confirmed, the run goes to the queue and the screen shows
 * its progress (with JavaScript it follows by itself, without it 'Aktualisieren' or the page's own
 * refresh). Below, the history of all runs. The last invoicing run can be undone.
 */
const TITLE = SCREEN_TITLES.tasks;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  const { value } = await readForUser(args, ["tasks"], async (user) => {
    const { db } = args.context;
    const [latest, history, lastRun, mailshots] = await Promise.all([
      latestJobs(db),
      loadPageGrid(args, jobsGrid, user),
      latestInvoiceRun(db),
      mailshotChoices(db),
    ]);
    const undo = lastRun && paramsOf(lastRun).result && !isActive(lastRun) ? { jobId: lastRun.id, refusal: await invoiceRunUndoRefusal(db, lastRun) } : null;
    return { latest, history, undo, mailshots };
  });
  const years = annualFeeYearsOffered();
  return { ...value, years, year: currentYearInBerlin(), now: new Date().toISOString() };
}

export const action = (args: ActionFunctionArgs) => dialogAction(args, ["tasks"], []);

export default function TasksScreen() {
  const { latest, history, undo, years, year, now, mailshots } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  const running = Object.values(latest).some((job) => isFollowed(job, new Date(now)));
  useFollowRunning(running);
  const annual = latest.ANNUAL_FEES;
  const invoices = latest.INVOICES;
  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <h1 className="text-2xl font-semibold text-wuff-800">{TITLE}</h1>
      {running && (
        // Without JavaScript the page reloads itself while a run is under way.
        <noscript>
          <meta httpEquiv="refresh" content="2" />
        </noscript>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <TaskCard
          id="annual-fees"
          title="Jahresbeiträge"
          text="Stellt für jedes Mitglied, dessen Mitgliedsart einen Jahresbeitrag hat, den Beitrag des Jahres als offenen Posten ein (Standard, Reduziert 1 oder Reduziert 2 aus den Einstellungen), dazu einmal die Aufnahmegebühr für neue Mitglieder. Ein zweiter Lauf fügt nichts doppelt hinzu."
          run={{ job: annual, now }}
        >
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
            {isActive(annual) ? (
              <button type="button" disabled className={busyButtonClass}>
                Jahresbeiträge laufen …
              </button>
            ) : (
              <button type="submit" className={buttonClass}>
                Jahresbeiträge einstellen …
              </button>
            )}
          </Form>
        </TaskCard>
        <TaskCard
          id="invoices"
          title="Rechnungen schreiben"
          text="Schreibt für alle offenen Posten, die per Rechnung abgerechnet werden und noch keine Rechnung haben, je Person eine Rechnung (oder ergänzt ihre noch nicht versandte). Rechnungsdatum ist heute, fällig in 30 Tagen; die Nummern folgen auf die „Letzte Rechnungs Nr“."
          run={{ job: invoices, now }}
        >
          <StartRunLink job={invoices} dialog="task-invoices" label="Rechnungen schreiben …" busyLabel="Rechnungen werden geschrieben …" />
          {undo && <UndoLine jobId={undo.jobId} refusal={undo.refusal} />}
        </TaskCard>
        <PdfsCard job={latest.PDFS} now={now} />
        <ChecksCard />
        <MailTaskCards mailshots={mailshots} job={latest.MAILSHOT} now={now} />
        <DirectDebitCard job={latest.DIRECT_DEBIT} now={now} listLink />
        <ReminderRunCard job={latest.REMINDERS} now={now} listLink />
      </div>
      <DataGrid data={history} />
    </div>
  );
}

function UndoLine({ jobId, refusal }: { jobId: number; refusal: string | null }) {
  if (refusal) return <p className="w-full text-sm text-slate-600">Rückgängig machen nicht mehr möglich: {refusal}</p>;
  return (
    <Link to={`?dialog=task-undo&dialogId=${jobId}`} preventScrollReset className="rounded border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50">
      Letzten Lauf rückgängig machen …
    </Link>
  );
}
