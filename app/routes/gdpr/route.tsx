import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { DataGrid } from "~/components/data-grid/data-grid";
import { loadPageGrid } from "~/components/data-grid/routes.server";
import { SCREEN_TITLES } from "~/components/navigation";
import { dialogAction } from "~/dialogs/kit.server";
import { formatDate, todayInBerlin } from "~/lib/format";
import { retentionInactiveGrid, retentionLeftGrid } from "~/grids/retentionCandidates.grid";
import { RETENTION, RETENTION_KINDS } from "~/lib/retention";
import { retentionSchedule, retentionSettings, setRetentionYears } from "~/models/gdpr.server";
import { readForUser, requireAccess } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

/**
 * Datenschutz (ADMIN, GDPR): the retention overview (issue 16 item 5). Members who left more than
 * N years ago and people without any activity for N years (N in Einstellungen, changed here),
 * each with its Auskunft (Art. 15) and 'Löschen…', the erasure preview (Art. 17). Below, the
 * retention periods per kind of record and what of erased people becomes deletable when (issue 30
 * item 5).
 */
const TITLE = SCREEN_TITLES.gdpr;
export const YEARS_INVALID = "Bitte eine ganze Zahl von 1 bis 30 Jahren eingeben.";

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  const { value } = await readForUser(args, ["gdpr"], async (user) => {
    // All at once: one round trip.
    const [{ years, cutoff }, left, inactive, schedule] = await Promise.all([
      retentionSettings(args.context.db, todayInBerlin()),
      loadPageGrid(args, retentionLeftGrid, user),
      loadPageGrid(args, retentionInactiveGrid, user),
      retentionSchedule(args.context.db, todayInBerlin()),
    ]);
    // The lists' titles say the years (the grid adds how many).
    return {
      years,
      cutoff,
      left: { ...left, title: `Ausgetreten vor mehr als ${years} Jahren` },
      inactive: { ...inactive, title: `Ohne Aktivität seit ${years} Jahren` },
      schedule,
    };
  });
  return value;
}

export async function action(args: ActionFunctionArgs) {
  const form = await readForm(args.request.clone() as Request);
  if (form.get("intent") !== "retentionYears") return dialogAction(args, ["gdpr"], []);
  const user = await requireAccess(args, "gdpr");
  const text = String(form.get("years") ?? "").trim();
  const years = /^\d{1,2}$/.test(text) ? Number(text) : NaN;
  if (!(years >= 1 && years <= 30)) return data({ error: YEARS_INVALID, value: text }, { status: 400 });
  await setRetentionYears(args.context.db, years, user);
  return redirectWithToast(args.context.cloudflare.env, "/gdpr", { type: "success", message: `Aufbewahrungsübersicht: ${years} Jahre gespeichert.` });
}

export default function GdprScreen() {
  const { years, cutoff, left, inactive, schedule } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ error?: string; value?: string }>();
  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <h1 className="text-2xl font-semibold text-wuff-800">{TITLE}: Aufbewahrung</h1>
      <p className="text-sm text-slate-700">
        Wer länger als {years} Jahre ausgetreten oder seit {formatDate(cutoff)} nicht mehr aktiv ist. „Auskunft“ lädt alle Daten der Person als Zip (Art. 15
        DSGVO), „Löschen…“ zeigt, was gelöscht wird und was als Buchungsbeleg (§ 147 AO) bleibt (Art. 17 DSGVO). Die Auskunft und das Löschen jeder anderen
        Person: in der Personenliste über die Zeile.
      </p>
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="retentionYears" />
        <div>
          <label htmlFor="retention-years" className="mb-1 block text-sm font-medium text-slate-700">
            Jahre (Einstellung)
          </label>
          <input
            id="retention-years"
            name="years"
            inputMode="numeric"
            defaultValue={actionData?.value ?? years}
            aria-invalid={actionData?.error ? true : undefined}
            aria-describedby={actionData?.error ? "retention-years-error" : undefined}
            className="w-24 rounded border border-slate-300 px-2 py-1.5"
          />
        </div>
        <button type="submit" className="min-h-11 rounded bg-wuff-700 px-4 text-sm font-medium text-white hover:bg-wuff-800">
          Speichern
        </button>
        {actionData?.error && (
          <p id="retention-years-error" role="alert" className="w-full text-sm text-red-700">
            {actionData.error}
          </p>
        )}
      </Form>
      <DataGrid data={left} />
      <DataGrid data={inactive} />
      <RetentionPeriods schedule={schedule} />
    </div>
  );
}

/** The periods per kind of record (§ 147 AO) and, for erased people, what may go when. */
function RetentionPeriods({ schedule }: { schedule: { until: string; kind: keyof typeof RETENTION; records: string }[] }) {
  const cell = "py-1.5 pr-3 align-top";
  return (
    <section aria-labelledby="retention-periods" className="flex flex-col gap-2">
      <h2 id="retention-periods" className="text-lg font-semibold text-wuff-800">
        Aufbewahrungsfristen
      </h2>
      <p className="text-sm text-slate-700">
        Was Gelöschte Personen betrifft, bleibt nur so lange, wie das Steuerrecht es verlangt: jede Frist ab dem Ende des Jahres, in dem der Eintrag entstanden
        ist (§ 147 Abs. 4 AO). Der tägliche Lauf löscht am Tag nach dem Fristende, was kein noch aufbewahrter Eintrag mehr braucht.
      </p>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-sm">
          <thead>
            <tr className="border-b border-slate-300 text-left">
              <th scope="col" className={`${cell} font-medium`}>
                Art
              </th>
              <th scope="col" className={`${cell} font-medium`}>
                Frist
              </th>
              <th scope="col" className={`${cell} font-medium`}>
                Was dazu gehört
              </th>
              <th scope="col" className={`${cell} font-medium`}>
                Rechtsgrundlage
              </th>
            </tr>
          </thead>
          <tbody>
            {RETENTION_KINDS.map((kind) => (
              <tr key={kind} className="border-b border-slate-200">
                <th scope="row" className={`${cell} text-left font-medium`}>
                  {RETENTION[kind].label}
                </th>
                <td className={`${cell} whitespace-nowrap`}>{RETENTION[kind].years} Jahre</td>
                <td className={cell}>{RETENTION[kind].records}</td>
                <td className={cell}>{RETENTION[kind].rule}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3 className="font-semibold text-slate-800">Wann Aufbewahrtes gelöscht wird</h3>
      {schedule.length === 0 ? (
        <p className="text-sm text-slate-700">Von gelöschten Personen wird nichts mehr aufbewahrt.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-sm">
            <thead>
              <tr className="border-b border-slate-300 text-left">
                <th scope="col" className={`${cell} font-medium`}>
                  Aufbewahrt bis
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  Art
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  Einträge gelöschter Personen
                </th>
              </tr>
            </thead>
            <tbody>
              {schedule.map((due) => (
                <tr key={`${due.until} ${due.kind}`} className="border-b border-slate-200">
                  <td className={`${cell} whitespace-nowrap`}>{formatDate(due.until)}</td>
                  <td className={cell}>{RETENTION[due.kind].label}</td>
                  <td className={cell}>{due.records}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
