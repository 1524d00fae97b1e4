import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { SCREEN_TITLES } from "~/components/navigation";
import { formatDateTimeWithSeconds } from "~/lib/format";
import { APP_VERSION } from "~/lib/version";
import { requireAccess } from "~/services/auth.server";
import { diagnoseInstallation, type CheckState } from "~/services/diagnostics.server";

/**
 * Test (spec 000 §2 route 'test'; ADMIN, issue 29): does this installation work? Every part
 * Wuff needs is really asked (D1, R2, the queue, Browser Rendering, the SMTP server, the payment
 * provider) and reported in German with what to do. A plain page: no JavaScript needed.
 */
const TITLE = SCREEN_TITLES.test;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "test");
  const lines = await diagnoseInstallation(args.context.db, args.context.cloudflare.env);
  return data({ lines, version: APP_VERSION, checkedOn: new Date().toISOString() }, { headers: { "Cache-Control": "no-store" } });
}

/** No form here: a post is only guarded and refused. */
export async function action(args: ActionFunctionArgs) {
  await requireAccess(args, "test");
  return new Response("Diese Seite nimmt keine Formulare an", { status: 405 });
}

const STATE_CLASS: Record<CheckState, string> = {
  ok: "border-green-300 bg-green-50 text-green-900",
  gestört: "border-red-300 bg-red-50 text-red-900",
  "nicht konfiguriert": "border-amber-300 bg-amber-50 text-amber-900",
};

export default function TestScreen() {
  const { lines, version, checkedOn } = useLoaderData<typeof loader>();
  const broken = lines.filter((line) => line.state === "gestört").length;
  const unconfigured = lines.filter((line) => line.state === "nicht konfiguriert").length;
  const summary =
    broken > 0
      ? `${broken === 1 ? "Ein Teil ist" : `${broken} Teile sind`} gestört.`
      : unconfigured > 0
        ? `Alles Eingerichtete arbeitet; ${unconfigured === 1 ? "ein Teil ist" : `${unconfigured} Teile sind`} nicht konfiguriert.`
        : "Alles arbeitet.";
  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <h1 className="text-2xl font-semibold text-wuff-800">{TITLE}</h1>
      <p className="text-sm text-slate-700">
        Prüft, ob diese Installation arbeitet: Jeder Teil wird wirklich angefragt. Geprüft am {formatDateTimeWithSeconds(checkedOn)}, Version {version}.
      </p>
      <p
        role="status"
        className={`rounded border p-3 font-medium ${broken > 0 ? STATE_CLASS.gestört : unconfigured > 0 ? STATE_CLASS["nicht konfiguriert"] : STATE_CLASS.ok}`}
      >
        {summary}
      </p>
      <ul className="flex flex-col gap-3" aria-label="Prüfergebnisse">
        {lines.map((line) => (
          <li key={line.part} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 className="text-lg font-semibold text-wuff-800">{line.part}</h2>
              <span className={`rounded border px-2 py-0.5 text-sm font-medium ${STATE_CLASS[line.state]}`} aria-label={`Zustand ${line.part}: ${line.state}`}>
                {line.state}
              </span>
            </div>
            <p className="mt-2 break-words text-sm text-slate-800">{line.explanation}</p>
            <p className="mt-1 break-words text-sm text-slate-600">
              <span className="font-medium">Was tun:</span> {line.todo}
            </p>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/test" replace className="inline-flex rounded bg-wuff-700 px-4 py-2 text-sm font-medium text-white hover:bg-wuff-800">
          Erneut prüfen
        </Link>
      </p>
    </div>
  );
}
