/**
 * The kit's bulk-run screen (ARCHITECTURE pattern 9): RunCard shows a declared run (app/runs) with
 * its start, its last run's progress and result, its downloads and undo; RunScreen follows the runs
 * it shows while they are under way (polling with JavaScript, a refresh without it). Tasks,
 * Lastschriftläufe and Mahnwesen mount the same cards.
 */
import { Form, Link, useLocation } from "@remix-run/react";
import { formatDateTime } from "~/lib/format";
import { isActive, isFollowed, isStalled, JOB_STATUS_LABELS, jobMessage, jobTitle, progressText, resumedText } from "~/lib/jobs";
import type { JobRow } from "~/models/jobs.server";
import type { RunDecl } from "~/runs/declare";
import { usePolling } from "./use-polling";

export const buttonClass = "inline-flex items-center rounded bg-wuff-700 px-4 py-2 text-sm font-medium text-white hover:bg-wuff-800";
export const busyButtonClass = "inline-flex cursor-not-allowed items-center rounded bg-slate-400 px-4 py-2 text-sm font-medium text-white";

/** How often a screen looks at a running job (with JavaScript; without it the page refreshes
 *  itself through a noscript meta refresh). */
const POLL_MILLISECONDS = 1000;

/** A screen of runs: its title, and it follows every run it shows until the run's result is there. */
export function RunScreen({ title, jobs, now, children }: { title: string; jobs: (JobRow | undefined)[]; now: string; children: React.ReactNode }) {
  const running = jobs.some((job) => isFollowed(job, new Date(now)));
  usePolling(running, POLL_MILLISECONDS);
  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <h1 className="text-2xl font-semibold text-wuff-800">{title}</h1>
      {running && (
        // Without JavaScript the page reloads itself while a run is under way.
        <noscript>
          <meta httpEquiv="refresh" content="2" />
        </noscript>
      )}
      {children}
    </div>
  );
}

/**
 * A declared run as a card: what it does, its start (the declared link, or `children` for a run
 * whose start needs a choice), its files, its undo, the link to its own screen, and its last run.
 */
export function RunCard({
  run,
  job,
  now,
  undo,
  screenLink = false,
  children,
}: {
  run: RunDecl;
  job: JobRow | undefined;
  now: string;
  /** The last run's undo (from the server's declaration), or null when there is none to undo. */
  undo?: { jobId: number; refusal: string | null } | null;
  /** Show the link to the run's own screen (on Tasks, not on that screen). */
  screenLink?: boolean;
  children?: React.ReactNode;
}) {
  const downloads = job && !isActive(job) ? (run.downloads ?? []).filter((download) => download.when?.(job) ?? true) : [];
  return (
    <TaskCard id={run.id} title={run.title} text={run.text} run={{ job, now, resumeIntent: run.resumeIntent }}>
      {children ?? (run.start && <StartRunLink job={job} {...run.start} />)}
      {run.undo && undo && <UndoLine dialog={run.undo.dialog} label={run.undo.label} {...undo} />}
      {job &&
        downloads.map((download) => (
          <a key={download.label} href={download.href(job)} className="text-wuff-700 underline" download>
            {download.label}
          </a>
        ))}
      {screenLink && run.screen && (
        <Link to={run.screen.to} className="text-sm text-wuff-700 underline">
          {run.screen.label}
        </Link>
      )}
    </TaskCard>
  );
}

/** One task of a run screen: what it does, its button(s), and its last run (for a bulk run: `run`). */
export function TaskCard({
  id,
  title,
  text,
  run,
  children,
}: {
  id: string;
  title: string;
  text: React.ReactNode;
  run?: { job: JobRow | undefined; now: string; resumeIntent: RunDecl["resumeIntent"] };
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-wuff-800">
        {title}
      </h2>
      <p className="text-sm text-slate-700">{text}</p>
      <div className="flex flex-wrap items-center gap-3">{children}</div>
      {run && <LastRun title={title} job={run.job} now={run.now} resumeIntent={run.resumeIntent} />}
    </section>
  );
}

/** The button that opens a run's confirmation (`dialog`), shown disabled while the run is under way. */
function StartRunLink({ job, dialog, label, busyLabel }: { job: JobRow | undefined; dialog: string; label: string; busyLabel: string }) {
  if (isActive(job)) {
    return (
      <button type="button" disabled className={busyButtonClass}>
        {busyLabel}
      </button>
    );
  }
  return (
    <Link to={`?dialog=${dialog}`} preventScrollReset className={buttonClass}>
      {label}
    </Link>
  );
}

function UndoLine({ jobId, refusal, dialog, label }: { jobId: number; refusal: string | null; dialog: string; label: string }) {
  if (refusal) return <p className="w-full text-sm text-slate-600">Rückgängig machen nicht mehr möglich: {refusal}</p>;
  return (
    <Link to={`?dialog=${dialog}&dialogId=${jobId}`} preventScrollReset className="rounded border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50">
      {label}
    </Link>
  );
}

/** The newest run of the task: status, progress bar and message, read out when it changes. */
function LastRun({ title, job, now, resumeIntent }: { title: string; job: JobRow | undefined; now: string; resumeIntent: RunDecl["resumeIntent"] }) {
  const { pathname } = useLocation();
  if (!job) return <p className="text-sm text-slate-500">Noch nie gelaufen.</p>;
  const active = isActive(job);
  const status = job.undoneOn ? "rückgängig gemacht" : JOB_STATUS_LABELS[job.status];
  const resumed = resumedText(job);
  return (
    <div className="border-t border-slate-100 pt-3 text-sm">
      <p className="text-slate-600">
        Letzter Lauf ({jobTitle(job)}): {formatDateTime(job.startedOn)} von {job.createdBy} –{" "}
        <span className={job.status === "FAILED" ? "font-medium text-red-700" : "font-medium"}>{status}</span>
      </p>
      <div className="mt-2 flex items-center gap-3">
        <progress
          value={job.done + job.failed}
          max={Math.max(job.total, 1)}
          aria-label={`Fortschritt ${title}`}
          className="h-3 w-full max-w-xs accent-wuff-700"
        >
          {progressText(job)}
        </progress>
        <span className="whitespace-nowrap tabular-nums text-slate-700">{progressText(job)}</span>
      </div>
      <p role="status" aria-label={`Ergebnis ${title}`} className={`mt-2 ${job.status === "FAILED" ? "text-red-700" : "text-slate-900"}`}>
        {jobMessage(job)}
      </p>
      {resumed && <p className="mt-1 text-slate-700">{resumed}</p>}
      {active && (
        <Link to={pathname} replace preventScrollReset className="mt-1 inline-block text-wuff-700 underline">
          Aktualisieren
        </Link>
      )}
      {isStalled(job, new Date(now)) && (
        <Form method="post" className="mt-2 flex flex-wrap items-center gap-2 rounded border border-amber-300 bg-amber-50 p-2">
          <input type="hidden" name="intent" value={resumeIntent} />
          <input type="hidden" name="id" value={job.id} />
          <p className="text-amber-900">
            Seit {formatDateTime(job.lastProgressOn ?? job.startedOn)} kein Fortschritt: Wurde die App während des Laufs beendet? Er wird in wenigen Minuten
            automatisch fortgesetzt; Fortsetzen erledigt nur, was noch fehlt.
          </p>
          <button type="submit" className="rounded border border-amber-400 bg-white px-3 py-1.5 text-sm hover:bg-amber-100">
            Lauf fortsetzen
          </button>
        </Form>
      )}
    </div>
  );
}
