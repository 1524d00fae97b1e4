import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { SCREEN_TITLES } from "~/components/navigation";
import { dialogAction } from "~/dialogs/kit.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { isFollowed } from "~/lib/jobs";
import { DIRECT_DEBIT_STATUS_LABELS as STATUS_LABELS } from "~/lib/labels";
import { listDirectDebitRuns } from "~/models/direct-debits.server";
import { latestJobs } from "~/models/jobs.server";
import { requireAccess } from "~/services/auth.server";
import { DirectDebitCard } from "../tasks/direct-debit-card";
import { useFollowRunning } from "../tasks/task-card";

/**
 * Lastschriftläufe (ADMIN, FINANCE; reached from the Kontenblatt and Tasks): the direct-debit run
 * (preview and confirmation in the dialog directDebit, then a bulk run on the queue), and every
 * run with its pain.008 file to download, 'An die Bank übergeben' and 'Lauf stornieren'. Plain
 * links and forms: works without JavaScript (the page reloads itself while a run is under way).
 */
const TITLE = SCREEN_TITLES.directdebits;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "directdebits");
  const { db } = args.context;
  const [latest, runs] = await Promise.all([latestJobs(db), listDirectDebitRuns(db)]);
  return { job: latest.DIRECT_DEBIT, runs, now: new Date().toISOString() };
}

export const action = (args: ActionFunctionArgs) => dialogAction(args, ["directdebits"], []);

const linkClass = "text-wuff-700 underline whitespace-nowrap";

export default function DirectDebitsScreen() {
  const { job, runs, now } = useLoaderData<typeof loader>();
  const running = isFollowed(job, new Date(now));
  useFollowRunning(running);
  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <h1 className="text-2xl font-semibold text-wuff-800">{TITLE}</h1>
      {running && (
        <noscript>
          <meta httpEquiv="refresh" content="2" />
        </noscript>
      )}
      <DirectDebitCard job={job} now={now} />
      <section aria-labelledby="direct-debit-runs" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="direct-debit-runs" className="text-lg font-semibold text-wuff-800">
          Bisherige Läufe
        </h2>
        {runs.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">Noch keine Lastschriftläufe.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100">
            {runs.map((run) => (
              <li key={run.id} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 py-2 text-sm" data-testid={`direct-debit-run-${run.id}`}>
                <span className="font-medium">Lauf {run.id}</span>
                <span>
                  {formatDateTime(run.createdOn)} von {run.createdBy}
                </span>
                <span>
                  {run.transactions} Lastschriften, {run.fees} Posten, {formatMoney(run.total)}
                </span>
                <span className={run.status === "CANCELLED" ? "text-slate-500" : "font-medium"}>
                  {STATUS_LABELS[run.status]}
                  {run.status === "SUBMITTED" && run.submittedOn ? ` (${formatDateTime(run.submittedOn)}, ${run.submittedBy})` : ""}
                  {run.status === "CANCELLED" && run.cancelledOn ? ` (${formatDateTime(run.cancelledOn)}, ${run.cancelledBy})` : ""}
                </span>
                <span className="flex flex-wrap gap-x-4">
                  {run.fileKey && run.status !== "CANCELLED" && (
                    <a href={`/directdebits/file/${run.id}`} download className={linkClass}>
                      Datei herunterladen
                    </a>
                  )}
                  {run.fileKey && run.status === "PREPARED" && (
                    <Link to={`?dialog=directDebit-submit&dialogId=${run.id}`} preventScrollReset className={linkClass}>
                      An die Bank übergeben …
                    </Link>
                  )}
                  {run.finished && run.status === "PREPARED" && (
                    <Link to={`?dialog=directDebit-cancel&dialogId=${run.id}`} preventScrollReset className={linkClass}>
                      Lauf stornieren …
                    </Link>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
