import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { DataGrid } from "~/components/data-grid/data-grid";
import { loadPageGrid, screenAction } from "~/components/data-grid/routes.server";
import { SCREEN_TITLES } from "~/components/navigation";
import { RunCard, RunScreen } from "~/components/run-screen";
import { directDebitRunsGrid } from "~/grids/directDebitRuns.grid";
import { returnedDebitsGrid } from "~/grids/returnedDebits.grid";
import { latestJobs } from "~/models/jobs.server";
import { directDebitCard } from "~/runs/direct-debit.run";
import { readForUser } from "~/services/auth.server";

/**
 * Lastschriftläufe (ADMIN, FINANCE; reached from the Kontenblatt and Tasks): the direct-debit run
 * (preview and confirmation in the dialog directDebit, then a bulk run on the queue), and every
 * run (the grid 'Bisherige Läufe') with its pain.008 file to download, 'An die Bank übergeben' and
 * 'Lauf stornieren', and the booked returned debits (the grid 'Rücklastschriften') with their
 * reason in German and what followed. Works without JavaScript (the page reloads itself while a run is under way).
 */
const TITLE = SCREEN_TITLES.directdebits;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  const { value } = await readForUser(args, ["directdebits"], async (user) => {
    const [latest, runs, returns] = await Promise.all([
      latestJobs(args.context.db),
      loadPageGrid(args, directDebitRunsGrid, user),
      loadPageGrid(args, returnedDebitsGrid, user),
    ]);
    return { job: latest.DIRECT_DEBIT, runs, returns };
  });
  return { ...value, now: new Date().toISOString() };
}

/** The posts of the dialogs opened here (the run's confirmation, handing over, cancelling). */
export const action = screenAction(directDebitRunsGrid);

export default function DirectDebitsScreen() {
  const { job, runs, returns, now } = useLoaderData<typeof loader>();
  return (
    <RunScreen title={TITLE} jobs={[job]} now={now}>
      <RunCard run={directDebitCard} job={job} now={now} />
      <DataGrid data={runs} />
      <DataGrid data={returns} />
    </RunScreen>
  );
}
