import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useLocation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { DataGrid } from "~/components/data-grid/data-grid";
import { loadPageGrid } from "~/components/data-grid/routes.server";
import { SCREEN_TITLES } from "~/components/navigation";
import { annualFeeYearsOffered } from "~/dialogs/task/dialog.server";
import { dialogAction } from "~/dialogs/kit.server";
import { jobsGrid } from "~/grids/jobs.grid";
import { currentYearInBerlin, formatDateTime } from "~/lib/format";
import { invoiceRunUndoRefusal, latestInvoiceRun, paramsOf } from "~/models/invoice-runs.server";
import { isActive, isStalled, JOB_STATUS_LABELS, jobMessage, jobTitle, progressText } from "~/lib/jobs";
import { latestJobs, type JobRow } from "~/models/jobs.server";
import { readForUser } from "~/services/auth.server";
import { mailshotChoices } from "~/models/mailshots.server";
import { MailTaskCards } from "./mail-cards";

/**
 * Tasks (ADMIN; spec 001 §2 Tasks screen): the bulk runs. Each button opens a confirmation with
 * the preview of what the run will do; confirmed, the run goes to the queue and the screen shows
 * its progress (with JavaScript it follows by itself, without it 'Aktualisieren' or the page's own
 * refresh). Below, the history of all runs. The last invoicing run can be undone.
 */
const TITLE = SCREEN_TITLES.tasks;
/** How often the screen looks at a running job (with JavaScript). */
const POLL_MILLISECONDS = 1000;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  const { value } = await readForUser(args, ["tasks"], async (user) => {
    const { db } = args.context;
    const [latest, history, lastRun, mailshots] = await Promise.all([latestJobs(db), loadPageGrid(args, jobsGrid, user), latestInvoiceRun(db), mailshotChoices(db)]);
    const undo = lastRun && paramsOf(lastRun).result && !isActive(lastRun) ? { jobId: lastRun.id, refusal: await invoiceRunUndoRefusal(db, lastRun) } : null;
    return { latest, history, undo, mailshots };
  });
  const years = annualFeeYearsOffered();
  return { ...value, years, year: currentYearInBerlin(), now: new Date().toISOString() };
}

export const action = (args: ActionFunctionArgs) => dialogAction(args, ["tasks"], []);

const buttonClass = "inline-flex items-center rounded bg-wuff-700 px-4 py-2 text-sm font-medium text-white hover:bg-wuff-800";
const busyButtonClass = "inline-flex cursor-not-allowed items-center rounded bg-slate-400 px-4 py-2 text-sm font-medium text-white";

export default function TasksScreen() {
  const { latest, history, undo, years, year, now, mailshots } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  const running = Object.values(latest).some((job) => isActive(job));
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
          job={annual}
          now={now}
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
          job={invoices}
          now={now}
        >
          {isActive(invoices) ? (
            <button type="button" disabled className={busyButtonClass}>
              Rechnungen werden geschrieben …
            </button>
          ) : (
            <Link to="?dialog=task-invoices" preventScrollReset className={buttonClass}>
              Rechnungen schreiben …
            </Link>
          )}
          {undo && <UndoLine jobId={undo.jobId} refusal={undo.refusal} />}
        </TaskCard>
        <MailTaskCards mailshots={mailshots} job={latest.MAILSHOT} now={now} />
      </div>
      <DataGrid data={history} />
    </div>
  );
}

/** With JavaScript, a running job is followed: the page's data is read again every second. */
function useFollowRunning(running: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, POLL_MILLISECONDS);
    return () => window.clearInterval(timer);
  }, [running, revalidator]);
}

export function TaskCard({ id, title, text, job, now, children }: { id: string; title: string; text: string; job: JobRow | undefined; now: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-wuff-800">
        {title}
      </h2>
      <p className="text-sm text-slate-700">{text}</p>
      <div className="flex flex-wrap items-center gap-3">{children}</div>
      <LastRun title={title} job={job} now={now} />
    </section>
  );
}

/** The newest run of the task: status, progress bar and message, read out when it changes. */
function LastRun({ title, job, now }: { title: string; job: JobRow | undefined; now: string }) {
  const { pathname } = useLocation();
  if (!job) return <p className="text-sm text-slate-500">Noch nie gelaufen.</p>;
  const active = isActive(job);
  const status = job.undoneOn ? "rückgängig gemacht" : JOB_STATUS_LABELS[job.status];
  return (
    <div className="border-t border-slate-100 pt-3 text-sm">
      <p className="text-slate-600">
        Letzter Lauf ({jobTitle(job)}): {formatDateTime(job.startedOn)} von {job.createdBy} – <span className={job.status === "FAILED" ? "font-medium text-red-700" : "font-medium"}>{status}</span>
      </p>
      <div className="mt-2 flex items-center gap-3">
        <progress value={job.done + job.failed} max={Math.max(job.total, 1)} aria-label={`Fortschritt ${title}`} className="h-3 w-full max-w-xs accent-wuff-700">
          {progressText(job)}
        </progress>
        <span className="whitespace-nowrap tabular-nums text-slate-700">{progressText(job)}</span>
      </div>
      <p role="status" aria-label={`Ergebnis ${title}`} className={`mt-2 ${job.status === "FAILED" ? "text-red-700" : "text-slate-900"}`}>
        {jobMessage(job)}
      </p>
      {active && (
        <Link to={pathname} replace preventScrollReset className="mt-1 inline-block text-wuff-700 underline">
          Aktualisieren
        </Link>
      )}
      {isStalled(job, new Date(now)) && (
        <Form method="post" className="mt-2 flex flex-wrap items-center gap-2 rounded border border-amber-300 bg-amber-50 p-2">
          <input type="hidden" name="intent" value="task:resume" />
          <input type="hidden" name="id" value={job.id} />
          <p className="text-amber-900">
            Seit {formatDateTime(job.lastProgressOn ?? job.startedOn)} kein Fortschritt: Wurde die App während des Laufs beendet? Fortsetzen erledigt nur, was noch fehlt.
          </p>
          <button type="submit" className="rounded border border-amber-400 bg-white px-3 py-1.5 text-sm hover:bg-amber-100">
            Lauf fortsetzen
          </button>
        </Form>
      )}
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
