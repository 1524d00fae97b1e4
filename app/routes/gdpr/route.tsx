import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { DataGrid } from "~/components/data-grid/data-grid";
import { loadPageGrid } from "~/components/data-grid/routes.server";
import { SCREEN_TITLES } from "~/components/navigation";
import { dialogAction } from "~/dialogs/kit.server";
import { formatDate, todayInBerlin } from "~/lib/format";
import { retentionInactiveGrid, retentionLeftGrid } from "~/grids/retentionCandidates.grid";
import { retentionSettings, setRetentionYears } from "~/models/gdpr.server";
import { readForUser, requireAccess } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

/**
 * Datenschutz (ADMIN, GDPR): the retention overview (issue 16 item 5). Members who left more than
 * N years ago and people without any activity for N years (N in Einstellungen, changed here),
 * each with its Auskunft (Art. 15) and 'Löschen…', the erasure preview (Art. 17).
 */
const TITLE = SCREEN_TITLES.gdpr;
export const YEARS_INVALID = "Bitte eine ganze Zahl von 1 bis 30 Jahren eingeben.";

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  const { value } = await readForUser(args, ["gdpr"], async (user) => {
    // All three at once: one round trip.
    const [{ years, cutoff }, left, inactive] = await Promise.all([
      retentionSettings(args.context.db, todayInBerlin()),
      loadPageGrid(args, retentionLeftGrid, user),
      loadPageGrid(args, retentionInactiveGrid, user),
    ]);
    // The lists' titles say the years (the grid adds how many).
    return {
      years,
      cutoff,
      left: { ...left, title: `Ausgetreten vor mehr als ${years} Jahren` },
      inactive: { ...inactive, title: `Ohne Aktivität seit ${years} Jahren` },
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
  const { years, cutoff, left, inactive } = useLoaderData<typeof loader>();
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
    </div>
  );
}
