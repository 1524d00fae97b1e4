import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { SCREEN_TITLES } from "~/components/navigation";
import { DataGrid } from "~/components/data-grid/data-grid";
import { loadPageGrid, screenAction } from "~/components/data-grid/routes.server";
import { remindersGrid } from "~/grids/reminders.grid";
import { latestJobs } from "~/models/jobs.server";
import { readForUser } from "~/services/auth.server";
import { RunCard, RunScreen } from "~/components/run-screen";
import { remindersCard } from "~/runs/reminders.run";

/**
 * Mahnwesen (ADMIN, FINANCE; issue 17): the reminder run (its preview and confirmation open as a
 * dialog; the screen follows its progress) and every reminder written (the grid 'Mahnungen',
 * declared in app/grids/reminders.grid.ts, with 'Stornieren' for one not sent yet). What is due is set
 * in Einstellungen (Mahnwesen); the grids Rechnungen and Kontenblatt filter 'Mahnung fällig'.
 */
const TITLE = SCREEN_TITLES.reminders;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  const { value } = await readForUser(args, ["reminders"], async (user) => {
    const [latest, reminders] = await Promise.all([latestJobs(args.context.db), loadPageGrid(args, remindersGrid, user)]);
    return { job: latest.REMINDERS, reminders };
  });
  return { ...value, now: new Date().toISOString() };
}

/** The posts of the dialogs opened here (the run's confirmation, a reminder's cancellation). */
export const action = screenAction(remindersGrid);

export default function RemindersScreen() {
  const { job, reminders, now } = useLoaderData<typeof loader>();
  return (
    <RunScreen title={TITLE} jobs={[job]} now={now}>
      <RunCard run={remindersCard} job={job} now={now} />
      <DataGrid data={reminders} />
    </RunScreen>
  );
}
