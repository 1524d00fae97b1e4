import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { DataGrid } from "~/components/data-grid/data-grid";
import { loadPageGrid } from "~/components/data-grid/routes.server";
import { SCREEN_TITLES } from "~/components/navigation";
import { RunCard, RunScreen } from "~/components/run-screen";
import { dialogAction } from "~/dialogs/kit.server";
import { jobsGrid } from "~/grids/jobs.grid";
import { currentYearInBerlin } from "~/lib/format";
import { latestJobs } from "~/models/jobs.server";
import { mailshotChoices } from "~/models/mailshots.server";
import { annualFeesCard, AnnualFeesStart } from "~/runs/annual-fees.run";
import { annualFeeYearsOffered } from "~/runs/annual-fees.run.server";
import { directDebitCard } from "~/runs/direct-debit.run";
import { invoicesCard } from "~/runs/invoices.run";
import { invoicesRun } from "~/runs/invoices.run.server";
import { pdfsCard } from "~/runs/pdfs.run";
import { remindersCard } from "~/runs/reminders.run";
import { subscriptionFeesCard } from "~/runs/subscription-fees.run";
import { subscriptionFeesRun } from "~/runs/subscription-fees.run.server";
import { readForUser } from "~/services/auth.server";
import { ChecksCard } from "./checks-card";
import { MailTaskCards } from "./mail-cards";

/**
 * Tasks (ADMIN; spec 001 §2 Tasks screen): the bulk runs, each a declared run (app/runs) in the
 * kit's RunCard. Each button opens a confirmation with the preview of what the run will do;
 * confirmed, the run goes to the queue and the screen shows its progress (with JavaScript it
 * follows by itself, without it 'Aktualisieren' or the page's own refresh). Below, the history of
 * all runs. The last invoicing run can be undone.
 */
const TITLE = SCREEN_TITLES.tasks;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  const { value } = await readForUser(args, ["tasks"], async (user) => {
    const { db } = args.context;
    const [latest, history, undo, subscriptionUndo, mailshots] = await Promise.all([
      latestJobs(db),
      loadPageGrid(args, jobsGrid, user),
      invoicesRun.undo.state(db),
      subscriptionFeesRun.undo.state(db),
      mailshotChoices(db),
    ]);
    return { latest, history, undo, subscriptionUndo, mailshots };
  });
  const years = annualFeeYearsOffered();
  return { ...value, years, year: currentYearInBerlin(), now: new Date().toISOString() };
}

export const action = (args: ActionFunctionArgs) => dialogAction(args, ["tasks"], []);

export default function TasksScreen() {
  const { latest, history, undo, subscriptionUndo, years, year, now, mailshots } = useLoaderData<typeof loader>();
  return (
    <RunScreen title={TITLE} jobs={Object.values(latest)} now={now}>
      <div className="grid gap-4 md:grid-cols-2">
        <RunCard run={annualFeesCard} job={latest.ANNUAL_FEES} now={now}>
          <AnnualFeesStart job={latest.ANNUAL_FEES} years={years} year={year} />
        </RunCard>
        <RunCard run={subscriptionFeesCard} job={latest.SUBSCRIPTION_FEES} now={now} undo={subscriptionUndo} />
        <RunCard run={invoicesCard} job={latest.INVOICES} now={now} undo={undo} />
        <RunCard run={pdfsCard} job={latest.PDFS} now={now} />
        <ChecksCard />
        <MailTaskCards mailshots={mailshots} job={latest.MAILSHOT} now={now} />
        <RunCard run={directDebitCard} job={latest.DIRECT_DEBIT} now={now} screenLink />
        <RunCard run={remindersCard} job={latest.REMINDERS} now={now} screenLink />
      </div>
      <DataGrid data={history} />
    </RunScreen>
  );
}
